import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CSV_BYTES } from '../../server/src/modules/bulk-sends/bulk-sends.routes.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { csvMultipart, expectRefused, openPost, post } from './hostile-csv-support.js';

// Short connection-guard limits, as test/security/slow-clients.test.ts sets them: a body must
// bring 1 KiB a second, so a trickling client is cut in a second or two. Every other case here
// sends its body at loopback speed.
const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '1000',
  HTTP_BODY_WINDOW_MS: '1000',
  HTTP_BODY_MIN_BYTES: '1024',
  RATE_LIMIT_PER_SECOND: '1000',
  RATE_LIMIT_BURST: '1000',
};

const HEADER = 'Client.email,Client.name\n';
const row = (i: number) => `c${i}@example.com,Client ${i}`;
// Just under the limit, header included.
const UNDER = MAX_CSV_BYTES - 16;

describe.each(ENGINES)('hostile CSV files for a bulk send on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let url: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true, workers: false, env: LIMITS });
    apiKey = (await createUser(ctx)).apiKey;
    const tenantId = (await createTenant(ctx, apiKey)).id;
    const template = await createTemplate(ctx, apiKey, {
      tenantId,
      template: { name: 'Hostile', roles: [{ name: 'Client' }] },
      fields: signatureFields(1),
    });
    expect(template.status).toBe(201);
    url = `${ctx.baseUrl}/api/templates/${template.body.template.id}/bulk-sends`;
  });
  afterAll(() => ctx?.close());

  /** Posts `csv` as the multipart part `csv`; expects it refused with a short problem. */
  const refuseCsv = async (csv: Buffer, statuses = [422], asFile = true) => {
    const { type, body } = csvMultipart(csv, asFile);
    const refused = await expectRefused(ctx, statuses, () =>
      post(url, { 'x-api-key': apiKey, 'content-type': type }, body),
    );
    // Clear, not the file echoed back: no header cell or problem per column in it.
    expect(refused.size).toBeLessThan(4096);
    return { ...refused, says: refused.problem.errors?.map((e) => e.message).join(' | ') };
  };
  const refuseJson = (json: unknown) => {
    const body = Buffer.from(JSON.stringify(json));
    return expectRefused(ctx, [422], () =>
      post(url, { 'x-api-key': apiKey, 'content-type': 'application/json' }, body),
    );
  };

  it('refuses a 10 MiB quoted cell, never closed or closed', async () => {
    const open = HEADER + '"' + 'q'.repeat(UNDER - HEADER.length - 1);
    expect((await refuseCsv(Buffer.from(open))).says).toBe('line 2: a quoted cell is never closed');
    const closed = await refuseCsv(Buffer.from(open.slice(0, -1) + '"'));
    expect(closed.problem.errors).toEqual([
      { path: 'rows.1', message: 'has 1 cells; the header has 2 columns' },
    ]);
  });

  it('refuses a 10 MiB file of one unquoted line without a newline', async () => {
    const line = await refuseCsv(Buffer.alloc(UNDER, 'u'));
    expect(line.says).toMatch(/^line 1: column 1 is longer than 255 characters/);
    // The same made of delimiters only: one line of empty cells, skipped as blank.
    const commas = await refuseCsv(Buffer.alloc(UNDER, ','));
    expect(commas.says).toMatch(/the file is empty/);
  });

  it('refuses a header of 50,000 columns, a row as wide, and 5 million columns', async () => {
    const columns = Array.from({ length: 50_000 }, (_, i) => `x${i + 1}`).join(',');
    const cells = Array.from({ length: 50_000 }, (_, i) => `v${i + 1}`).join(',');
    const wide = await refuseCsv(Buffer.from(`${columns}\n${cells}\n`));
    expect(wide.says).toBe('line 1: 50,000 cells; at most 801');
    // A valid header, then a row as wide.
    const row2 = await refuseCsv(Buffer.from(`${HEADER}${cells}\n${row(2)}\n`));
    expect(row2.says).toBe('line 2: 50,000 cells; at most 801');
    // The widest 10 MiB allow: a problem per column held the event loop for 9 s before the cap.
    const most = await refuseCsv(Buffer.from('a,'.repeat(UNDER / 2)));
    expect(most.says).toBe('line 1: 5,242,873 cells; at most 801');
  });

  it('refuses a file over 10 MiB with 413, by its part or by its Content-Length', async () => {
    const over = Buffer.alloc(MAX_CSV_BYTES + 1, 'o');
    for (const asFile of [true, false]) {
      const { problem } = await refuseCsv(over, [413], asFile);
      expect(problem.code).toBe('payload_too_large');
    }
    // Chunked: no length announced, the part's own limit stops the reading.
    const chunked = csvMultipart(over);
    const streamed = await expectRefused(ctx, [413], () =>
      post(url, { 'x-api-key': apiKey, 'content-type': chunked.type }, chunked.body, null),
    );
    expect(streamed.problem.code).toBe('payload_too_large');
    // Announced too large: refused before a byte of the body is read.
    const announced = csvMultipart(Buffer.from(HEADER + row(1)));
    const early = await expectRefused(ctx, [413], () => {
      const upload = openPost(
        url,
        { 'x-api-key': apiKey, 'content-type': announced.type },
        announced.body,
        MAX_CSV_BYTES + 1024 * 1024,
      );
      upload.write();
      return upload.answer;
    });
    expect(early.problem.code).toBe('payload_too_large');
  });

  it('refuses 10,001 rows, naming the limit', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => row(i + 1));
    const { says } = await refuseCsv(Buffer.from(HEADER + rows.join('\n')));
    expect(says).toBe('at most 10,000 rows');
  });

  it('refuses a Windows-1252 file, naming the encoding', async () => {
    const latin = Buffer.from(`${HEADER}m@example.com,J\u00fcrgen M\u00fcller\n`, 'latin1');
    const { says } = await refuseCsv(latin);
    expect(says).toMatch(/not UTF-8/);
  });

  it('cuts a multipart client trickling its CSV below the minimum rate', async () => {
    const csv = Buffer.from(HEADER + Array.from({ length: 200 }, (_, i) => row(i)).join('\n'));
    const { type, body } = csvMultipart(csv);
    const started = performance.now();
    await expectRefused(ctx, [408], async () => {
      const upload = openPost(url, { 'x-api-key': apiKey, 'content-type': type }, body);
      upload.write(200);
      let answered = false;
      void upload.answer.then(() => (answered = true));
      // A byte every 200 ms: 5 bytes a second against the 1 KiB required.
      while (!answered && upload.left() > 1 && performance.now() - started < 8000) {
        upload.write(1);
        await new Promise((r) => setTimeout(r, 200));
      }
      return upload.answer;
    });
    // One window without 1 KiB, found by a sweep a quarter window later, with slack.
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('refuses the JSON form with 10,001 rows or a row of 50,000 keys or signees', async () => {
    const signees = [{ role: 'Client', email: 'c@example.com', name: 'C' }];
    const many = await refuseJson({ rows: Array.from({ length: 10_001 }, () => ({ signees })) });
    expect(many.problem.errors).toEqual([{ path: 'rows', message: 'at most 10,000 rows' }]);
    const keys = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    // Refused as a bad row, the file's only one; its problem names the first ten keys only.
    const wide = await refuseJson({ rows: [{ signees, ...keys }] });
    expect(wide.problem.errors?.[0].message).toMatch(
      /^k0: not a row property; k1: .*; and 49990 more \(a row has/,
    );
    const prefill = await refuseJson({ rows: [{ signees, prefill: keys }] });
    expect(prefill.problem.errors?.[0].message).toMatch(/^prefill\.k0: no field has this label;/);
    // 300,000 labels (3.6 MB of JSON): a short 422, not a 500 (a spread of that many problems
    // overflowed the stack).
    const huge = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, i]));
    const flood = await refuseJson({ rows: [{ signees, prefill: huge }] });
    expect(flood.problem.errors?.[0].message).toMatch(/; and 299990 more$/);
    for (const refused of [wide, prefill, flood]) expect(refused.size).toBeLessThan(4096);
    const crowd = Array.from({ length: 50_000 }, (_, i) => ({
      role: 'Client',
      email: `s${i}@example.com`,
      name: `S ${i}`,
    }));
    const crowded = await refuseJson({ rows: [{ signees: crowd }] });
    expect(crowded.problem.errors).toEqual([
      { path: 'rows.1', message: 'signees: at most 100 signees' },
    ]);
  });
});
