import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/src/verify-webhook.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall, signingTokenFromMailbox } from '../helpers/signing.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { addWebhook, WEBHOOK_TEST_ENV } from '../webhooks/fixtures.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

// decisions §12: externalId, metadata and redirectUrl on documents, through every way in and
// out: quick-create, create-from-template, PATCH, the answers, the listing filter, the signing
// JSON and the status-change webhooks.
describe.each(ENGINES)('externalId, metadata and redirectUrl on %s', (engine) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true, env: WEBHOOK_TEST_ENV });
    receiver = await startReceiver();
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  const documentCount = async () =>
    Number(
      (
        await ctx.db.kysely
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 9)}`;
  const create = (extra: Record<string, string>, apiKey = owner.apiKey, tenant = tenantId) =>
    quickCreate(ctx, apiKey, {
      tenantId: tenant,
      signees: [{ email: `${unique('s')}@example.com`, name: 'Sam Signee' }],
      extra,
    });
  const list = async (query: string) => {
    const res = await api(ctx, owner.apiKey, 'GET', `/api/documents?tenantId=${tenantId}&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.documents as Array<{ id: string; externalId: string | null }>;
  };

  it('quick-create takes them; the answer, GET and the listing give them back', async () => {
    const externalId = unique('crm');
    const metadata = { dealId: '1042', région: 'EMEA', empty: '' };
    const redirectUrl = 'https://app.example.com/done?from=signet#top';
    const res = await create({
      externalId: `  ${externalId} `,
      metadata: JSON.stringify(metadata),
      redirectUrl,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.document).toMatchObject({ externalId, metadata, redirectUrl });
    const id = res.body.document.id as string;
    const got = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(got.body.document).toMatchObject({ externalId, metadata, redirectUrl });
    const listed = await list(`externalId=${encodeURIComponent(externalId)}`);
    expect(listed.map((d) => d.id)).toEqual([id]);
    expect(listed[0]).toMatchObject({ externalId, metadata, redirectUrl });

    const plain = await create({});
    expect(plain.body.document).toMatchObject({
      externalId: null,
      metadata: null,
      redirectUrl: null,
    });
  });

  it('the externalId filter matches exactly, within the tenant, newest first', async () => {
    const externalId = unique('order');
    const first = await create({ externalId });
    const second = await create({ externalId });
    await create({ externalId: `${externalId}-2` });
    await create({ externalId: externalId.toUpperCase() });
    // Another tenant using the same id: never in this tenant's listing.
    const other = await createUser(ctx);
    const otherTenant = (await createTenant(ctx, other.apiKey)).id;
    const theirs = await create({ externalId }, other.apiKey, otherTenant);
    expect(theirs.status).toBe(201);

    const found = await list(`externalId=${encodeURIComponent(externalId)}`);
    expect(found.map((d) => d.id)).toEqual([second.body.document.id, first.body.document.id]);
    const page = await list(`externalId=${encodeURIComponent(externalId)}&limit=1`);
    expect(page.map((d) => d.id)).toEqual([second.body.document.id]);
    expect(await list(`externalId=${encodeURIComponent(externalId)}&status=signed`)).toEqual([]);
    expect(await list(`externalId=${unique('none')}`)).toEqual([]);
    const too = await api(
      ctx,
      owner.apiKey,
      'GET',
      `/api/documents?tenantId=${tenantId}&externalId=${'x'.repeat(256)}`,
    );
    expect(too.status).toBe(422);
  });

  it('refuses bad values with 422 naming the part, and creates nothing', async () => {
    const cases: Array<[Record<string, string>, string, RegExp?]> = [
      [{ externalId: 'x'.repeat(256) }, 'externalId'],
      [{ externalId: '   ' }, 'externalId'],
      [{ metadata: JSON.stringify({ a: { nested: 'x' } }) }, 'metadata.a'],
      [{ metadata: JSON.stringify({ n: 1 }) }, 'metadata.n'],
      [{ metadata: JSON.stringify({ ok: 'x', flag: true }) }, 'metadata.flag'],
      [{ metadata: JSON.stringify(['a']) }, 'metadata'],
      [{ metadata: '{not json' }, 'metadata', /JSON object/],
      [{ metadata: JSON.stringify({ big: 'x'.repeat(4090) }) }, 'metadata', /4096 bytes/],
      [{ redirectUrl: 'javascript:alert(1)' }, 'redirectUrl', /https/],
      [{ redirectUrl: 'ftp://files.example.com/x' }, 'redirectUrl', /https/],
      [{ redirectUrl: 'http://example.com/done' }, 'redirectUrl', /localhost/],
      [{ redirectUrl: 'https://bank.example@evil.example/' }, 'redirectUrl', /user name/],
      [{ redirectUrl: '/relative/path' }, 'redirectUrl', /absolute/],
      [{ redirectUrl: `https://example.com/${'a'.repeat(2030)}` }, 'redirectUrl'],
    ];
    const before = await documentCount();
    for (const [extra, path, message] of cases) {
      const res = await create(extra);
      expect(res.status, `${JSON.stringify(extra).slice(0, 80)}: ${res.status}`).toBe(422);
      const paths = (res.body.errors as Array<{ path: string; message: string }>).map(
        (e) => e.path,
      );
      expect(paths, JSON.stringify(res.body.errors)).toEqual([path]);
      if (message) expect(res.body.errors[0].message).toMatch(message);
    }
    expect(await documentCount()).toBe(before);
    // http is fine to a loopback host: an integrator's development server.
    const local = await create({ redirectUrl: 'http://127.0.0.1:5173/signed?x=1' });
    expect(local.status).toBe(201);
    expect(local.body.document.redirectUrl).toBe('http://127.0.0.1:5173/signed?x=1');
  });

  it('PATCH sets, replaces and clears them while draft or in process, not after', async () => {
    const made = await create({ externalId: unique('a'), metadata: '{"k":"v"}' });
    const id = made.body.document.id as string;
    const patch = (body: unknown) => api(ctx, owner.apiKey, 'PATCH', `/api/documents/${id}`, body);

    const externalId = unique('b');
    const set = await patch({
      externalId,
      metadata: { stage: 'draft' },
      redirectUrl: 'https://example.com/a',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.document).toMatchObject({
      externalId,
      metadata: { stage: 'draft' },
      redirectUrl: 'https://example.com/a',
    });
    expect((await list(`externalId=${externalId}`)).map((d) => d.id)).toEqual([id]);

    const bad = await patch({ metadata: { n: 1 }, redirectUrl: 'ftp://x.example' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      ['body.metadata.n', 'body.redirectUrl'].sort(),
    );

    const sent = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(sent.status).toBe(200);
    const inProcess = await patch({ metadata: { stage: 'sent' }, redirectUrl: null });
    expect(inProcess.status, JSON.stringify(inProcess.body)).toBe(200);
    expect(inProcess.body.document).toMatchObject({
      externalId,
      metadata: { stage: 'sent' },
      redirectUrl: null,
    });
    // name stays a draft's: the whole PATCH is refused, nothing of it applied.
    const mixed = await patch({ name: 'Renamed', externalId: 'ignored' });
    expect(mixed.status).toBe(409);

    const trail = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`);
    const updates = trail.body.auditTrail.filter((e: { action: string }) => e.action === 'updated');
    expect(updates.map((e: { details: unknown }) => e.details)).toEqual([
      {
        changed: {
          externalId,
          metadata: { stage: 'draft' },
          redirectUrl: 'https://example.com/a',
        },
      },
      { changed: { metadata: { stage: 'sent' }, redirectUrl: null } },
    ]);

    expect((await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/cancel`)).status).toBe(200);
    const late = await patch({ externalId: unique('c') });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('invalid_status');
    const cleared = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(cleared.body.document.externalId).toBe(externalId);
    // Filing stays possible in any status.
    expect((await patch({ pinned: true })).status).toBe(200);
  });

  it('create-from-template takes redirectUrl beside externalId and metadata', async () => {
    const template = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: { name: 'Lease', roles: [{ name: 'Tenant' }] },
      fields: signatureFields(1),
    });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    const templateId = template.body.template.id as string;
    const signees = [{ role: 'Tenant', email: `${unique('t')}@example.com`, name: 'Tia' }];
    const bad = await api(ctx, owner.apiKey, 'POST', `/api/templates/${templateId}/documents`, {
      signees,
      redirectUrl: 'javascript:alert(1)',
      metadata: { a: { b: 'c' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.metadata.a',
      'body.redirectUrl',
    ]);
    const externalId = unique('tpl');
    const made = await api(ctx, owner.apiKey, 'POST', `/api/templates/${templateId}/documents`, {
      signees,
      externalId,
      metadata: { via: 'template' },
      redirectUrl: 'https://example.com/after',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.document).toMatchObject({
      externalId,
      metadata: { via: 'template' },
      redirectUrl: 'https://example.com/after',
    });
    expect((await list(`externalId=${externalId}`)).map((d) => d.id)).toEqual([
      made.body.document.id,
    ]);
  });

  it('status-change webhooks and the signing JSON carry them', async () => {
    const hook = await addWebhook(ctx, owner.apiKey, tenantId, receiver.url('/hooks'));
    const optIn = await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      signeeEvents: true,
    });
    expect(optIn.status).toBe(200);
    const email = `${unique('w')}@example.com`;
    const externalId = unique('hook');
    const metadata = { dealId: '7' };
    const made = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email, name: 'Wes Signee' }],
      extra: {
        externalId,
        metadata: JSON.stringify(metadata),
        redirectUrl: 'https://example.com/back?a=1',
      },
    });
    const id = made.body.document.id as string;
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
    const token = await signingTokenFromMailbox(ctx, email);
    const view = await signingCall(ctx, token, '');
    expect(view.status).toBe(200);
    expect(view.body.document.redirectUrl).toBe('https://example.com/back?a=1');
    const declined = await signingCall(ctx, token, 'decline', { reason: 'Wrong price' });
    expect(declined.status).toBe(200);
    expect(declined.body.document.redirectUrl).toBe('https://example.com/back?a=1');

    // sent, the signee's decline, the document's decline.
    const requests = await receiver.waitFor('/hooks', 3);
    const events = requests.map((request) => {
      const verified = verifyWebhook({
        rawBody: request.body,
        signatureHeader: request.headers['x-service-signature'] as string,
        secret: hook.secret,
      });
      if (!verified.ok) throw new Error(verified.reason);
      return verified.event;
    });
    // The seed's status events (the SDK's union also holds the opt-in types, none sent here).
    const ours = events
      .filter((e) => e.type === 'document.status_changed' || e.type === 'signee.status_changed')
      .filter((e) => e.data.documentId === id);
    expect(ours.map((e) => [e.type, e.data.newStatus]).sort()).toEqual(
      [
        ['document.status_changed', 'in_process'],
        ['document.status_changed', 'declined'],
        ['signee.status_changed', 'declined'],
      ].sort(),
    );
    for (const event of ours) {
      expect(event.data).toMatchObject({ externalId, metadata });
      // The raw body too: exactly the seed's fields, then these two.
      const raw = JSON.parse(
        requests.find((r) => JSON.parse(r.body.toString()).id === event.id)!.body.toString(),
      );
      expect(Object.keys(raw.data)).toEqual([
        'documentId',
        ...(event.type === 'signee.status_changed' ? ['signeeId'] : []),
        'oldStatus',
        'newStatus',
        'changedAt',
        'externalId',
        'metadata',
      ]);
    }
    // The events feed answers the same payloads.
    const feed = await api(ctx, owner.apiKey, 'GET', `/api/events?tenantId=${tenantId}`);
    expect(feed.status).toBe(200);
    const fed = feed.body.events.filter(
      (e: { data: { documentId: string } }) => e.data.documentId === id,
    );
    expect(fed).toHaveLength(3);
    for (const e of fed) expect(e.data).toMatchObject({ externalId, metadata });
  });
});
