import { PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { insertMember } from '../helpers/db-factories.js';
import { storedFiles, waitUntil } from '../faults/support.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';

type User = Awaited<ReturnType<typeof createUser>>;

describe.each(ENGINES)('templates on %s', (engine) => {
  let ctx: TestContext;
  let owner: User;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx, { name: 'Olivia Owner' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  // Download URLs name the public URL; the test's service listens elsewhere.
  const download = (url: string) => {
    const u = new URL(url);
    return fetch(`${ctx.baseUrl}${u.pathname}${u.search}`);
  };
  const call = (method: string, path: string, body?: unknown, key = owner.apiKey) =>
    api(ctx, key, method, path, body);
  const textField = {
    role: 0,
    type: 'text',
    page: 2,
    x: 72,
    y: 300,
    width: 200,
    height: 20,
    label: 'Start date',
  };
  const planField = {
    role: 1,
    type: 'dropdown',
    page: 1,
    x: 300,
    y: 300,
    width: 120,
    height: 20,
    label: 'Plan',
    options: ['Basic', 'Pro'],
  };

  it('creates a template from an upload with roles and fields, and reads it back', async () => {
    const res = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: {
        name: 'Lease 2027',
        roles: [{ name: 'Tenant' }, { name: 'Landlord', signingOrder: 2 }],
        signingMessage: 'Please sign',
      },
      fields: signatureFields(2, [textField, planField]),
    });
    expect(res.status).toBe(201);
    const { template, fields } = res.body;
    expect(template).toMatchObject({
      tenantId,
      name: 'Lease 2027',
      signingMessage: 'Please sign',
      emailLanguage: 'en',
      signingOrderEnabled: null,
      directLink: { enabled: false, url: null },
      originalFile: 'lease.pdf',
      pageCount: 2,
    });
    expect(template.roles.map((r: { name: string }) => r.name)).toEqual(['Tenant', 'Landlord']);
    expect(template.roles[1].signingOrder).toBe(2);
    expect(fields).toHaveLength(4);
    expect(fields[0].roleId).toBe(template.roles[0].id);
    expect(fields[3]).toMatchObject({
      type: 'dropdown',
      label: 'Plan',
      roleId: template.roles[1].id,
    });

    const got = await call('GET', `/api/templates/${template.id}`);
    expect(got.status).toBe(200);
    expect(got.body.fields).toEqual(fields);
    const file = await download(got.body.template.downloadUrl);
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('refuses a bad template part, a field for a role it lacks and a field off its page', async () => {
    const bad = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: { name: 'X', roles: [] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toContainEqual({
      path: 'template.roles',
      message: 'at least one role is required',
    });
    const dup = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: { name: 'X', roles: [{ name: 'A' }, { name: 'a' }] },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([
      { path: 'template.roles[1].name', message: 'another role has this name' },
    ]);
    const role = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      fields: signatureFields(3),
    });
    expect(role.status).toBe(422);
    expect(role.body.errors[0].path).toBe('fields[2].role');
    const page = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      fields: [{ ...textField, page: 3 }],
    });
    expect(page.status).toBe(422);
    expect(page.body.errors[0]).toEqual({
      path: 'fields[0].page',
      message: 'page 3 does not exist (the document has 2 pages)',
    });
    const files = storedFiles(ctx.config.dataDir, 'templates');
    const templates = await ctx.db.kysely.selectFrom('templates').select('id').execute();
    expect(files).toHaveLength(templates.length);
  });

  it('lists newest first by keyset, filters by q, and hides other tenants', async () => {
    const other = await createUser(ctx);
    const otherTenant = (await createTenant(ctx, other.apiKey)).id;
    const t = await createTenant(ctx, owner.apiKey, 'Listing');
    for (const name of ['Alpha NDA', 'Beta lease', 'Gamma NDA']) {
      const made = await createTemplate(ctx, owner.apiKey, {
        tenantId: t.id,
        template: { name, roles: [{ name: 'Signer' }] },
      });
      expect(made.status).toBe(201);
    }
    const first = await call('GET', `/api/templates?tenantId=${t.id}&limit=2`);
    expect(first.body.templates.map((x: { name: string }) => x.name)).toEqual([
      'Gamma NDA',
      'Beta lease',
    ]);
    const second = await call(
      'GET',
      `/api/templates?tenantId=${t.id}&limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.templates.map((x: { name: string }) => x.name)).toEqual(['Alpha NDA']);
    expect(second.body.nextCursor).toBeNull();
    const nda = await call('GET', `/api/templates?tenantId=${t.id}&q=nda`);
    expect(nda.body.templates).toHaveLength(2);
    const some = nda.body.templates[0].id;
    expect((await call('GET', `/api/templates/${some}`, undefined, other.apiKey)).status).toBe(404);
    expect(
      (await call('GET', `/api/templates?tenantId=${t.id}`, undefined, other.apiKey)).status,
    ).toBe(404);
    expect(otherTenant).toBeTruthy();
  });

  it('edits settings and roles (a removed role takes its fields) and replaces fields', async () => {
    const made = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      fields: signatureFields(2, [textField]),
    });
    const { template } = made.body;
    const [tenantRole] = template.roles;
    const patched = await call('PATCH', `/api/templates/${template.id}`, {
      name: 'Lease v2',
      emailLanguage: 'de',
      roles: [{ id: tenantRole.id, name: 'Mieter' }, { name: 'Guarantor' }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.template.name).toBe('Lease v2');
    expect(patched.body.template.emailLanguage).toBe('de');
    expect(patched.body.template.roles.map((r: { name: string }) => r.name)).toEqual([
      'Mieter',
      'Guarantor',
    ]);
    expect(patched.body.template.roles[0].id).toBe(tenantRole.id);
    expect(patched.body.fields.map((f: { roleId: string }) => f.roleId)).toEqual([
      tenantRole.id,
      tenantRole.id,
    ]);
    const guarantor = patched.body.template.roles[1].id;
    const put = await call('PUT', `/api/templates/${template.id}/fields`, {
      fields: [
        { ...patched.body.fields[0] },
        { roleId: guarantor, type: 'signature', page: 1, x: 72, y: 400, width: 150, height: 40 },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body.fields[0].id).toBe(patched.body.fields[0].id);
    const bad = await call('PUT', `/api/templates/${template.id}/fields`, {
      fields: [
        { roleId: guarantor, type: 'signature', page: 9, x: 72, y: 400, width: 150, height: 40 },
        {
          roleId: template.roles[1].id,
          type: 'signature',
          page: 1,
          x: 1,
          y: 1,
          width: 150,
          height: 40,
        },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'fields[0].page',
      'fields[1].roleId',
    ]);
  });

  it('creates documents from a template: roles by name or index, prefill, shared file', async () => {
    const made = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      fields: signatureFields(2, [textField, planField]),
    });
    const id = made.body.template.id;
    const before = storedFiles(ctx.config.dataDir).length;
    const res = await call('POST', `/api/templates/${id}/documents`, {
      signees: [
        { role: 'landlord', email: 'lou@example.com', name: 'Lou Landlord' },
        { role: 0, email: 'tia@example.com', name: 'Tia Tenant', language: 'fr' },
      ],
      prefill: { 'start date': '2027-01-01', PLAN: 'Pro' },
      externalId: 'crm-42',
      metadata: { deal: '42' },
    });
    expect(res.status).toBe(201);
    const { document, signees, fields } = res.body;
    expect(document).toMatchObject({
      status: 'draft',
      source: 'template',
      templateId: id,
      name: 'Lease',
      externalId: 'crm-42',
      metadata: { deal: '42' },
    });
    expect(signees.map((s: { name: string }) => s.name)).toEqual(['Tia Tenant', 'Lou Landlord']);
    expect(signees[0].language).toBe('fr');
    expect(fields.map((f: { value: unknown }) => f.value)).toEqual([
      null,
      null,
      '2027-01-01',
      'Pro',
    ]);
    expect(fields[3].signeeId).toBe(signees[1].id);
    expect(res.body.deliveries).toBeUndefined();
    // No file per document: the template's is referenced.
    expect(storedFiles(ctx.config.dataDir).length).toBe(before);
    const row = await ctx.db.kysely
      .selectFrom('documents')
      .select('file')
      .where('id', '=', document.id)
      .executeTakeFirstOrThrow();
    expect(row.file).toMatch(new RegExp(`^templates/../${id}\\.pdf$`));
    const file = await download(document.downloadUrl);
    expect(file.status).toBe(200);
  });

  it('answers 422 naming a missing role, an unknown label and a value that does not fit', async () => {
    const made = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      fields: signatureFields(2, [planField]),
    });
    const id = made.body.template.id;
    const before = await ctx.db.kysely
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const res = await call('POST', `/api/templates/${id}/documents`, {
      signees: [{ role: 'Tenant', email: 'a@example.com', name: 'A' }],
      prefill: { Nope: 'x', Plan: 'Gold' },
    });
    expect(res.status).toBe(422);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['signees', 'prefill.Nope', 'prefill.Plan']));
    expect(
      res.body.errors.find((e: { path: string }) => e.path === 'prefill.Plan').message,
    ).toContain('must be one of the options');
    const after = await ctx.db.kysely
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('sends in the same request, or creates nothing when credits fall short', async () => {
    const made = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      fields: signatureFields(2),
    });
    const id = made.body.template.id;
    const balance = async () =>
      (await call('GET', `/api/tenants/${tenantId}/credits`)).body.balance as number;
    const start = await balance();
    const sent = await call('POST', `/api/templates/${id}/documents`, {
      send: true,
      signees: [
        { role: 0, email: 't1@example.com', name: 'T One' },
        { role: 1, email: 'l1@example.com', name: 'L One' },
      ],
    });
    expect(sent.status).toBe(201);
    expect(sent.body.document.status).toBe('in_process');
    expect(sent.body.deliveries.map((d: { status: string }) => d.status)).toEqual([
      expect.stringMatching(/^(sent|failed)$/),
      expect.stringMatching(/^(sent|failed)$/),
    ]);
    expect(await balance()).toBe(start - 2);

    await ctx.db.kysely
      .updateTable('tenants')
      .set({ credit_balance: 1 })
      .where('id', '=', tenantId)
      .execute();
    const count = async () =>
      Number(
        (
          await ctx.db.kysely
            .selectFrom('documents')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('template_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const docs = await count();
    const poor = await call('POST', `/api/templates/${id}/documents`, {
      send: true,
      signees: [
        { role: 0, email: 't2@example.com', name: 'T Two' },
        { role: 1, email: 'l2@example.com', name: 'L Two' },
      ],
    });
    expect(poor.status).toBe(402);
    expect(await count()).toBe(docs);
    expect(await balance()).toBe(1);
    await ctx.db.kysely
      .updateTable('tenants')
      .set({ credit_balance: 1000 })
      .where('id', '=', tenantId)
      .execute();
  });

  it('saves a draft as a template, copying its file once', async () => {
    const draft = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [
        { email: 'x@example.com', name: 'Buyer' },
        { email: 'y@example.com', name: 'Seller' },
      ],
      extra: {
        fields: JSON.stringify([
          { signee: 1, type: 'signature', page: 1, x: 10, y: 10, width: 150, height: 40 },
        ]),
      },
    });
    expect(draft.status).toBe(201);
    const res = await call('POST', `/api/documents/${draft.body.document.id}/save-as-template`, {
      name: 'Sale',
    });
    expect(res.status).toBe(201);
    expect(res.body.template.roles.map((r: { name: string }) => r.name)).toEqual([
      'Buyer',
      'Seller',
    ]);
    expect(res.body.fields[0].roleId).toBe(res.body.template.roles[1].id);
    const named = await call('POST', `/api/documents/${draft.body.document.id}/save-as-template`, {
      name: 'Sale 2',
      roles: ['Only one'],
    });
    expect(named.status).toBe(422);
    expect(named.body.errors[0].path).toBe('roles');
    // Deleting the draft leaves the template whole.
    expect((await call('DELETE', `/api/documents/${draft.body.document.id}`)).status).toBe(204);
    const got = await call('GET', `/api/templates/${res.body.template.id}`);
    expect((await download(got.body.template.downloadUrl)).status).toBe(200);
  });

  it('deleting a template or a document never breaks the others; the file goes last', async () => {
    const made = await createTemplate(ctx, owner.apiKey, { tenantId, fields: signatureFields(2) });
    const id = made.body.template.id;
    const make = async (n: number) =>
      (
        await call('POST', `/api/templates/${id}/documents`, {
          signees: [
            { role: 0, email: `a${n}@example.com`, name: 'A' },
            { role: 1, email: `b${n}@example.com`, name: 'B' },
          ],
        })
      ).body.document;
    const one = await make(1);
    const two = await make(2);
    const key = storedFiles(ctx.config.dataDir, 'templates').find((f) => f.key.includes(id));
    expect(key).toBeDefined();
    expect((await call('DELETE', `/api/documents/${one.id}`)).status).toBe(204);
    expect(
      (await download((await call('GET', `/api/documents/${two.id}`)).body.document.downloadUrl))
        .status,
    ).toBe(200);
    expect((await call('DELETE', `/api/templates/${id}`)).status).toBe(204);
    expect((await call('GET', `/api/templates/${id}`)).status).toBe(404);
    const still = await call('GET', `/api/documents/${two.id}`);
    expect((await download(still.body.document.downloadUrl)).status).toBe(200);
    expect(storedFiles(ctx.config.dataDir, 'templates').some((f) => f.key.includes(id))).toBe(true);
    expect((await call('DELETE', `/api/documents/${two.id}`)).status).toBe(204);
    expect(storedFiles(ctx.config.dataDir, 'templates').some((f) => f.key.includes(id))).toBe(
      false,
    );
  });

  it('turns text tags into fields for roles, naming a role the template lacks', async () => {
    const pdf = PDF.create();
    const page = pdf.addPage({ width: 595, height: 842 });
    page.drawText('Tenant: {{signature:1}}  Landlord: {{signature:2}}', {
      x: 40,
      y: 700,
      size: 11,
    });
    page.drawText('{{text:2:Rent!}}', { x: 40, y: 600, size: 11 });
    const file = Buffer.from(await pdf.save());
    const res = await createTemplate(ctx, owner.apiKey, { tenantId, file, textTags: 'true' });
    expect(res.status).toBe(201);
    const [tenantRole, landlord] = res.body.template.roles;
    expect(
      res.body.fields.map((f: { type: string; roleId: string }) => [f.type, f.roleId]),
    ).toEqual([
      ['signature', tenantRole.id],
      ['signature', landlord.id],
      ['text', landlord.id],
    ]);
    const one = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      file,
      textTags: 'true',
      template: { name: 'One role', roles: [{ name: 'Only' }] },
    });
    expect(one.status).toBe(422);
    expect(one.body.errors[0].message).toContain('role 2 does not exist (the template has 1 role)');
  });

  it('replays a create with the same Idempotency-Key, storing one template', async () => {
    const headers = { 'idempotency-key': `tpl-${Date.now()}` };
    const count = async () =>
      (await ctx.db.kysely.selectFrom('templates').select('id').execute()).length;
    const before = await count();
    const first = await createTemplate(ctx, owner.apiKey, { tenantId }, headers);
    const again = await createTemplate(ctx, owner.apiKey, { tenantId }, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.template.id).toBe(first.body.template.id);
    expect(await count()).toBe(before + 1);
    // The replay is answered first, the upload it made no use of deleted right after.
    const ids = new Set(
      (await ctx.db.kysely.selectFrom('templates').select('id').execute()).map((r) => r.id),
    );
    await waitUntil(
      () => storedFiles(ctx.config.dataDir, 'templates').every((f) => ids.has(f.key.slice(13, 49))),
      "the replayed request's upload to be deleted",
    );
  });

  it('lets only owners and admins publish a direct link, for a one-role template', async () => {
    const member = await createUser(ctx);
    await insertMember(ctx, tenantId, member.id, 'member');
    const two = await createTemplate(ctx, owner.apiKey, { tenantId, fields: signatureFields(2) });
    const twoRoles = await call('PATCH', `/api/templates/${two.body.template.id}`, {
      directLink: { enabled: true },
    });
    expect(twoRoles.status).toBe(422);
    expect(twoRoles.body.errors[0].path).toBe('directLink.enabled');
    const one = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: { name: 'Waiver', roles: [{ name: 'Visitor' }] },
      fields: signatureFields(1),
    });
    const path = `/api/templates/${one.body.template.id}`;
    expect(
      (await call('PATCH', path, { directLink: { enabled: true } }, member.apiKey)).status,
    ).toBe(403);
    const on = await call('PATCH', path, { directLink: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body.template.directLink.url).toMatch(/\/t\/dl_[A-Za-z0-9_-]{43}$/);
    const off = await call('PATCH', path, { directLink: { enabled: false } });
    expect(off.body.template.directLink).toEqual({ enabled: false, url: null });
    const again = await call('PATCH', path, { directLink: { enabled: true } });
    expect(again.body.template.directLink.url).toBe(on.body.template.directLink.url);
  });
});
