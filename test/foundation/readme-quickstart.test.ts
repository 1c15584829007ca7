import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { makePdf } from '../helpers/pdf.js';
import { readmeQuickstart } from '../helpers/readme.js';
import { freePort } from '../helpers/free-port.js';

const run = promisify(execFile);

describe.each(ENGINES)("the README's quickstart on %s", (engine) => {
  let ctx: TestContext;
  let dir: string;
  beforeAll(async () => {
    const port = await freePort();
    ctx = await createTestContext(engine, {
      listen: true,
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'signet-quickstart-'));
    writeFileSync(path.join(dir, 'contract.pdf'), makePdf({ pages: 2, title: 'Contract' }));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs from sign-up to a sealed PDF that verifies', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeQuickstart()], {
      cwd: dir,
      env: { ...process.env, BASE: ctx.baseUrl },
      timeout: 60_000,
    });
    // Each curl prints its answer; the last one is the verification's.
    const verified = JSON.parse(stdout.slice(stdout.lastIndexOf('{"status":')));
    expect(verified.status).toBe('sealed');
    const signed = readFileSync(path.join(dir, 'signed.pdf'));
    expect(signed.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await ctx.db.kysely
      .selectFrom('documents')
      .select(['id', 'status'])
      .where('id', '=', verified.documentId)
      .executeTakeFirstOrThrow();
    expect(doc.status).toBe('signed');
  });
});
