import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { useMailingContext } from '../helpers/smtp.js';
import { linkCall, sentWithAuth } from '../helpers/verification.js';

// Issue 49: a signing page inside a third-party frame keeps its verification only if the
// browser sends the cookie there, which it does for SameSite=None; Secure alone. A tenant that
// lets other sites frame its pages (embedOrigins) gets that cookie; any other keeps Lax.
describe.each(ENGINES)('the verification cookie of an embeddable link on %s', (engine) => {
  const m = useMailingContext(engine, { listen: true, env: (url) => ({ SMTP_URL: url }) });
  let apiKey: string;
  beforeAll(async () => {
    apiKey = (await createUser(m.ctx, { name: 'Sam Sender' })).apiKey;
  });

  const verifiedCookie = async (tenantId: string, label: string) => {
    const email = `${label}.${Math.random().toString(36).slice(2, 7)}@ex.io`;
    const doc = await sentWithAuth(m.ctx, m.smtp, {
      apiKey,
      tenantId,
      name: 'Framed lease',
      signees: [{ email, name: 'Fay Framed', auth: 'access_code', accessCode: 'harbour-42' }],
    });
    const token = doc.tokens[0]!;
    const ok = await linkCall(m.ctx, token, '/auth', { body: { code: 'harbour-42' } });
    expect(ok.status).toBe(200);
    expect(ok.setCookie).toHaveLength(1);
    // The cookie opens the link afterwards, as in a top-level page.
    expect((await linkCall(m.ctx, token, '', { cookie: ok.cookie })).status).toBe(200);
    return ok.setCookie[0]!;
  };

  it('is SameSite=None; Secure for a tenant with embedOrigins, Lax otherwise', async () => {
    const embedding = (await createTenant(m.ctx, apiKey)).id;
    const saved = await api(m.ctx, apiKey, 'PATCH', `/api/tenants/${embedding}/settings`, {
      embedOrigins: ['https://app.example.com'],
    });
    expect(saved.status).toBe(200);
    const framed = await verifiedCookie(embedding, 'framed');
    expect(framed).toMatch(/; SameSite=None/);
    expect(framed).toMatch(/; Secure/);
    expect(framed).toMatch(/; HttpOnly/);

    const plain = await verifiedCookie((await createTenant(m.ctx, apiKey)).id, 'plain');
    expect(plain).toMatch(/; SameSite=Lax/);
    expect(plain).not.toMatch(/Secure/);
  });
});
