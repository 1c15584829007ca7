import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { storedFiles, waitUntil } from '../faults/support.js';
import { openUpload } from './support.js';

// Short limits, so each attack is cut in a second or two: a body must bring 1 KiB a second.
const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '1000',
  HTTP_BODY_WINDOW_MS: '1000',
  HTTP_BODY_MIN_BYTES: '1024',
  HTTP_MAX_UPLOADS_PER_ADDRESS: '2',
  RATE_LIMIT_PER_SECOND: '1000',
  RATE_LIMIT_BURST: '1000',
};

type LogLine = Record<string, unknown> & { msg: string };

/** Sends the whole body `bytes` at a time, `pauseMs` apart. */
async function sendPaced(upload: ReturnType<typeof openUpload>, bytes: number, pauseMs: number) {
  while (upload.left() > 0) {
    upload.send(Math.min(bytes, upload.left()));
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}

describe.each(ENGINES)('slow clients on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  const logs: LogLine[] = [];
  const cuts = (reason: string) =>
    logs.filter((l) => l.msg === 'connection cut by the connection guard' && l.reason === reason);

  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      env: LIMITS,
      logger: { level: 'warn', stream: { write: (line: string) => logs.push(JSON.parse(line)) } },
    });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  it('cuts a trickling upload body and removes its partial file', async () => {
    const upload = openUpload(ctx.baseUrl, apiKey, tenantId, makePdf({ padBytes: 1024 * 1024 }));
    // Enough for the file to be in storage (the writer hands over 256 KiB at a time), then a
    // byte every 200 ms.
    upload.send(600 * 1024);
    await waitUntil(() => storedFiles(ctx.config.dataDir).length > 0, 'the partial file');
    const started = performance.now();
    let answered = false;
    void upload.answer.then(() => (answered = true));
    while (!answered && performance.now() - started < 5000) {
      upload.send(1);
      await new Promise((r) => setTimeout(r, 200));
    }
    const answer = await upload.answer;
    // The window that held the 600 KiB passes, the next one brings 5 bytes a second: cut at its
    // end, found by a sweep at most a quarter window later (2.25 s), with slack for a busy CPU.
    expect(performance.now() - started).toBeLessThan(4000);
    if (!(answer instanceof Error)) expect(answer.status).toBe(408);
    await waitUntil(() => storedFiles(ctx.config.dataDir).length === 0, 'the file removed', 5000);
    const [line] = cuts('slow_body');
    expect(line).toMatchObject({ clientAddress: '127.0.0.1', method: 'POST' });
    expect(line.bytesReceived).toBeGreaterThan(600 * 1024);
    // Never the URL: elsewhere it may carry a signing token.
    expect(Object.keys(line)).not.toContain('url');
    expect(JSON.stringify(line)).not.toContain('quick-create');
  });

  // Sends `start`, then `byte` every `everyMs` until the server closes the connection: what
  // the server answered, and after how long.
  async function trickle(start: string, byte: string, everyMs: number) {
    const socket = net.connect({ port: Number(new URL(ctx.baseUrl).port), host: '127.0.0.1' });
    socket.write(start);
    const timer = setInterval(() => socket.writable && socket.write(byte), everyMs);
    let received = '';
    socket.on('data', (c: Buffer) => (received += c));
    const started = performance.now();
    await new Promise((resolve) => socket.on('close', resolve));
    clearInterval(timer);
    return { received, ms: performance.now() - started };
  }

  it("cuts a trickling login body, the report's unauthenticated attack, with 408", async () => {
    const { received, ms } = await trickle(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"email":"',
      'a',
      200,
    );
    // One window without 1 KiB, found by a sweep a quarter window later at the latest.
    expect(ms).toBeLessThan(2500);
    expect(received).toMatch(/^HTTP\/1.1 408/);
    expect(received).toContain('"code":"request_timeout"');
    expect(cuts('slow_body').at(-1)).toMatchObject({ clientAddress: '127.0.0.1', method: 'POST' });
  });

  it('cuts a client whose headers never end, with 408', async () => {
    const { received, ms } = await trickle(
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'X',
      100,
    );
    // Node checks every quarter window: the timeout plus at most one check period, with slack.
    expect(ms).toBeLessThan(2500);
    expect(received).toMatch(/^HTTP\/1.1 408/);
    expect(cuts('headers_timeout').length).toBeGreaterThan(0);
    expect(cuts('headers_timeout')[0]).toMatchObject({ clientAddress: '127.0.0.1', method: null });
  });

  it('lets a slow but steady upload through, over many windows', async () => {
    // 8 KiB a second, 8 times the minimum, for about 5 s, with pauses just under a window.
    const upload = openUpload(ctx.baseUrl, apiKey, tenantId, makePdf({ padBytes: 36 * 1024 }));
    await sendPaced(upload, 2048, 250);
    const answer = await upload.answer;
    expect(answer).not.toBeInstanceOf(Error);
    expect((answer as { status: number }).status).toBe(201);
  });

  it('caps uploads in flight per address, and frees the place of a stalled one', async () => {
    const before = cuts('upload_cap').length + cuts('slow_body').length;
    const inFlight = [0, 1].map(() =>
      openUpload(ctx.baseUrl, apiKey, tenantId, makePdf({ padBytes: 4 * 1024 * 1024 })),
    );
    // Both well above the minimum rate while the third comes.
    const pump = setInterval(() => inFlight.forEach((u) => u.send(16 * 1024)), 50);
    await new Promise((r) => setTimeout(r, 300));
    const third = openUpload(ctx.baseUrl, apiKey, tenantId, makePdf());
    third.send();
    const refused = await third.answer;
    expect(refused).not.toBeInstanceOf(Error);
    expect((refused as { status: number }).status).toBe(429);
    expect(JSON.parse((refused as { body: string }).body).code).toBe('rate_limited');
    // The two stall: a new upload takes the place of one (evicted, or cut by the sweep).
    clearInterval(pump);
    await new Promise((r) => setTimeout(r, 600));
    const fourth = openUpload(ctx.baseUrl, apiKey, tenantId, makePdf());
    fourth.send();
    const answer = await fourth.answer;
    expect((answer as { status: number }).status).toBe(201);
    expect(cuts('upload_cap').length + cuts('slow_body').length).toBeGreaterThan(before);
    await Promise.all(inFlight.map((u) => u.answer));
    await waitUntil(
      async () =>
        storedFiles(ctx.config.dataDir).length ===
        (await ctx.db.kysely.selectFrom('documents').select('id').execute()).length,
      'only the created documents’ files in storage',
      5000,
    );
  });
});
