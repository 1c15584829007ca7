import { Validator } from '@seriousme/openapi-schema-validator';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.js';
import { ConfigError, loadConfig } from '../../server/src/config.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser, uniqueEmail } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { writeSealP12 } from '../helpers/seal-p12.js';

const run = promisify(execFile);

describe.each(ENGINES)('platform on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '5' },
    });
  });
  afterAll(() => ctx.close());

  it('serves health, readiness and Prometheus metrics', async () => {
    expect((await ctx.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
    const metrics = await ctx.app.inject('/metrics');
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toContain(
      'signet_http_requests_total{method="GET",route="/healthz",status="200"} 1',
    );
    expect(metrics.body).toContain(
      'signet_http_requests_total{method="GET",route="/readyz",status="200"} 1',
    );
    const histogram = 'signet_http_request_duration_seconds';
    expect(metrics.body).toContain(`# TYPE ${histogram} histogram`);
    // Cumulative buckets, every bound of the histogram, the request in the last ones.
    const buckets = [
      ...metrics.body.matchAll(
        /^signet_http_request_duration_seconds_bucket\{le="([^"]+)",method="GET",route="\/healthz"\} (\d+)$/gm,
      ),
    ];
    expect(buckets.map((m) => m[1])).toEqual([
      ...['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10'],
      '+Inf',
    ]);
    const counts = buckets.map((m) => Number(m[2]));
    expect(counts.every((n, k) => k === 0 || n >= counts[k - 1]!)).toBe(true);
    expect(counts.slice(-2)).toEqual([1, 1]);
    expect(metrics.body).toContain(`${histogram}_count{method="GET",route="/healthz"} 1`);
    const sum =
      /^signet_http_request_duration_seconds_sum\{method="GET",route="\/healthz"\} (\S+)$/m;
    expect(Number(metrics.body.match(sum)?.[1])).toBeGreaterThan(0);

    // Counted by status and by route pattern, not by URL; a URL no route has is "unmatched".
    await ctx.app.inject('/healthz');
    await ctx.app.inject('/no/such/route');
    await ctx.app.inject({ url: `/api/tenants/${randomBytes(4).toString('hex')}` });
    const after = (await ctx.app.inject('/metrics')).body;
    expect(after).toContain(
      'signet_http_requests_total{method="GET",route="/healthz",status="200"} 2',
    );
    expect(after).toContain(`${histogram}_count{method="GET",route="/healthz"} 2`);
    expect(after).toContain(
      'signet_http_requests_total{method="GET",route="unmatched",status="404"} 1',
    );
    expect(after).toContain(
      'signet_http_requests_total{method="GET",route="/api/tenants/:tenantId",status="401"} 1',
    );
    expect(after).toContain(
      'signet_http_requests_total{method="GET",route="/metrics",status="200"} 1',
    );
  });

  it('answers every error as problem+json with a request id', async () => {
    const checks: Array<[InjectOptions, number, string]> = [
      [{ method: 'GET', url: '/no/such/route' }, 404, 'not_found'],
      [
        {
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'content-type': 'application/json' },
          payload: '{"email":',
        },
        400,
        'malformed_request',
      ],
      [
        {
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'content-type': 'application/xml' },
          payload: '<login/>',
        },
        415,
        'unsupported_media_type',
      ],
      [
        {
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'content-type': 'text/plain' },
          payload: 'hi',
        },
        415,
        'unsupported_media_type',
      ],
      [
        {
          // Only the upload routes read multipart; a JSON route refuses it before parsing.
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          payload: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--x--\r\n',
        },
        415,
        'unsupported_media_type',
      ],
      [
        {
          method: 'POST',
          url: '/api/auth/signup',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ email: 'x@y.z', password: 'p'.repeat(2_000_000), name: 'n' }),
        },
        413,
        'payload_too_large',
      ],
      [{ method: 'POST', url: '/api/auth/login', payload: { email: 1 } }, 422, 'validation_failed'],
    ];
    for (const [request, status, code] of checks) {
      const res = await ctx.app.inject(request);
      expect(res.statusCode, code).toBe(status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      const body = res.json();
      expect(body).toMatchObject({ status, code, type: `urn:signet:problem:${code}` });
      expect(typeof body.title).toBe('string');
      expect(typeof body.detail).toBe('string');
      expect(body.requestId).toBe(res.headers['x-request-id']);
    }
  });

  it('publishes a valid OpenAPI 3 document and renders it at /docs', async () => {
    const res = await ctx.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const path of [
      '/api/auth/signup',
      '/api/account/api-keys',
      '/api/tenants',
      '/api/tenants/{tenantId}',
      '/api/tenants/{tenantId}/settings',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const docs = await ctx.app.inject('/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it("sends helmet's headers with pages and the API's own security headers with API answers", async () => {
    const user = await createUser(ctx);
    const tenant = await createTenant(ctx, user.apiKey);
    const apiAnswers = [
      await ctx.app.inject({
        url: `/api/tenants/${tenant.id}`,
        headers: { 'x-api-key': user.apiKey },
      }),
      await ctx.app.inject({ url: '/api/tenants' }), // 401 problem+json
      await ctx.app.inject({ url: '/api/no/such/route' }), // 404 problem+json
    ];
    expect(apiAnswers.map((r) => r.statusCode)).toEqual([200, 401, 404]);
    for (const res of apiAnswers) {
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      // Headers that only govern an HTML document are not sent with JSON.
      for (const name of ['x-dns-prefetch-control', 'x-xss-protection', 'origin-agent-cluster']) {
        expect(res.headers[name], name).toBeUndefined();
      }
    }
    for (const url of ['/docs/', '/healthz', '/no/such/page']) {
      const page = await ctx.app.inject(url);
      expect(page.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(page.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(page.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(page.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(page.headers['x-content-type-options'], url).toBe('nosniff');
      expect(page.headers['strict-transport-security'], url).toBe(
        'max-age=31536000; includeSubDomains',
      );
    }
  });

  it('rate-limits per API key with RateLimit headers and Retry-After', async () => {
    const user = await createUser(ctx);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 8; i++) {
      last = await ctx.app.inject({
        method: 'GET',
        url: '/api/tenants',
        headers: { 'x-api-key': user.apiKey },
      });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    expect(last!.json().code).toBe('rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(last!.headers['ratelimit-limit']).toBe('5');
    expect(last!.headers['ratelimit-remaining']).toBe('0');
    // Another key has its own bucket.
    const other = await createUser(ctx);
    const fresh = await ctx.app.inject({
      method: 'GET',
      url: '/api/tenants',
      headers: { 'x-api-key': other.apiKey },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('writes JSON logs with the request id on every request line', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const { app } = await buildApp({
      config: ctx.config,
      db: ctx.db,
      logger: { level: 'info', stream },
    });
    const res = await app.inject('/healthz');
    await app.close();
    const entries = lines.map((l) => JSON.parse(l));
    const forRequest = entries.filter((e) => e.requestId);
    expect(forRequest.length).toBeGreaterThanOrEqual(2);
    expect(forRequest.every((e) => e.requestId === res.headers['x-request-id'])).toBe(true);
  });
});

describe('sandbox and production hosts', () => {
  let smtp: SmtpSink;
  let sandbox: TestContext;
  let production: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    sandbox = await createTestContext('sqlite');
    production = await createTestContext('postgres', {
      env: {
        ESIGN_ENV: 'production',
        SMTP_URL: smtp.url,
        SECRET_KEY: randomBytes(32).toString('hex'),
        ...(await writeSealP12()),
        // The links below name localhost over http; production needs this said out loud.
        ALLOW_INSECURE_PUBLIC_URL: 'true',
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
    await production.close();
    await smtp.close();
  });

  it('refuses to start production without SMTP_URL, SECRET_KEY and a seal certificate', async () => {
    expect(() => loadConfig({ ESIGN_ENV: 'production', DATA_DIR: '/tmp/unused' })).toThrow(
      ConfigError,
    );
    // The executable itself, as `npm start` runs it: its #! line (node and its flags) must work.
    const result = await run('bin/signet.mjs', ['serve'], {
      env: {
        ...process.env,
        ESIGN_ENV: 'production',
        PORT: '0',
        DATA_DIR: '/tmp/signet-prod-refused',
      },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((result as { code: number }).code).toBe(1);
    expect((result as { stderr: string }).stderr).toContain(
      'Production refuses to start without SMTP_URL, SECRET_KEY, SEAL_P12_PATH',
    );
  });

  it('sends e-mail through SMTP in production and never serves the dev mailbox', async () => {
    const email = uniqueEmail('prod');
    const signup = await production.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'a long password', name: 'Pat' },
    });
    expect(signup.statusCode).toBe(201);
    const mail = await smtp.waitFor((m) => (m.to as { text: string }).text === email);
    expect(mail.subject).toBe('Confirm your e-mail address for Signet');
    expect(mail.text).toMatch(/http:\/\/localhost:3000\/verify-email\?token=ev_/);
    expect(mail.html).toContain('/verify-email?token=ev_');
    const mailbox = await production.app.inject('/dev/mailbox');
    expect(mailbox.statusCode).toBe(404);
    const sandboxMailbox = await sandbox.app.inject({ url: '/dev/mailbox' });
    expect(sandboxMailbox.statusCode).toBe(200);
    expect(sandboxMailbox.body).toContain('Dev mailbox');
  });

  it("refuses a key made on one environment's host at the other's", async () => {
    const prodUser = await createUser(production);
    expect(prodUser.apiKey).toMatch(/^sk_live_/);
    const sandboxUser = await createUser(sandbox);
    const t = await createTenant(production, prodUser.apiKey);
    expect(
      (
        await production.app.inject({
          url: '/api/tenants',
          headers: { 'x-api-key': prodUser.apiKey },
        })
      ).statusCode,
    ).toBe(200);
    const prodCredits = await production.app.inject({
      url: `/api/tenants/${t.id}/credits`,
      headers: { 'x-api-key': prodUser.apiKey },
    });
    expect(prodCredits.json()).toEqual({ balance: 0 });
    const liveOnSandbox = await sandbox.app.inject({
      url: '/api/tenants',
      headers: { 'x-api-key': prodUser.apiKey },
    });
    expect(liveOnSandbox.statusCode).toBe(401);
    expect(liveOnSandbox.json().code).toBe('wrong_environment');
    const testOnProduction = await production.app.inject({
      url: '/api/tenants',
      headers: { 'x-api-key': sandboxUser.apiKey },
    });
    expect(testOnProduction.statusCode).toBe(401);
    expect(testOnProduction.json().code).toBe('wrong_environment');
  });
});
