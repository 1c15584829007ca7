import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import {
  downloadFile,
  signingCall,
  signingTokenFromMailbox,
  waitForStatus,
} from '../helpers/signing.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const unique = (label: string) => `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}`;

describe.each(ENGINES)('a signing link after signing on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx, { name: 'Sam Sender' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${ctx.baseUrl}${path}`, { headers });
    return { status: res.status, type: res.headers.get('content-type') ?? '', res };
  };
  const status = async (token: string) => {
    const res = await fetch(`${ctx.baseUrl}/api/signing/${token}/status`);
    return { status: res.status, body: await res.json() };
  };
  const copy = (token: string) =>
    get(`/api/signing/${token}/copy`, { 'user-agent': 'CopyOnPage/1.0' });
  const trail = async (id: string, action: string) =>
    (
      await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)
    ).body.auditTrail.filter((e: { action: string }) => e.action === action);
  const person = (label: string) => ({ email: `${unique(label)}@example.com`, name: label });
  const create = async (signees: Array<{ email: string; name: string }>, language = 'en') => {
    const made = await quickCreate(ctx, owner.apiKey, { tenantId, signees });
    expect(made.status).toBe(201);
    const id = made.body.document.id as string;
    await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${id}`, { emailLanguage: language });
    return id;
  };
  const send = async (id: string) =>
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);

  const sign = (token: string, name: string) =>
    signingCall(ctx, token, 'sign', { consent: true, signature: { type: 'typed', text: name } });
  // Sends to one signee, signs, waits for the seal: their token and the sealed file.
  const signAlone = async (id: string, who: { email: string; name: string }) => {
    await send(id);
    const token = await signingTokenFromMailbox(ctx, who.email);
    expect((await sign(token, who.name)).status).toBe(200);
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed', 30_000);
    return { token, sealed: await downloadFile(ctx, done.document.downloadUrl) };
  };

  it('serves the sealed PDF on the signing link of a signed document, counted and audited', async () => {
    const ann = person('Ann');
    const id = await create([ann]);
    const { token, sealed } = await signAlone(id, ann);
    // The signing itself answers 410 as before; the status says what happened.
    expect((await signingCall(ctx, token, '')).status).toBe(410);
    const seen = await status(token);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      state: 'signed',
      language: 'en',
      document: { id, name: 'contract', senderName: 'Sam Sender' },
      signee: { email: ann.email, status: 'signed' },
      declinedBy: null,
      copy: { status: 'available', url: `/api/signing/${token}/copy` },
    });
    const link = await ctx.db.kysely
      .selectFrom('copy_links')
      .selectAll()
      .where('document_id', '=', id)
      .where('recipient', '=', ann.email)
      .executeTakeFirstOrThrow();
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(30 * 86_400_000);
    expect(seen.body.copy.expiresAt).toBe(link.expires_at);

    for (let i = 0; i < 3; i++) {
      const got = await copy(token);
      expect(got.status).toBe(200);
      expect(got.type).toBe('application/pdf');
      expect(got.res.headers.get('content-disposition')).toContain('contract-signed.pdf');
      expect(got.res.headers.get('cache-control')).toContain('no-store');
      expect(sha256(Buffer.from(await got.res.arrayBuffer()))).toBe(sha256(sealed));
    }
    // Counted every time, audited once an hour at most, as the e-mailed copy link is.
    const audited = await trail(id, 'copy downloaded');
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      userAgent: 'CopyOnPage/1.0',
      details: { recipient: ann.email, downloads: 1 },
    });
    const after = await ctx.db.kysely
      .selectFrom('copy_links')
      .select('downloads')
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.downloads)).toBe(3);
  });

  it('stops the download once the copy links are revoked, or 30 days after signing', async () => {
    const ben = person('Ben');
    const cat = person('Cat');
    const revokedDoc = await create([ben]);
    const benToken = (await signAlone(revokedDoc, ben)).token;
    expect((await copy(benToken)).status).toBe(200);
    const revoked = await api(
      ctx,
      owner.apiKey,
      'DELETE',
      `/api/documents/${revokedDoc}/copy-links`,
    );
    expect(revoked.body.revoked).toBe(1);
    expect((await copy(benToken)).status).toBe(410);
    expect((await status(benToken)).body).toMatchObject({
      state: 'signed',
      copy: { status: 'revoked', url: null },
    });

    const expiredDoc = await create([cat]);
    const catToken = (await signAlone(expiredDoc, cat)).token;
    expect((await copy(catToken)).status).toBe(200);
    // The clock moved 30 days on: the link was made 30 days and a second ago.
    const past = (ms: number) => new Date(Date.now() - ms).toISOString();
    await ctx.db.kysely
      .updateTable('copy_links')
      .set({ created_at: past(30 * 86_400_000 + 1000), expires_at: past(1000) })
      .where('document_id', '=', expiredDoc)
      .execute();
    const gone = await copy(catToken);
    expect(gone.status).toBe(410);
    expect((await gone.res.json()).code).toBe('link_expired');
    expect((await status(catToken)).body.copy).toMatchObject({ status: 'expired', url: null });
  });

  it('says what happened to a declined, cancelled or expired document, with no PDF', async () => {
    const dan = person('Dan');
    const eve = person('Eve');
    const declined = await create([dan, eve]);
    await send(declined);
    const danToken = await signingTokenFromMailbox(ctx, dan.email);
    const eveToken = await signingTokenFromMailbox(ctx, eve.email);
    expect((await sign(danToken, 'Dan')).status).toBe(200);
    // Signed, waiting for Eve: still open, no copy yet.
    expect((await status(danToken)).body).toMatchObject({
      state: 'open',
      signee: { status: 'signed' },
      copy: null,
    });
    expect((await copy(danToken)).status).toBe(409);
    expect((await signingCall(ctx, eveToken, 'decline', { reason: 'Wrong price.' })).status).toBe(
      200,
    );
    const told = (await status(danToken)).body;
    expect(told).toMatchObject({
      state: 'declined',
      declinedBy: { you: false, name: 'Eve' },
      copy: null,
    });
    expect(JSON.stringify(told)).not.toContain('Wrong price');
    expect((await status(eveToken)).body).toMatchObject({
      state: 'declined',
      declinedBy: { you: true, name: 'Eve' },
    });
    expect((await copy(danToken)).status).toBe(410);
    expect((await sign(eveToken, 'Eve')).status).toBe(410);

    const fay = person('Fay');
    const cancelled = await create([fay], 'de');
    await send(cancelled);
    const fayToken = await signingTokenFromMailbox(ctx, fay.email);
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${cancelled}/cancel`, {});
    await waitForStatus(ctx, owner.apiKey, cancelled, 'cancelled');
    expect((await status(fayToken)).body).toMatchObject({
      state: 'cancelled',
      language: 'de',
      copy: null,
    });
    const refused = await copy(fayToken);
    expect(refused.status).toBe(410);
    expect(refused.type).toContain('problem+json');

    const gus = person('Gus');
    const expired = await create([gus]);
    await send(expired);
    const gusToken = await signingTokenFromMailbox(ctx, gus.email);
    // Its deadline passed (the expiry job need not have run yet).
    await ctx.db.kysely
      .updateTable('documents')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired)
      .execute();
    expect((await status(gusToken)).body).toMatchObject({ state: 'expired', copy: null });
    expect((await copy(gusToken)).status).toBe(410);
  });

  it('answers 404 for a link that does not exist', async () => {
    expect((await status('sg_doesnotexist000000')).status).toBe(404);
    expect((await copy('sg_doesnotexist000000')).status).toBe(404);
  });
});
