import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall, signingTokenFromMailbox, waitForStatus } from '../helpers/signing.js';

const BOOK = path.resolve(__dirname, '../../../shared/corpus/files/pages-352-freeculture.pdf');

/** The 352-page book ten times over (3,520 pages): sealing it takes ~0.5–0.9 s of CPU. */
function thickBook(): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-thick-'));
  try {
    const out = path.join(dir, 'book.pdf');
    const run = spawnSync('qpdf', [
      '--empty',
      '--pages',
      ...Array<string>(10).fill(BOOK),
      '--',
      out,
    ]);
    expect(run.status, String(run.stderr)).toBe(0);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The book is one of ../shared/corpus's real files: skipped where the corpus is absent.
describe.skipIf(!existsSync(BOOK)).each(ENGINES)('sealing off the event loop on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  it('keeps /healthz answering while a 3,520-page document is sealed', async () => {
    const email = `thick.${engine}@example.com`;
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      file: thickBook(),
      signees: [{ email, name: 'Thick Book' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id as string;
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    const token = await signingTokenFromMailbox(ctx, email);

    const latencies: number[] = [];
    let running = true;
    const poll = (async () => {
      while (running) {
        const t = performance.now();
        const res = await fetch(`${ctx.baseUrl}/healthz`);
        expect(res.status).toBe(200);
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Thick Book' },
    });
    expect(signed.status).toBe(200);
    const done = await waitForStatus(ctx, apiKey, id, 'signed', 60_000);
    running = false;
    await poll;

    // Sealed with the original's pages (not attached as a fallback), the seal valid.
    const u = new URL(done.document.downloadUrl);
    const sealed = Buffer.from(
      await (await fetch(`${ctx.baseUrl}${u.pathname}${u.search}`)).arrayBuffer(),
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'signet-thick-'));
    try {
      const file = path.join(dir, 'sealed.pdf');
      writeFileSync(file, sealed);
      expect(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout).toContain(
        'Signature is Valid',
      );
      const pages = spawnSync('pdfinfo', [file], { encoding: 'utf8' }).stdout;
      expect(Number(/Pages:\s+(\d+)/.exec(pages)![1])).toBeGreaterThanOrEqual(3520 + 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(latencies.length).toBeGreaterThan(5);
    // In process, the seal held the event loop for its whole run (over 200 ms at a time here,
    // 500 ms now that the original is rewritten whole), so nearly every answer waited. Off the
    // thread the typical answer takes a few ms and the largest pause is 15–95 ms alone; with a
    // Chromium test running beside it on this 2-CPU machine one pause reached 288 ms (CPU
    // starvation, not the seal). So: the typical answer is fast, and no pause reaches the
    // shortest in-process hold.
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(50);
    expect(sorted.at(-1)!).toBeLessThan(450);
  });
});
