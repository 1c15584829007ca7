import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { useMailingContext } from '../helpers/smtp.js';
import { createTemplate } from '../helpers/templates.js';

type Entry = { action: string; signeeId: string | null; details: Record<string, unknown> | null };

// A signee input's `auth` and `accessCode` (decisions §13, docs/signing.md) on quick-create,
// draft edits and create-from-template: checked, answered as `auth` only, the code stored as an
// Argon2id hash and nowhere in the clear. verification.test.ts has the signing flows.
describe.each(ENGINES)('signer verification input on %s', (engine) => {
  const m = useMailingContext(engine, { listen: true });
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    apiKey = (await createUser(m.ctx, { name: 'Sam Sender' })).apiKey;
    tenantId = (await createTenant(m.ctx, apiKey)).id;
  });

  const address = (label: string) => `${label}.${Math.random().toString(36).slice(2, 7)}@ex.io`;
  const trail = async (id: string) =>
    (await api(m.ctx, apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail as Entry[];

  it('takes auth and accessCode on quick-create and draft edits, answers auth only', async () => {
    const refusals: Array<[Record<string, string>, string]> = [
      [{ auth: 'access_code' }, 'signees.0.accessCode'],
      [{ auth: 'email_otp', accessCode: 'secret-1' }, 'signees.0.accessCode'],
      [{ auth: 'access_code', accessCode: 'abc' }, 'signees.0.accessCode'],
      [{ auth: 'access_code', accessCode: 'x'.repeat(65) }, 'signees.0.accessCode'],
      [{ auth: 'passkey' }, 'signees.0.auth'],
    ];
    for (const [auth, at] of refusals) {
      const bad = await quickCreate(m.ctx, apiKey, {
        tenantId,
        signees: [{ email: address('a'), name: 'A', ...auth }],
      });
      expect(bad.status).toBe(422);
      expect((bad.body.errors as Array<{ path: string }>).map((e) => e.path)).toEqual([at]);
    }

    const code = 'Moonlight-7391';
    const created = await quickCreate(m.ctx, apiKey, {
      tenantId,
      signees: [
        { email: address('ada'), name: 'Ada', auth: 'access_code', accessCode: code },
        { email: address('bob'), name: 'Bob', auth: 'email_otp' },
        { email: address('cy'), name: 'Cy' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.signees.map((s: { auth: string }) => s.auth)).toEqual([
      'access_code',
      'email_otp',
      'none',
    ]);
    const id = created.body.document.id;
    const [ada, bob] = created.body.signees;

    // Draft edits: a new code, a change of method, a signee added with a code.
    const secondCode = 'Sunrise-4410';
    const edited = await api(m.ctx, apiKey, 'PATCH', `/api/documents/${id}/signees/${ada.id}`, {
      accessCode: secondCode,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.signee.auth).toBe('access_code');
    const needsCode = await api(m.ctx, apiKey, 'PATCH', `/api/documents/${id}/signees/${bob.id}`, {
      auth: 'access_code',
    });
    expect(needsCode.status).toBe(422);
    expect(needsCode.body.errors).toEqual([
      { path: 'body.accessCode', message: 'is required with auth access_code' },
    ]);
    const toNone = await api(m.ctx, apiKey, 'PATCH', `/api/documents/${id}/signees/${bob.id}`, {
      auth: 'none',
    });
    expect(toNone.body.signee.auth).toBe('none');
    const added = await api(m.ctx, apiKey, 'POST', `/api/documents/${id}/signees`, {
      email: address('dee'),
      name: 'Dee',
      auth: 'access_code',
      accessCode: 'Harbour-2207',
    });
    expect(added.status).toBe(201);
    expect(added.body.signee.auth).toBe('access_code');
    const addedBad = await api(m.ctx, apiKey, 'POST', `/api/documents/${id}/signees`, {
      email: address('eve'),
      name: 'Eve',
      accessCode: 'x',
      auth: 'email_otp',
    });
    expect(addedBad.status).toBe(422);

    // No answer, audit entry or row holds a code in the clear.
    const answers = JSON.stringify([created.body, edited.body, added.body, toNone.body]);
    const audit = JSON.stringify(await trail(id));
    const rows = JSON.stringify(
      await m.ctx.db.kysely
        .selectFrom('signees')
        .selectAll()
        .where('document_id', '=', id)
        .execute(),
    );
    for (const secret of [code, secondCode, 'Harbour-2207']) {
      expect(answers).not.toContain(secret);
      expect(audit).not.toContain(secret);
      expect(rows).not.toContain(secret);
    }
    expect(rows).toContain('$argon2id$');
    expect(await trail(id)).toContainEqual(
      expect.objectContaining({ action: 'signee changed', details: { accessCode: 'changed' } }),
    );
  });

  it('takes auth and accessCode per signee when a document is made from a template', async () => {
    const template = await createTemplate(m.ctx, apiKey, { tenantId });
    expect(template.status).toBe(201);
    const url = `/api/templates/${template.body.template.id}/documents`;
    const bad = await api(m.ctx, apiKey, 'POST', url, {
      signees: [
        { role: 'Tenant', email: address('t'), name: 'T', auth: 'access_code' },
        { role: 'Landlord', email: address('l'), name: 'L' },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { path: 'signees[0].accessCode', message: 'is required with auth access_code' },
    ]);
    const code = 'Template-Code-55';
    const made = await api(m.ctx, apiKey, 'POST', url, {
      signees: [
        { role: 'Tenant', email: address('t'), name: 'T', auth: 'access_code', accessCode: code },
        { role: 'Landlord', email: address('l'), name: 'L', auth: 'email_otp' },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.signees.map((s: { auth: string }) => s.auth)).toEqual([
      'access_code',
      'email_otp',
    ]);
    expect(JSON.stringify(made.body)).not.toContain(code);
  });
});
