import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { addMemberByInvitation, createTenant, createUser } from '../helpers/factories.js';

type Signee = { id: string; email: string; name: string; signingOrder: number | null };

describe.each(ENGINES)('editing documents and their signees on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  const draft = async (extra: Record<string, string> = {}) => {
    const res = await quickCreate(ctx, owner.apiKey, { tenantId, extra });
    expect(res.status).toBe(201);
    return res.body as { document: { id: string; updatedAt: string }; signees: Signee[] };
  };
  const get = async (id: string) =>
    (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body;
  const audit = async (id: string) =>
    (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail as Array<{
      action: string;
      signeeId: string | null;
      details: Record<string, unknown>;
    }>;
  const events = async () =>
    (await api(ctx, owner.apiKey, 'GET', `/api/events?tenantId=${tenantId}`)).body.events.length;

  it("changes a draft's settings, moves updatedAt, audits, and emits no event", async () => {
    const created = await draft({ name: 'Lease 2026' });
    const id = created.document.id;
    const eventsBefore = await events();
    const res = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${id}`, {
      name: '  Lease 2027 ',
      signingMessage: 'Please sign by Friday.',
      emailLanguage: 'de',
      signingOrderEnabled: true,
      signingGroupsEnabled: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.document).toMatchObject({
      name: 'Lease 2027',
      signingMessage: 'Please sign by Friday.',
      emailLanguage: 'de',
      signingOrderEnabled: true,
      signingGroupsEnabled: true,
      status: 'draft',
    });
    expect(res.body.signees).toHaveLength(2);
    expect(res.body.fields).toEqual([]);
    expect(res.body.document.updatedAt > created.document.updatedAt).toBe(true);
    expect((await get(id)).document.name).toBe('Lease 2027');
    const trail = await audit(id);
    expect(trail.at(-1)).toMatchObject({
      action: 'updated',
      details: { changed: { name: 'Lease 2027', emailLanguage: 'de', signingOrderEnabled: true } },
    });
    // Clearing: null message, null order.
    const cleared = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${id}`, {
      signingMessage: null,
      signingOrderEnabled: null,
    });
    expect(cleared.body.document).toMatchObject({
      signingMessage: null,
      signingOrderEnabled: null,
    });
    // A PATCH that changes nothing writes nothing.
    const same = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${id}`, {
      name: 'Lease 2027',
    });
    expect(same.status).toBe(200);
    expect(same.body.document.updatedAt).toBe(cleared.body.document.updatedAt);
    expect((await audit(id)).filter((e) => e.action === 'updated')).toHaveLength(2);
    expect(await events()).toBe(eventsBefore);
  });

  it('refuses bad edits with a 422 naming the property, changing nothing', async () => {
    const { document } = await draft();
    const cases: Array<[unknown, string]> = [
      [{}, ''],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ emailLanguage: 'xx' }, 'emailLanguage'],
      [{ signingOrderEnabled: 'yes' }, 'signingOrderEnabled'],
      [{ pinned: 'true' }, 'pinned'],
      [{ folderId: 'not-a-uuid' }, 'folderId'],
      [{ status: 'signed' }, ''],
      [{ name: 'ok', tenantId }, ''],
    ];
    for (const [body, path] of cases) {
      const res = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${document.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path ? `body.${path}` : 'body');
    }
    const foreignFolder = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${document.id}`, {
      folderId: randomUUID(),
      name: 'Renamed',
    });
    expect(foreignFolder.status).toBe(404);
    const after = await get(document.id);
    expect(after.document.updatedAt).toBe(document.updatedAt);
    expect(after.document.name).toBe('contract');
    expect((await audit(document.id)).map((e) => e.action)).toEqual(['created']);
  });

  it('allows pinning and filing in any status, but settings and signees only in draft', async () => {
    const { document, signees } = await draft();
    const sent = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${document.id}/send-for-signing`,
    );
    expect(sent.status).toBe(200);
    const eventsBefore = await events();
    const refused: Array<[string, string, unknown]> = [
      ['PATCH', `/api/documents/${document.id}`, { name: 'Too late' }],
      ['PATCH', `/api/documents/${document.id}`, { pinned: true, signingMessage: 'x' }],
      ['POST', `/api/documents/${document.id}/signees`, { email: 'c@example.com', name: 'C' }],
      ['PATCH', `/api/documents/${document.id}/signees/${signees[0].id}`, { name: 'New' }],
      ['DELETE', `/api/documents/${document.id}/signees/${signees[0].id}`, undefined],
    ];
    for (const [method, path, body] of refused) {
      const res = await api(ctx, owner.apiKey, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.code).toBe('invalid_status');
    }
    expect((await get(document.id)).document.pinned).toBeNull();

    const pinned = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${document.id}`, {
      pinned: true,
    });
    expect(pinned.status).toBe(200);
    const at = pinned.body.document.pinned as string;
    expect(Date.parse(at)).toBeGreaterThan(Date.now() - 60_000);
    expect(pinned.body.document.status).toBe('in_process');
    // Pinning again keeps the first time.
    const again = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${document.id}`, {
      pinned: true,
    });
    expect(again.body.document.pinned).toBe(at);
    const unpinned = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${document.id}`, {
      pinned: false,
    });
    expect(unpinned.body.document.pinned).toBeNull();
    const folder = await api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/folders`, {
      name: 'Leases',
    });
    const filed = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${document.id}`, {
      folderId: folder.body.folder.id,
    });
    expect(filed.body.document.folderId).toBe(folder.body.folder.id);
    const unfiled = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${document.id}`, {
      folderId: null,
    });
    expect(unfiled.body.document.folderId).toBeNull();
    // None of these is a status change.
    expect(await events()).toBe(eventsBefore);
    const actions = (await audit(document.id)).filter((e) => e.action === 'updated');
    expect(actions.map((e) => Object.keys(e.details.changed as object))).toEqual([
      ['pinned'],
      ['pinned'],
      ['folderId'],
      ['folderId'],
    ]);
  });

  it("adds, changes and removes a draft's signees with quick-create's rules", async () => {
    const { document, signees } = await draft();
    const added = await api(ctx, owner.apiKey, 'POST', `/api/documents/${document.id}/signees`, {
      email: 'carol@example.com',
      name: 'Carol Example',
      signingOrder: 2,
    });
    expect(added.status).toBe(201);
    expect(added.body.signee).toMatchObject({
      email: 'carol@example.com',
      name: 'Carol Example',
      signingOrder: 2,
      status: 'pending',
      documentId: document.id,
    });
    expect(added.body.signees.map((s: Signee) => s.email)).toEqual([
      'alice@example.com',
      'bob@example.com',
      'carol@example.com',
    ]);
    const carol = added.body.signee as Signee;

    const bad: Array<[string, string, unknown, string]> = [
      ['POST', 'signees', { email: 'ALICE@example.com', name: 'Dup' }, 'email'],
      ['POST', 'signees', { email: 'nope', name: 'X' }, 'email'],
      ['POST', 'signees', { email: 'd@example.com', name: ' ' }, 'name'],
      ['POST', 'signees', { email: 'd@example.com', name: 'D', signingOrder: 0 }, 'signingOrder'],
      ['POST', 'signees', { email: 'd@example.com', name: 'D', role: 'x' }, 'role'],
      ['POST', 'signees', { email: 'd@example.com', name: 'D', rank: 'x' }, ''],
      ['PATCH', `signees/${carol.id}`, { email: 'Bob@Example.com' }, 'email'],
      ['PATCH', `signees/${carol.id}`, {}, ''],
    ];
    for (const [method, tail, body, path] of bad) {
      const res = await api(
        ctx,
        owner.apiKey,
        method,
        `/api/documents/${document.id}/${tail}`,
        body,
      );
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(
        path ? `body.${path}` : 'body',
      );
    }

    const changed = await api(
      ctx,
      owner.apiKey,
      'PATCH',
      `/api/documents/${document.id}/signees/${carol.id}`,
      { email: 'carol.new@example.com', signingOrder: null, signingGroupId: 'legal' },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.signee).toMatchObject({
      id: carol.id,
      email: 'carol.new@example.com',
      name: 'Carol Example',
      signingOrder: null,
      signingGroupId: 'legal',
    });
    // Keeping one's own e-mail (another case) is no duplicate.
    const ownEmail = await api(
      ctx,
      owner.apiKey,
      'PATCH',
      `/api/documents/${document.id}/signees/${carol.id}`,
      { email: 'Carol.New@example.com' },
    );
    expect(ownEmail.status).toBe(200);

    // Fields of a removed signee go with them.
    const fields = await api(ctx, owner.apiKey, 'PUT', `/api/documents/${document.id}/fields`, {
      fields: [
        {
          signeeId: signees[0].id,
          type: 'signature',
          page: 1,
          x: 50,
          y: 50,
          width: 150,
          height: 40,
        },
        { signeeId: carol.id, type: 'signature', page: 1, x: 50, y: 150, width: 150, height: 40 },
        { signeeId: carol.id, type: 'date', page: 1, x: 250, y: 150, width: 100, height: 20 },
      ],
    });
    expect(fields.status).toBe(200);
    const removed = await api(
      ctx,
      owner.apiKey,
      'DELETE',
      `/api/documents/${document.id}/signees/${carol.id}`,
    );
    expect(removed.status).toBe(204);
    const after = await get(document.id);
    expect(after.signees.map((s: Signee) => s.id)).toEqual(signees.map((s) => s.id));
    expect(after.fields.map((f: { signeeId: string }) => f.signeeId)).toEqual([signees[0].id]);
    const gone = await api(
      ctx,
      owner.apiKey,
      'PATCH',
      `/api/documents/${document.id}/signees/${carol.id}`,
      { name: 'Ghost' },
    );
    expect(gone.status).toBe(404);

    // The last signee stays.
    await api(
      ctx,
      owner.apiKey,
      'DELETE',
      `/api/documents/${document.id}/signees/${signees[1].id}`,
    );
    const last = await api(
      ctx,
      owner.apiKey,
      'DELETE',
      `/api/documents/${document.id}/signees/${signees[0].id}`,
    );
    expect(last.status).toBe(422);
    expect((await get(document.id)).signees).toHaveLength(1);

    const trail = await audit(document.id);
    expect(trail.map((e) => e.action)).toEqual([
      'created',
      'signee added',
      'signee changed',
      'signee changed',
      'fields changed',
      'signee removed',
      'signee removed',
    ]);
    expect(trail[5]).toMatchObject({ signeeId: carol.id, details: { fieldsRemoved: 2 } });
  });

  it('sends to the signees as edited', async () => {
    const { document, signees } = await draft();
    await api(
      ctx,
      owner.apiKey,
      'PATCH',
      `/api/documents/${document.id}/signees/${signees[1].id}`,
      {
        email: 'robert@example.com',
        name: 'Robert Example',
      },
    );
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${document.id}/signees`, {
      email: 'dave@example.com',
      name: 'Dave Example',
    });
    const sent = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${document.id}/send-for-signing`,
    );
    expect(sent.status).toBe(200);
    expect(sent.body.deliveries.map((d: { email: string }) => d.email)).toEqual([
      'alice@example.com',
      'robert@example.com',
      'dave@example.com',
    ]);
  });

  it('hides documents of other tenants and lets members edit', async () => {
    const { document, signees } = await draft();
    const stranger = await createUser(ctx);
    for (const [method, path, body] of [
      ['PATCH', `/api/documents/${document.id}`, { pinned: true }],
      ['POST', `/api/documents/${document.id}/signees`, { email: 'x@example.com', name: 'X' }],
      ['PATCH', `/api/documents/${document.id}/signees/${signees[0].id}`, { name: 'X' }],
      ['DELETE', `/api/documents/${document.id}/signees/${signees[0].id}`, undefined],
      ['PATCH', `/api/documents/${randomUUID()}`, { pinned: true }],
    ] as const) {
      const res = await api(ctx, stranger.apiKey, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const member = await createUser(ctx);
    await addMemberByInvitation(ctx, owner.apiKey, tenantId, member, 'member');
    const res = await api(ctx, member.apiKey, 'PATCH', `/api/documents/${document.id}`, {
      pinned: true,
    });
    expect(res.status).toBe(200);
  });
});
