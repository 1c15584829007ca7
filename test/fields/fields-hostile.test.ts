import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfBombs } from '../bad-input/hostile-pdfs.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';

const fields = (page = 1) =>
  JSON.stringify([
    { signee: 0, type: 'signature', page, x: 72, y: 600, width: 180, height: 48 },
    { signee: 1, type: 'signature', page, x: 330, y: 600, width: 180, height: 48 },
  ]);

describe.each(ENGINES)('reading pages of hostile uploads on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  it('reads a large file’s pages on a bounded thread, with the same checks', async () => {
    const big = makePdf({ pages: 2, padBytes: 3 * 1024 * 1024 });
    const ok = await quickCreate(ctx, apiKey, {
      tenantId,
      file: big,
      extra: { fields: fields(2) },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.fields).toHaveLength(2);
    const missing = await quickCreate(ctx, apiKey, {
      tenantId,
      file: big,
      extra: { fields: fields(3) },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ path: 'fields[0].page' });
  });

  it.each(pdfBombs())(
    'answers a %s with fields without stalling other requests',
    async (_, file) => {
      const latencies: number[] = [];
      let running = true;
      const poll = (async () => {
        while (running) {
          const started = performance.now();
          expect((await fetch(`${ctx.baseUrl}/healthz`)).status).toBe(200);
          latencies.push(performance.now() - started);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      // Large enough to go to the thread: the bomb followed by padding the parser skips.
      const padded = Buffer.concat([file, Buffer.from(`%${'0'.repeat(1024 * 1024)}\n`)]);
      for (const body of [file, padded]) {
        const res = await quickCreate(ctx, apiKey, {
          tenantId,
          file: body,
          extra: { fields: fields() },
        });
        expect([201, 415, 422]).toContain(res.status);
        if (res.status === 422) expect(res.body.errors[0].path).toMatch(/^(file|fields\[0\])/);
      }
      running = false;
      await poll;
      if (engine === 'sqlite') expect(Math.max(...latencies)).toBeLessThan(250);
    },
    60_000,
  );
});
