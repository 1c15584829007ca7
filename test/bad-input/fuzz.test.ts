import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { signingTokenFromMailbox } from '../helpers/signing.js';
import { storedFiles } from '../faults/support.js';
import { expectProblem, NASTY_STRINGS, rowCounts } from './support.js';

type Route = { method: string; path: string; params: string[] };

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 300,
});
const nasty = fc.constantFrom(...NASTY_STRINGS);
const text = fc.oneof(nasty, fc.string({ maxLength: 200 }), printable);
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const FIELDS = [
  'name',
  'email',
  'password',
  'token',
  'url',
  'active',
  'role',
  'emailLanguage',
  'invitationEmails',
  'signeeEvents',
  'reminderCooldownMinutes',
  'reason',
  'consent',
  'signature',
];
// Bodies shaped like ours (known field names, hostile values) get past JSON parsing into
// validation and services; free-form JSON and broken text test the parsers.
const shapedBody = fc.dictionary(
  fc.constantFrom(...FIELDS),
  fc.oneof(
    scalar,
    fc.record({ type: fc.constantFrom('typed', 'drawn', 'x'), text, image: text }),
    fc.jsonValue({ maxDepth: 3 }),
  ),
);
const body = fc.oneof(
  fc.constant(undefined),
  shapedBody.map((b) => ({ kind: 'json' as const, value: JSON.stringify(b) })),
  fc.jsonValue({ maxDepth: 4 }).map((v) => ({ kind: 'json' as const, value: JSON.stringify(v) })),
  fc.oneof(text, printable).map((v) => ({ kind: 'json' as const, value: v })),
  fc.record({
    kind: fc.constant('other' as const),
    value: printable,
    type: fc.constantFrom(
      'text/plain',
      'application/xml',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-16',
      '',
    ),
  }),
);

function openApiRoutes(doc: { paths: Record<string, Record<string, unknown>> }): Route[] {
  const routes: Route[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    // The API and the sandbox mailbox; HTML pages of the web app are tested by the browser suite.
    if (!path.startsWith('/api/') && !path.startsWith('/dev/')) continue;
    for (const method of Object.keys(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      routes.push({ method: method.toUpperCase(), path, params });
    }
  }
  return routes;
}

describe.each(ENGINES)('fuzzing every route on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let revokedKey: string;
  let routes: Route[];
  let ids: Record<string, string[]>;
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      workers: false,
      env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' },
    });
    owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    const revoked = await createUser(ctx);
    revokedKey = revoked.apiKey;
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/account/api-keys/${revoked.apiKeyId}`,
      headers: { cookie: revoked.cookie },
    });
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const foreignTenant = (await createTenant(ctx, stranger.apiKey)).id;
    const draft = (await quickCreate(ctx, owner.apiKey, { tenantId })).body.document.id;
    const sent = (await quickCreate(ctx, owner.apiKey, { tenantId })).body.document.id;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${sent}/send-for-signing`);
    const token = await signingTokenFromMailbox(ctx, 'alice@example.com');
    const webhook = await api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/webhooks`, {
      url: 'https://example.com/hook',
    });
    const event = await ctx.db.kysely.selectFrom('events').select('id').executeTakeFirstOrThrow();
    ids = {
      tenantId: [tenantId, foreignTenant],
      documentId: [draft, sent],
      webhookId: webhook.status === 201 ? [webhook.body.webhook.id] : [],
      eventId: [event.id],
      userId: [owner.id, stranger.id],
      token: [token],
      kind: ['original', 'sealed'],
    };
    routes = openApiRoutes((await ctx.app.inject('/api/openapi.json')).json());
  });
  afterAll(() => ctx.close());

  const param = (name: string) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(...(ids[name]?.length ? ids[name] : [randomUUID()])),
      },
      fc.uuid(),
      text,
    );

  it('never answers 5xx, always problem+json on 4xx, and changes nothing when it refuses', async () => {
    expect(routes.length).toBeGreaterThan(25);
    const request = fc.constantFrom(...routes).chain((route) =>
      fc.record({
        route: fc.constant(route),
        params: fc.tuple(...route.params.map(param), fc.constant('')),
        query: fc.dictionary(
          fc.constantFrom(
            'tenantId',
            'status',
            'limit',
            'cursor',
            'after',
            'to',
            'expires',
            'signature',
          ),
          fc.oneof(fc.constantFrom(...ids.tenantId), text),
        ),
        body,
        auth: fc.constantFrom('key', 'session', 'cross-site', 'garbage', 'live', 'revoked', 'none'),
        garbageKey: printable,
        idempotencyKey: fc.option(printable),
        forwardedFor: fc.option(printable),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        let url = r.route.path;
        r.route.params.forEach((name, i) => {
          url = url.replace(`{${name}}`, encodeURIComponent(r.params[i]) || 'x');
        });
        const search = new URLSearchParams(r.query).toString();
        const headers: Record<string, string> = {};
        if (r.auth === 'key') headers['x-api-key'] = owner.apiKey;
        if (r.auth === 'garbage') headers['x-api-key'] = r.garbageKey || 'x';
        if (r.auth === 'live') headers['x-api-key'] = `sk_live_${r.garbageKey}`;
        if (r.auth === 'revoked') headers['x-api-key'] = revokedKey;
        // Logging out would end the session the other runs use.
        if ((r.auth === 'session' || r.auth === 'cross-site') && !url.endsWith('/logout')) {
          headers.cookie = owner.cookie;
        }
        if (r.auth === 'cross-site') headers.origin = 'https://evil.example';
        if (r.idempotencyKey) headers['idempotency-key'] = r.idempotencyKey;
        if (r.forwardedFor) headers['x-forwarded-for'] = r.forwardedFor;
        const options: InjectOptions = {
          method: r.route.method as InjectOptions['method'],
          url: search ? `${url}?${search}` : url,
          headers,
        };
        if (r.body) {
          headers['content-type'] = r.body.kind === 'json' ? 'application/json' : r.body.type;
          options.payload = r.body.value;
        }
        const before = await rowCounts(ctx);
        const res = await ctx.app.inject(options);
        const label = `${options.method} ${options.url}`;
        expectProblem(res, label);
        if (res.statusCode >= 400) expect(await rowCounts(ctx), label).toEqual(before);
      }),
      { numRuns: 400, interruptAfterTimeLimit: 25_000 },
    );
  });

  it('never answers 5xx to quick-create multipart parts, and a refusal stores nothing', async () => {
    const pdf = makePdf();
    const file = fc.oneof(
      fc.constant(pdf),
      fc.uint8Array({ maxLength: 4096 }).map((b) => Buffer.from(b)),
      fc.integer({ min: 1, max: pdf.length - 1 }).map((n) => pdf.subarray(0, n)),
      fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.concat([Buffer.from('%PDF-1.7\n'), b])),
    );
    const signee = fc.record(
      {
        email: fc.oneof(fc.emailAddress(), text),
        name: text,
        signingOrder: fc.oneof(fc.integer(), text),
        signingGroupId: text,
      },
      { requiredKeys: [] },
    );
    const parts = fc.record({
      tenantId: fc.option(fc.oneof(fc.constantFrom(...ids.tenantId), text)),
      signees: fc.option(
        fc.oneof(
          fc.array(signee, { maxLength: 4 }).map((s) => JSON.stringify(s)),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
          text,
        ),
      ),
      extra: fc.dictionary(
        fc.oneof(
          fc.constantFrom(
            'name',
            'signingMessage',
            'signingOrderEnabled',
            'signingGroupsEnabled',
            'tenantId',
          ),
          printable,
        ),
        text,
        { maxKeys: 4 },
      ),
      files: fc.array(
        fc.record({ bytes: file, name: text, field: fc.constantFrom('file', 'other') }),
        {
          maxLength: 2,
        },
      ),
    });
    await fc.assert(
      fc.asyncProperty(parts, async (p) => {
        const form = new FormData();
        if (p.tenantId !== null) form.append('tenantId', p.tenantId);
        if (p.signees !== null) form.append('signees', p.signees);
        for (const [k, v] of Object.entries(p.extra)) form.append(k, v);
        for (const f of p.files) {
          form.append(f.field, new Blob([new Uint8Array(f.bytes)]), f.name || 'f.pdf');
        }
        const encoded = new Response(form);
        const payload = Buffer.from(await encoded.arrayBuffer());
        const before = await rowCounts(ctx);
        const filesBefore = storedFiles(ctx.config.dataDir).length;
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/documents/quick-create',
          headers: {
            'x-api-key': owner.apiKey,
            'content-type': encoded.headers.get('content-type')!,
          },
          payload,
        });
        expectProblem(res, 'quick-create');
        if (res.statusCode >= 400) {
          expect(await rowCounts(ctx)).toEqual(before);
          expect(storedFiles(ctx.config.dataDir).length).toBe(filesBefore);
        }
      }),
      { numRuns: 200, interruptAfterTimeLimit: 20_000 },
    );
  });
});
