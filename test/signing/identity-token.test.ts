import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvidence } from '../../server/src/modules/sealing/evidence.js';
import { ENGINES } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { downloadFile, waitForStatus } from '../helpers/signing.js';
import { useMailingContext } from '../helpers/smtp.js';
import { linkCall, sentWithAuth } from '../helpers/verification.js';

type Pair = { publicKey: CryptoKey; privateKey: CryptoKey };
type Claims = {
  aud?: string;
  email?: string;
  exp?: number;
  iat?: number;
  jti?: string | null;
  iss?: string;
  sub?: string;
};

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

// Identity tokens (decisions §13, docs/signing.md): a tenant's own public keys, tokens made
// here with jose as an integrator would, and each refusal with its own 401 code.
describe.each(ENGINES)('identity tokens on %s', (engine) => {
  const m = useMailingContext(engine, {
    listen: true,
    env: (url) => ({ SMTP_URL: url, TRUST_PROXY: 'loopback' }),
  });
  let owner: Awaited<ReturnType<typeof createUser>>;
  let member: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let ec: Pair;
  let rsa: Pair;
  let stranger: Pair;
  let client = 0;
  // Where a token's jku or x5u points: nothing may ever be fetched from it.
  let keyServer: Server;
  let keyServerUrl: string;
  const fetched: string[] = [];

  beforeAll(async () => {
    owner = await createUser(m.ctx, { name: 'Olive Owner' });
    member = await createUser(m.ctx, { name: 'Mel Member' });
    tenantId = (await createTenant(m.ctx, owner.apiKey)).id;
    await m.ctx.db.kysely
      .insertInto('memberships')
      .values({
        tenant_id: tenantId,
        user_id: member.id,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute();
    ec = await generateKeyPair('ES256', { extractable: true });
    rsa = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    stranger = await generateKeyPair('ES256', { extractable: true });
    keyServer = createServer((req, res) => {
      fetched.push(req.url ?? '');
      res.end('{"keys":[]}');
    });
    await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
    keyServerUrl = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(async () => {
    await new Promise((resolve) => keyServer?.close(resolve));
  });

  const keysUrl = () => `/api/tenants/${tenantId}/identity-keys`;
  const publicJwk = async (pair: Pair, kid: string) => ({
    ...(await exportJWK(pair.publicKey)),
    kid,
  });

  const register = async () => {
    const keys = [
      { ...(await publicJwk(ec, 'app-ec-1')), alg: 'ES256', use: 'sig' },
      await publicJwk(rsa, 'app-rsa-1'),
    ];
    const put = await api(m.ctx, owner.apiKey, 'PUT', keysUrl(), { keys });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    return put;
  };

  const token = (
    signee: { id: string; email: string },
    claims: Claims = {},
    options: { pair?: Pair; alg?: 'ES256' | 'RS256'; kid?: string | null; header?: object } = {},
  ) => {
    const alg = options.alg ?? 'ES256';
    const pair = options.pair ?? (alg === 'RS256' ? rsa : ec);
    const kid =
      options.kid === undefined ? (alg === 'RS256' ? 'app-rsa-1' : 'app-ec-1') : options.kid;
    const t = now();
    const payload: Record<string, unknown> = {
      aud: signee.id,
      email: signee.email,
      iat: t,
      exp: t + 300,
      jti: randomUUID(),
      iss: 'https://app.example.com',
      sub: 'customer-4711',
      ...claims,
    };
    if (payload.jti === null) delete payload.jti;
    return new SignJWT(payload)
      .setProtectedHeader({ alg, ...(kid === null ? {} : { kid }), ...options.header })
      .sign(pair.privateKey);
  };

  // A document sent to one signee (auth as given): its link, and the signee as a token names it.
  const link = async (auth?: string) => {
    const email = `ida.${Math.random().toString(36).slice(2, 7)}@ex.io`;
    const doc = await sentWithAuth(m.ctx, m.smtp, {
      apiKey: owner.apiKey,
      tenantId,
      name: 'Identity-checked contract',
      signees: [
        auth === 'access_code'
          ? { email, name: 'Ida Dent', auth, accessCode: 'Falcon-3308' }
          : { email, name: 'Ida Dent', ...(auth ? { auth } : {}) },
      ],
    });
    return { doc, token: doc.tokens[0]!, signee: { id: doc.signees[0]!.id, email } };
  };
  const post = (t: string, identity: string) =>
    linkCall(m.ctx, t, '/auth', { body: { identity }, from: `203.0.113.${++client}` });

  it('registers public keys only, owners and admins only', async () => {
    const bad = async (keys: unknown[], path: string, as = owner) => {
      const res = await api(m.ctx, as.apiKey, 'PUT', keysUrl(), { keys });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect((res.body.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path);
      return res;
    };
    const privateJwk = { ...(await exportJWK(ec.privateKey)), kid: 'oops' };
    const leaked = await bad([privateJwk], 'body.keys.0');
    expect(leaked.body.errors[0].message).toMatch(/private key/);
    expect(JSON.stringify(leaked.body)).not.toContain(privateJwk.d);
    const rsaPrivate = { ...(await exportJWK(rsa.privateKey)), kid: 'oops-rsa' };
    await bad([rsaPrivate], 'body.keys.0');
    // jose will not even make one: node:crypto makes the weak key an integrator might have.
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
      format: 'jwk',
    });
    await bad([{ ...weak, kid: 'weak' }], 'body.keys.0.n');
    const p384 = await generateKeyPair('ES384', { extractable: true });
    await bad([await publicJwk(p384, 'p384')], 'body.keys.0.crv');
    await bad([{ kty: 'oct', k: 'c2VjcmV0', kid: 'hmac' }], 'body.keys.0');
    await bad([{ ...(await exportJWK(ec.publicKey)) }], 'body.keys.0.kid');
    await bad(
      [{ ...(await publicJwk(ec, 'same')) }, await publicJwk(stranger, 'same')],
      'body.keys.1.kid',
    );
    await bad([{ ...(await publicJwk(ec, 'x')), alg: 'RS256' }], 'body.keys.0.alg');
    await bad([{ ...(await publicJwk(ec, 'x')), x: 'AAAA' }], 'body.keys.0');
    const eleven = await Promise.all(Array.from({ length: 11 }, (_, i) => publicJwk(ec, `k${i}`)));
    await bad(eleven, 'body.keys');

    const byMember = await api(m.ctx, member.apiKey, 'PUT', keysUrl(), { keys: [] });
    expect(byMember.status).toBe(403);

    const put = await register();
    expect(put.body.keys.map((k: JWK) => k.kid)).toEqual(['app-ec-1', 'app-rsa-1']);
    for (const key of put.body.keys) expect(Object.keys(key)).not.toContain('d');
    const got = await api(m.ctx, member.apiKey, 'GET', keysUrl());
    expect(got.status).toBe(200);
    expect(got.body).toEqual(put.body);
  });

  it('opens a link with a valid token, once, and names who vouched on the certificate', async () => {
    await register();
    const { doc, token: t, signee } = await link('email_otp');
    expect((await linkCall(m.ctx, t, '')).status).toBe(401);
    // The e-mail's case does not matter; the key may be RSA or EC.
    const jwt = await token({ ...signee, email: signee.email.toUpperCase() }, { jti: 'jti-ok-1' });
    const ok = await post(t, jwt);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.method).toBe('identity');
    expect(ok.setCookie[0]).toMatch(/HttpOnly/);
    const view = await linkCall(m.ctx, t, '', { cookie: ok.cookie });
    expect(view.status).toBe(200);

    const replay = await post(t, jwt);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('identity_replayed');
    expect(replay.setCookie).toEqual([]);

    const rsaOk = await post(t, await token(signee, {}, { alg: 'RS256' }));
    expect(rsaOk.status, rsaOk.text).toBe(200);

    const signed = await linkCall(m.ctx, t, '/sign', {
      cookie: ok.cookie,
      body: { consent: true, signature: { type: 'typed', text: 'Ida Dent' } },
    });
    expect(signed.status, signed.text).toBe(200);
    const done = await waitForStatus(m.ctx, owner.apiKey, doc.id, 'signed');
    const trail = (await api(m.ctx, owner.apiKey, 'GET', `/api/documents/${doc.id}/audit-trail`))
      .body.auditTrail as Array<{ action: string; details: Record<string, unknown> }>;
    expect(trail.find((e) => e.action === 'auth succeeded')?.details).toEqual({
      method: 'identity',
      issuer: 'https://app.example.com',
      subject: 'customer-4711',
      keyId: 'app-ec-1',
    });
    expect(trail.find((e) => e.action === 'auth failed')?.details).toEqual({
      method: 'identity',
      reason: 'identity_replayed',
    });
    expect(JSON.stringify(trail)).not.toContain(jwt);
    const evidence = readEvidence(await downloadFile(m.ctx, done.document.downloadUrl))!;
    expect(evidence.signees[0]!.verification).toMatchObject({
      method: 'identity',
      identity: { issuer: 'https://app.example.com', subject: 'customer-4711', keyId: 'app-rsa-1' },
    });
  });

  it('adds a vouched identity to a link that asks for nothing', async () => {
    await register();
    const { doc, token: t, signee } = await link();
    expect((await linkCall(m.ctx, t, '')).status).toBe(200);
    const ok = await post(t, await token(signee, { sub: 'crm-99' }));
    expect(ok.status, ok.text).toBe(200);
    const trail = (await api(m.ctx, owner.apiKey, 'GET', `/api/documents/${doc.id}/audit-trail`))
      .body.auditTrail as Array<{ action: string; details: Record<string, unknown> }>;
    expect(trail.find((e) => e.action === 'auth succeeded')?.details).toMatchObject({
      method: 'identity',
      subject: 'crm-99',
    });
    const certificate = await fetch(`${m.ctx.baseUrl}/api/documents/${doc.id}/certificate`, {
      headers: { 'x-api-key': owner.apiKey },
    });
    expect(certificate.status).toBe(200);
  });

  it('refuses each bad token with its own 401, and fetches no key from anywhere', async () => {
    await register();
    const { token: t, signee } = await link('access_code');
    const refused = async (jwt: string, code: string) => {
      const res = await post(t, jwt);
      expect(res.status, `${code}: ${res.text}`).toBe(401);
      expect(res.body.code).toBe(code);
      expect(res.setCookie).toEqual([]);
    };
    const t0 = now();
    await refused(await token(signee, { iat: t0 - 400, exp: t0 - 60 }), 'identity_expired');
    await refused(await token(signee, { exp: t0 + 3600 }), 'identity_lifetime');
    await refused(await token({ ...signee, id: randomUUID() }), 'identity_audience');
    await refused(await token({ ...signee, email: 'someone.else@ex.io' }), 'identity_email');
    // A key the tenant never registered: under a registered kid, or under its own.
    await refused(await token(signee, {}, { pair: stranger }), 'identity_signature');
    await refused(
      await token(signee, {}, { pair: stranger, kid: 'stranger' }),
      'identity_signature',
    );
    // alg none: no signature at all.
    const unsigned = `${b64({ alg: 'none', kid: 'app-ec-1', typ: 'JWT' })}.${b64({
      aud: signee.id,
      email: signee.email,
      iat: t0,
      exp: t0 + 300,
      jti: randomUUID(),
    })}.`;
    await refused(unsigned, 'identity_signature');
    // HS256 with the public key's bytes as the shared secret (the classic confusion attack).
    for (const secret of [
      await exportSPKI(ec.publicKey),
      JSON.stringify(await exportJWK(ec.publicKey)),
    ]) {
      const confused = await new SignJWT({ email: signee.email, jti: randomUUID() })
        .setProtectedHeader({ alg: 'HS256', kid: 'app-ec-1' })
        .setAudience(signee.id)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
      await refused(confused, 'identity_signature');
    }
    await refused(await token(signee, { jti: null }), 'identity_invalid');
    await refused(await token(signee, {}, { kid: null }), 'identity_invalid');
    await refused('not.a.token', 'identity_invalid');
    await refused(
      await token(
        signee,
        {},
        { pair: stranger, kid: 'app-ec-1', header: { jku: keyServerUrl, x5u: keyServerUrl } },
      ),
      'identity_signature',
    );
    expect(fetched).toEqual([]);
    // The link still asks for its code: nothing above satisfied it.
    expect((await linkCall(m.ctx, t, '')).status).toBe(401);
  });
});
