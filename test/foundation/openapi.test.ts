import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { encoding?: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

const committed = JSON.parse(readFileSync('docs/openapi/openapi.json', 'utf8')) as Doc;

function operations(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}

describe.each(ENGINES)('the OpenAPI document on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx.close());

  it('is the committed docs/openapi/openapi.json, served as is', async () => {
    const res = await ctx.app.inject('/api/openapi.json');
    expect(res.json()).toEqual(committed);
  });

  it('names, summarises and tags every operation, and types every error as problem+json', () => {
    const ops = operations(committed);
    expect(ops.length).toBeGreaterThan(60);
    const ids = new Set<string>();
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      expect(ids.has(op.operationId!), `${where}: operationId repeated`).toBe(false);
      ids.add(op.operationId!);
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBe(1);
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) {
          expect(Object.keys(response.content ?? {}), `${where} ${status}`).toEqual([
            'application/problem+json',
          ]);
        }
      }
    }
  });

  it('describes the multipart uploads part by part, JSON parts as JSON', () => {
    const quickCreate = committed.paths['/api/documents/quick-create'].post;
    const media = quickCreate.requestBody!.content['multipart/form-data'];
    expect(media.encoding).toEqual({
      signees: { contentType: 'application/json' },
      fields: { contentType: 'application/json' },
      metadata: { contentType: 'application/json' },
      reminders: { contentType: 'application/json' },
      file: { contentType: 'application/pdf' },
    });
    for (const path of ['/api/verify', '/api/text-tags/preview']) {
      expect(Object.keys(committed.paths[path].post.requestBody!.content)).toEqual([
        'multipart/form-data',
      ]);
    }
  });

  // The document says which operations need no key (`security: []`); every other one must
  // answer 401 to a request without credentials. Each is called for real to check both ways.
  it('marks exactly the operations that answer without credentials as public', async () => {
    const id = '01a21557-5b18-70ba-b25d-6ee920342351';
    for (const { path, method, op } of operations(committed)) {
      const optional = op.security?.some((s) => Object.keys(s).length === 0) ?? false;
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (optional && !isPublic) continue;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'token' ? 'not-a-token' : name === 'kind' ? 'original' : id,
      );
      const res = await ctx.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        ...(op.requestBody?.content['application/json'] ? { payload: {} } : {}),
      });
      const where = `${method.toUpperCase()} ${path} answered ${res.statusCode}`;
      if (isPublic) expect(res.statusCode, where).not.toBe(401);
      else expect(res.statusCode, where).toBe(401);
    }
  });
});
