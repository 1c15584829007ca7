import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, quickCreatePartsSchema } from './documents.schemas.js';

const tenantId = '0196a0b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b';
const signees = (list: unknown[]) => JSON.stringify(list);

// The 422 `errors[]` quick-create would answer for these parts, or the parsed parts.
function parse(parts: Record<string, string>) {
  const result = quickCreatePartsSchema.safeParse(parts);
  return result.success ? { data: result.data } : { errors: fieldErrorsOf(result.error) };
}

describe('quickCreatePartsSchema', () => {
  it('decodes every part, the optional ones included', () => {
    expect(
      parse({
        tenantId,
        signees: signees([
          { email: 'a@example.com', name: ' Ann ', signingOrder: 1 },
          { email: 'b@example.com', name: 'Bob', signingOrder: 2, signingGroupId: 'legal' },
        ]),
        name: ' Lease ',
        signingMessage: 'Please sign by Friday.',
        signingOrderEnabled: 'true',
        signingGroupsEnabled: 'false',
      }),
    ).toEqual({
      data: {
        tenantId,
        signees: [
          { email: 'a@example.com', name: 'Ann', signingOrder: 1 },
          { email: 'b@example.com', name: 'Bob', signingOrder: 2, signingGroupId: 'legal' },
        ],
        name: 'Lease',
        signingMessage: 'Please sign by Friday.',
        signingOrderEnabled: true,
        signingGroupsEnabled: false,
      },
    });
  });

  it('leaves signingOrderEnabled unset and signingGroupsEnabled false when absent', () => {
    const { data } = parse({ tenantId, signees: signees([{ email: 'a@x.org', name: 'A' }]) });
    expect(data?.signingOrderEnabled).toBeUndefined();
    expect(data?.signingGroupsEnabled).toBe(false);
  });

  it('refuses signees that are not JSON, and tells nothing else about them', () => {
    expect(parse({ tenantId, signees: '[{"email":' })).toEqual({
      errors: [{ path: 'signees', message: 'must be a JSON array of {email, name}' }],
    });
  });

  it('refuses the same e-mail twice, whatever its case', () => {
    expect(
      parse({
        tenantId,
        signees: signees([
          { email: 'Same@Example.com', name: 'One' },
          { email: 'b@example.com', name: 'Two' },
          { email: 'same@example.COM', name: 'Three' },
        ]),
      }),
    ).toEqual({
      errors: [{ path: 'signees.2.email', message: 'duplicates signees.0.email' }],
    });
  });

  it('takes only true or false for signingGroupsEnabled', () => {
    expect(
      parse({
        tenantId,
        signees: signees([{ email: 'a@example.com', name: 'A' }]),
        signingGroupsEnabled: 'yes',
      }),
    ).toEqual({ errors: [{ path: 'signingGroupsEnabled', message: 'must be true or false' }] });
  });

  it('takes only true or false for signingOrderEnabled', () => {
    expect(
      parse({
        tenantId,
        signees: signees([{ email: 'a@example.com', name: 'A' }]),
        signingOrderEnabled: 'yes',
      }),
    ).toEqual({
      errors: [
        { path: 'signingOrderEnabled', message: 'Invalid option: expected one of "true"|"false"' },
      ],
    });
  });

  it('refuses a NUL character inside a signee, by its path', () => {
    expect(
      parse({ tenantId, signees: signees([{ email: 'a@example.com', name: 'A\u0000B' }]) }),
    ).toEqual({
      errors: [{ path: 'signees.0.name', message: 'must not contain NUL characters' }],
    });
  });

  it('refuses no signees and more than 100', () => {
    expect(parse({ tenantId, signees: '[]' })).toEqual({
      errors: [{ path: 'signees', message: 'at least one signee is required' }],
    });
    const many = Array.from({ length: 101 }, (_, i) => ({ email: `s${i}@x.org`, name: `S${i}` }));
    expect(parse({ tenantId, signees: signees(many) })).toEqual({
      errors: [{ path: 'signees', message: 'at most 100 signees' }],
    });
    expect(parse({ tenantId, signees: signees(many.slice(0, 100)) })).toHaveProperty('data');
  });

  it('refuses a signing order below 1', () => {
    expect(
      parse({
        tenantId,
        signees: signees([{ email: 'a@example.com', name: 'A', signingOrder: 0 }]),
      }),
    ).toEqual({
      errors: [{ path: 'signees.0.signingOrder', message: 'Too small: expected number to be >=1' }],
    });
  });

  it('reports problems in order, and those inside signees only when they come first', () => {
    expect(
      parse({
        tenantId: 'not-a-uuid',
        signees: signees([{ email: 'nope', name: ' ' }]),
        signingGroupsEnabled: 'maybe',
      }),
    ).toEqual({
      errors: [
        { path: 'tenantId', message: 'Invalid UUID' },
        { path: 'signingGroupsEnabled', message: 'must be true or false' },
      ],
    });
    expect(parse({ tenantId, signees: signees([{ email: 'nope', name: ' ' }]) })).toEqual({
      errors: [{ path: 'signees.0.email', message: 'must be a valid e-mail address' }],
    });
  });
});
