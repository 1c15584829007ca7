import { describe, expect, it } from 'vitest';
import { checkTemplateSignees, type TemplateRoleRef } from './template-signees.js';

const roles: TemplateRoleRef[] = [
  { id: 'r-client', name: 'Client' },
  { id: 'r-landlord', name: 'Landlord' },
];
const ann = { email: 'ann@example.com', name: 'Ann' };
const bob = { email: 'bob@example.com', name: 'Bob' };

describe('checkTemplateSignees', () => {
  it('takes roles by name in any case and spacing, sorted by role', () => {
    expect(
      checkTemplateSignees(roles, [
        { role: ' landlord ', ...bob, language: 'de' },
        { role: 'CLIENT', email: 'ann@example.com', name: ' Ann ' },
      ]),
    ).toEqual({
      signees: [
        { roleIndex: 0, email: 'ann@example.com', name: 'Ann', language: null },
        { roleIndex: 1, email: 'bob@example.com', name: 'Bob', language: 'de' },
      ],
      errors: [],
    });
  });

  it('takes roles by 0-based index, and a language in any case', () => {
    const result = checkTemplateSignees(roles, [
      { role: 1, ...bob, language: null },
      { role: 0, ...ann, language: 'FR' },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.signees.map((s) => [s.roleIndex, s.email, s.language])).toEqual([
      [0, 'ann@example.com', 'fr'],
      [1, 'bob@example.com', null],
    ]);
  });

  it('matches a name made of digits by name, and never a digit string by index', () => {
    const numbered = [
      { id: 'a', name: '1' },
      { id: 'b', name: 'Two' },
    ];
    expect(
      checkTemplateSignees(numbered, [
        { role: '1', ...ann },
        { role: 1, ...bob },
      ]).signees.map((s) => s.email),
    ).toEqual(['ann@example.com', 'bob@example.com']);
    expect(
      checkTemplateSignees(roles, [
        { role: '0', ...ann },
        { role: 1, ...bob },
      ]).errors,
    ).toEqual([
      {
        path: 'signees[0].role',
        message: "no role named 0; the template's roles are Client, Landlord",
      },
      { path: 'signees', message: 'role Client has no signee' },
    ]);
  });

  it('names an unknown role, an index out of range and a role that is neither', () => {
    const { signees, errors } = checkTemplateSignees(roles, [
      { role: 'Tenant', ...ann },
      { role: 2, ...bob },
      { role: 0.5, email: 'c@example.com', name: 'C' },
      { role: true, email: 'd@example.com', name: 'D' },
      { email: 'e@example.com', name: 'E' },
    ]);
    expect(signees).toEqual([]);
    expect(errors).toEqual([
      {
        path: 'signees[0].role',
        message: "no role named Tenant; the template's roles are Client, Landlord",
      },
      {
        path: 'signees[1].role',
        message: 'role 2 does not exist: a 0-based index goes from 0 to 1',
      },
      {
        path: 'signees[2].role',
        message: 'role 0.5 does not exist: a 0-based index goes from 0 to 1',
      },
      {
        path: 'signees[3].role',
        message: "must be the name of one of the template's roles or its 0-based index",
      },
      {
        path: 'signees[4].role',
        message: "must be the name of one of the template's roles or its 0-based index",
      },
      { path: 'signees', message: 'role Client has no signee' },
      { path: 'signees', message: 'role Landlord has no signee' },
    ]);
  });

  it('lists at most ten roles in the message', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, name: `R${i}` }));
    const { errors } = checkTemplateSignees(many, [{ role: 'X', ...ann }]);
    expect(errors[0].message).toBe(
      "no role named X; the template's roles are R0, R1, R2, R3, R4, R5, R6, R7, R8, R9 and 2 more",
    );
  });

  it('needs exactly one signee per role', () => {
    expect(checkTemplateSignees(roles, [{ role: 'Client', ...ann }]).errors).toEqual([
      { path: 'signees', message: 'role Landlord has no signee' },
    ]);
    expect(
      checkTemplateSignees(roles, [
        { role: 'Client', ...ann },
        { role: 1, ...bob },
        { role: 0, email: 'c@example.com', name: 'C' },
      ]).errors,
    ).toEqual([
      { path: 'signees[2].role', message: 'role Client already has a signee (signees[0].role)' },
    ]);
    expect(checkTemplateSignees(roles, []).errors).toEqual([
      { path: 'signees', message: 'role Client has no signee' },
      { path: 'signees', message: 'role Landlord has no signee' },
    ]);
  });

  it("checks e-mails and names by quick-create's rules, e-mails unique ignoring case", () => {
    const { errors } = checkTemplateSignees(roles, [
      { role: 0, email: 'not-an-email', name: '  ' },
      { role: 1, email: 'x'.repeat(250) + '@example.com', name: 'n'.repeat(201) },
    ]);
    expect(errors.map((e) => e.path)).toEqual([
      'signees[0].email',
      'signees[0].name',
      'signees[1].email',
      'signees[1].name',
    ]);
    expect(errors[0].message).toBe('must be a valid e-mail address');
    expect(errors[1].message).toBe('must not be empty');
    expect(
      checkTemplateSignees(roles, [
        { role: 0, ...ann },
        { role: 1, email: 'ANN@example.com', name: 'Ann again' },
      ]).errors,
    ).toEqual([{ path: 'signees[1].email', message: 'duplicates signees[0].email' }]);
  });

  it('refuses a language that is not an e-mail language', () => {
    expect(
      checkTemplateSignees(roles, [
        { role: 0, ...ann, language: 'xx' },
        { role: 1, ...bob, language: 7 },
      ]).errors,
    ).toEqual([
      {
        path: 'signees[0].language',
        message: 'must be one of en, de, fr, es, nl, pt, it, pl, ja, zh, ko, ar',
      },
      {
        path: 'signees[1].language',
        message: 'must be one of en, de, fr, es, nl, pt, it, pl, ja, zh, ko, ar',
      },
    ]);
  });

  it('refuses what is not an array of objects', () => {
    expect(checkTemplateSignees(roles, undefined).errors).toEqual([
      { path: 'signees', message: 'must be an array of {role, email, name, language?}' },
    ]);
    expect(checkTemplateSignees(roles, { role: 0 }, 'body.signees').errors[0].path).toBe(
      'body.signees',
    );
    const { errors } = checkTemplateSignees(roles, ['ann@example.com', { role: 1, ...bob }]);
    expect(errors[0]).toMatchObject({ path: 'signees[0]' });
    expect(errors[1]).toEqual({ path: 'signees', message: 'role Client has no signee' });
    expect(checkTemplateSignees(roles, new Array(101).fill({})).errors).toEqual([
      { path: 'signees', message: 'at most 100 signees' },
    ]);
  });

  it('points errors where `path` and `pathOf` say', () => {
    const columns = ['Client.email', 'Landlord.email'];
    expect(
      checkTemplateSignees(
        roles,
        [
          { role: 0, ...ann },
          { role: 1, email: 'Ann@Example.com', name: 'Bob' },
        ],
        'rows[3].signees',
        (index, key) => (key === 'email' ? columns[index] : `${index}.${key}`),
      ).errors,
    ).toEqual([{ path: 'Landlord.email', message: 'duplicates Client.email' }]);
    expect(checkTemplateSignees(roles, [{ role: 9, ...ann }], 'rows[3].signees').errors[0]).toEqual(
      {
        path: 'rows[3].signees[0].role',
        message: 'role 9 does not exist: a 0-based index goes from 0 to 1',
      },
    );
  });
});
