import { PDF } from '@libpdf/core';
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { box, useRolesContext, type Signee } from './recipient-roles-support.js';

// Recipient roles on drafts and templates (decisions §12): fields only for signers, someone who
// signs or approves on every draft, and each template role's recipient role carried over.
describe.each(ENGINES)('recipient roles of drafts and templates on %s', (engine) => {
  const { m, f, call, addr, credits, create } = useRolesContext(engine);

  it('places fields only for signers, and keeps a signer or approver on every draft', async () => {
    const people = [
      { email: addr('sig'), name: 'Sig Ner' },
      { email: addr('app'), name: 'Ann Approver', role: 'approver' },
      { email: addr('cc'), name: 'Cid Copy', role: 'cc' },
    ];
    const onApprover = await quickCreate(m.ctx, f.apiKey, {
      tenantId: f.tenantId,
      signees: people,
      extra: { fields: JSON.stringify([{ signee: 1, type: 'text', ...box }]) },
    });
    expect(onApprover.status).toBe(422);
    expect(onApprover.body.errors).toEqual([
      {
        path: 'fields[0].signee',
        message: expect.stringContaining('is for an approver: fields are placed only for signers'),
      },
    ]);
    const tagged = PDF.create();
    tagged.addPage({ width: 595, height: 842 }).drawText('Copy: {{signature:3}}', {
      x: 72,
      y: 700,
      size: 12,
    });
    const onCc = await quickCreate(m.ctx, f.apiKey, {
      tenantId: f.tenantId,
      signees: people,
      file: Buffer.from(await tagged.save()),
      extra: { textTags: 'true' },
    });
    expect(onCc.status).toBe(422);
    expect(onCc.body.errors[0].path).toBe('textTags');
    expect(onCc.body.errors[0].message).toMatch(/^\{\{signature:3\}\} on page 1: is for a cc/);

    const draft = await create(people.slice(0, 2));
    const [signer, approver] = draft.signees;
    const put = (signeeId: string) =>
      call('PUT', `/api/documents/${draft.id}/fields`, {
        fields: [{ signeeId, type: 'signature', ...box }],
      });
    const refused = await put(approver.id);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].path).toBe('fields[0].signeeId');
    expect((await put(signer.id)).status).toBe(200);
    const signeeUrl = (id: string) => `/api/documents/${draft.id}/signees/${id}`;
    const toApprover = await call('PATCH', signeeUrl(signer.id), { role: 'approver' });
    expect(toApprover.status).toBe(422);
    expect(toApprover.body.errors[0].path).toBe('body.role');
    const toCc = await call('PATCH', signeeUrl(approver.id), { role: 'cc' });
    expect(toCc.status).toBe(200);
    expect(toCc.body.signee.role).toBe('cc');
    // The signer is now the only one who acts: they stay.
    const removed = await call('DELETE', signeeUrl(signer.id));
    expect(removed.status).toBe(422);
    expect(removed.body.errors[0]).toEqual({
      path: 'signees',
      message: 'at least one signee must be a signer or an approver',
    });
    const added = await call('POST', `/api/documents/${draft.id}/signees`, {
      email: addr('new'),
      name: 'New Approver',
      role: 'approver',
    });
    expect(added.status).toBe(201);
    expect(added.body.signee.role).toBe('approver');
  });

  it('templates carry each role to the documents made from them, and back', async () => {
    const roles = [
      { name: 'Client' },
      { name: 'Legal', role: 'approver' },
      { name: 'Office', role: 'cc' },
    ];
    const template = { name: 'Roles lease', roles };
    const onApprover = await createTemplate(m.ctx, f.apiKey, {
      tenantId: f.tenantId,
      template,
      fields: signatureFields(2),
    });
    expect(onApprover.status).toBe(422);
    expect(onApprover.body.errors[0].path).toBe('fields[1].role');
    const ccOnly = await createTemplate(m.ctx, f.apiKey, {
      tenantId: f.tenantId,
      template: { name: 'Copies', roles: [{ name: 'Office', role: 'cc' }] },
    });
    expect(ccOnly.status).toBe(422);
    const made = await createTemplate(m.ctx, f.apiKey, {
      tenantId: f.tenantId,
      template,
      fields: signatureFields(1),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const t = made.body.template;
    expect(t.roles.map((r: { role: string }) => r.role)).toEqual(['signer', 'approver', 'cc']);
    expect(Object.keys(t.roles[0]).sort()).toEqual(['id', 'name', 'role', 'signingOrder']);

    const before = await credits();
    const used = await call('POST', `/api/templates/${t.id}/documents`, {
      signees: [
        { role: 'Client', email: addr('client'), name: 'Cara Client' },
        { role: 1, email: addr('legal'), name: 'Lee Legal' },
        { role: 'office', email: addr('office'), name: 'Otto Office' },
      ],
      send: true,
    });
    expect(used.status, JSON.stringify(used.body)).toBe(201);
    expect(used.body.signees.map((x: Signee) => x.role)).toEqual(['signer', 'approver', 'cc']);
    expect(used.body.deliveries).toHaveLength(2);
    expect(await credits()).toBe(before - 1);

    // Saved back as a template, each role keeps its signee's role.
    const draft = await create(
      [
        { email: addr('a'), name: 'Ann' },
        { email: addr('b'), name: 'Ben', role: 'approver' },
        { email: addr('c'), name: 'Cid', role: 'cc' },
      ],
      { fields: JSON.stringify([{ signee: 0, type: 'signature', ...box }]) },
    );
    const onFields = await call('POST', `/api/documents/${draft.id}/save-as-template`, {
      name: 'Saved roles',
      roles: [{ name: 'Buyer', role: 'approver' }, 'Checker', 'Archive'],
    });
    expect(onFields.status).toBe(422);
    expect(onFields.body.errors[0].path).toBe('roles[0].role');
    const saved = await call('POST', `/api/documents/${draft.id}/save-as-template`, {
      name: 'Saved roles',
      roles: ['Buyer', { name: 'Checker' }, { name: 'Archive', role: 'cc' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.template.roles.map((r: { role: string }) => r.role)).toEqual([
      'signer',
      'approver',
      'cc',
    ]);
    // A role with fields cannot become an approver; one without can, kept by id otherwise.
    const [client, legal, office] = t.roles as Array<{ id: string; name: string }>;
    const patch = (first: string) =>
      call('PATCH', `/api/templates/${t.id}`, {
        roles: [
          { id: client.id, name: client.name, role: first },
          { id: legal.id, name: legal.name },
          { id: office.id, name: office.name },
        ],
      });
    const refused = await patch('approver');
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].path).toBe('roles[0].role');
    const kept = await patch('signer');
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.template.roles.map((r: { role: string }) => r.role)).toEqual([
      'signer',
      'approver',
      'cc',
    ]);
  });
});
