import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import {
  addMemberByInvitation,
  createTenant,
  createTenantViaHttp,
  createUser,
  createUserViaHttp,
} from '../helpers/factories.js';
import { signingCall, signingTokenFromMailbox } from '../helpers/signing.js';
import { rowCounts } from './support.js';

// Every metacharacter at once: quotes of both kinds, a statement terminator and a comment,
// LIKE wildcards, backslashes (escape character in some dialects) and a doubled quote.
const META = `x'; drop table users; -- " OR 1=1 % _ \\ \\' '' 100%_done\\\\`;
// Quotes and underscores are valid in the local part of an address.
const EMAIL = "o'brien_x+tag@example.com";

describe.each(ENGINES)('SQL metacharacters on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
  });
  afterAll(() => ctx.close());

  it('stores and returns every text field verbatim', async () => {
    // Through the routes: what signup and POST /api/tenants store is the subject here.
    const owner = await createUserViaHttp(ctx, { name: META, email: EMAIL });
    const me = await api(ctx, owner.apiKey, 'GET', '/api/auth/me');
    expect(me.body.user).toMatchObject({ name: META, email: EMAIL });

    const key = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: { cookie: owner.cookie, origin: 'http://localhost:3000' },
      payload: { name: META },
    });
    expect(key.json().apiKey.name).toBe(META);

    const tenant = await createTenantViaHttp(ctx, owner.apiKey, META);
    expect(tenant.name).toBe(META);
    const listed = await api(ctx, owner.apiKey, 'GET', '/api/tenants');
    // Sign-up's own tenant is named after the person, verbatim too.
    expect(listed.body.tenants.map((t: { name: string }) => t.name)).toEqual([
      `${META}'s workspace`,
      META,
    ]);

    const other = await createUserViaHttp(ctx, {
      email: `m'${Date.now()}_%@example.com`.replace('%', ''),
    });
    const member = await addMemberByInvitation(ctx, owner.apiKey, tenant.id, other, 'member');
    expect(member.invitation.email).toBe(other.email);
    const members = await api(ctx, owner.apiKey, 'GET', `/api/tenants/${tenant.id}/members`);
    expect(members.body.members.map((m: { email: string }) => m.email)).toContain(other.email);

    const url = `http://127.0.0.1:9/${encodeURIComponent(META)}?q=${encodeURIComponent(META)}`;
    const hook = await api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenant.id}/webhooks`, {
      url,
    });
    expect(hook.status).toBe(201);
    expect(hook.body.webhook.url).toBe(url);

    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId: tenant.id,
      filename: `${META}.pdf`,
      signees: [
        { email: EMAIL, name: META, signingGroupId: META },
        { email: 'decliner@example.com', name: META },
      ],
      extra: { name: META, signingMessage: META },
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    const doc = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(doc.body.document).toMatchObject({ name: META, signingMessage: META });
    expect(doc.body.document.originalFile).toBe(`${META}.pdf`.replace(/^.*[\\/]/, ''));
    expect(doc.body.signees[0]).toMatchObject({ name: META, signingGroupId: META, email: EMAIL });

    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const token = await signingTokenFromMailbox(ctx, EMAIL.toLowerCase());
    const view = await signingCall(ctx, token, '');
    expect(view.body.document).toMatchObject({ name: META, signingMessage: META });
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: META },
    });
    expect(signed.status).toBe(200);
    const typed = await ctx.db.kysely
      .selectFrom('signees')
      .select('signature_typed')
      .where('email', '=', EMAIL)
      .executeTakeFirstOrThrow();
    expect(typed.signature_typed).toBe(META);
    const declineToken = await signingTokenFromMailbox(ctx, 'decliner@example.com');
    const declined = await signingCall(ctx, declineToken, 'decline', { reason: META });
    expect(declined.status).toBe(200);
    const trail = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`);
    expect(JSON.stringify(trail.body)).toContain(JSON.stringify(META).slice(1, -1));

    // The tables are all still there and whole.
    const counts = await rowCounts(ctx);
    expect(counts.users).toBe(2);
    // Each sign-up's first tenant, and the one made through POST /api/tenants.
    expect(counts.tenants).toBe(3);
  });

  it('treats metacharacters in query parameters as values, never as SQL', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const q = encodeURIComponent(META);
    for (const path of [
      `/api/documents?tenantId=${q}`,
      `/api/documents?tenantId=${tenantId}&status=${q}`,
      `/api/documents?tenantId=${tenantId}&cursor=${q}`,
      `/api/documents?tenantId=${tenantId}&limit=${q}`,
      `/api/events?tenantId=${tenantId}&after=${q}`,
      `/api/events?tenantId=${q}`,
    ]) {
      const res = await api(ctx, owner.apiKey, 'GET', path);
      expect(res.status, path).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    // An equality filter with wildcards and an always-true clause still matches nothing.
    const mailbox = await ctx.app.inject({
      url: `/dev/mailbox?to=${encodeURIComponent("' OR 1=1 --")}`,
      headers: { accept: 'application/json' },
    });
    expect(mailbox.json().emails).toEqual([]);
    const wildcard = await ctx.app.inject({
      url: '/dev/mailbox?to=%25',
      headers: { accept: 'application/json' },
    });
    expect(wildcard.json().emails).toEqual([]);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: owner.email, password: "' OR '1'='1" },
    });
    expect(login.statusCode).toBe(401);
  });
});
