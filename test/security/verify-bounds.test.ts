import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSignatureSlots } from '../../server/src/modules/sealing/find-signatures.js';
import { createTestContext, type TestContext } from '../helpers/context.js';

// The reported attack: a 2 MB PDF whose 2,000 /ByteRange entries all name one huge hex gap.
function manySlotsOneGap(slots = 2000, hexBytes = 1_500_000): Buffer {
  const head = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Contents <');
  const gapStart = head.length - 1;
  const hex = Buffer.alloc(hexBytes, 0x30); // '0' * n: valid hex, zero padding
  hex.write('3003020100'); // a tiny DER SEQUENCE, so the gap even decodes
  const afterGap = gapStart + 1 + hex.length + 1;
  const entries: string[] = [];
  const tailLength = 64;
  for (let i = 0; i < slots; i++) {
    entries.push(
      `/ByteRange [0 ${gapStart} ${afterGap} ${tailLength}] /SubFilter /ETSI.CAdES.detached\n`,
    );
  }
  return Buffer.concat([
    head,
    hex,
    Buffer.from('> >>\nendobj\n'),
    Buffer.from(entries.join('')),
    Buffer.from('%%EOF\n'),
  ]);
}

describe('verification of hostile files', () => {
  const verify = (file: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), 'x.pdf');
    return fetch(`${ctx.baseUrl}/api/verify`, { method: 'POST', body: form });
  };
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { listen: true });
  });
  afterAll(() => ctx.close());

  it('reads one gap once, however many /ByteRange entries name it, and no huge gap', () => {
    for (const [hexBytes, expected] of [
      [200_000, 1],
      [1_500_000, 0],
    ] as const) {
      const file = manySlotsOneGap(2000, hexBytes);
      const started = performance.now();
      const slots = findSignatureSlots(file);
      expect(performance.now() - started).toBeLessThan(500);
      expect(slots).toHaveLength(expected);
    }
  });

  it('keeps /healthz answering while the attack file is verified', async () => {
    // The first verification loads the PDF and certificate libraries: not part of the attack.
    await verify(Buffer.from('%PDF-1.4\n%%EOF\n'));
    const file = manySlotsOneGap(2000, 200_000);
    expect(file.length).toBeGreaterThan(200_000);
    const huge = manySlotsOneGap();
    const latencies: number[] = [];
    let running = true;
    const poll = (async () => {
      while (running) {
        const t = performance.now();
        const res = await fetch(`${ctx.baseUrl}/healthz`);
        expect(res.status).toBe(200);
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    const res = await verify(file);
    const took = performance.now() - started;
    const hugeRes = await verify(huge);
    expect(hugeRes.status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    running = false;
    await poll;
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe('unknown');
    expect(took).toBeLessThan(2000);
    expect(latencies.length).toBeGreaterThan(2);
    expect(Math.max(...latencies)).toBeLessThan(100);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
  });

  it('limits verifications per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const res = await verify(Buffer.from('%PDF-1.4\n%%EOF\n'));
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toContain(429);
  });
});
