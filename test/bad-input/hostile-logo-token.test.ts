import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { pngBomb, pngWithHtml } from '../tenants/logo-files.js';
import { expectRefused, type Answer } from './hostile-csv-support.js';

// Issue 49's new ways in for untrusted bytes, tried while /healthz is probed (as the hostile
// CSVs and PDFs are): a tenant logo (a PNG bomb, HTML in a text chunk, 10 MB) and an identity
// token (1 MB of garbage, a forged `alg: none` token). Each is refused with problem+json,
// changes nothing, and the service answers its probes within the liveness bound throughout.
describe.each(ENGINES)('hostile logos and identity tokens on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx?.close());

  const post = async (
    path: string,
    body: Buffer | string,
    headers: Record<string, string>,
    method = 'POST',
  ): Promise<Answer> => {
    try {
      const res = await fetch(`${ctx.baseUrl}${path}`, {
        method,
        headers,
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
      return {
        status: res.status,
        contentType: res.headers.get('content-type') ?? '',
        body: await res.text(),
      };
    } catch (err) {
      return err as Error;
    }
  };

  it('refuses hostile logos while staying live', async () => {
    const logo = (bytes: Buffer) =>
      post(
        `/api/tenants/${tenantId}/logo`,
        bytes,
        {
          'x-api-key': apiKey,
          'content-type': 'image/png',
        },
        'PUT',
      );
    await expectRefused(ctx, [422], () => logo(pngBomb()));
    await expectRefused(ctx, [422], () => logo(pngWithHtml()));
    await expectRefused(ctx, [413], () => logo(Buffer.alloc(10 * 1024 * 1024, 0x89)));
    const read = await api(ctx, apiKey, 'GET', `/api/tenants/${tenantId}/logo`);
    expect(read.body.logo).toBeNull();
  });

  it('refuses hostile identity tokens while staying live', async () => {
    // Links handed to the caller, not e-mailed: the send answers each signing URL.
    await api(ctx, apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      invitationEmails: false,
    });
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      signees: [{ email: `tok.${engine}@example.com`, name: 'Tok' }],
      extra: { name: 'Token target' },
    });
    const id = created.body.document.id as string;
    const sent = await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(sent.status).toBe(200);
    const token = new URL(sent.body.deliveries[0].signingUrl as string).pathname.split('/').pop()!;
    const auth = (identity: string) =>
      post(`/api/signing/${token}/auth`, JSON.stringify({ identity }), {
        'content-type': 'application/json',
      });
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', kid: 'k' })}.${b64({ aud: 'x', exp: 9e9 })}.`;
    await expectRefused(ctx, [401], () => auth(unsigned));
    await expectRefused(ctx, [401, 413, 422], () => auth('a'.repeat(1024 * 1024)));
  });
});
