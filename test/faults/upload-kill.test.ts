import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFileKey, documentIdOfKey } from '../../server/src/modules/storage/keys.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { spawnService } from '../webhooks/service-process.js';
import { storedFiles, streamQuickCreate, waitUntil } from './support.js';

const run = promisify(execFile);

// The test's own app (no workers) shares the database and DATA_DIR with real `signet serve`
// processes that are killed with SIGKILL in the middle of uploads.
describe.each(ENGINES)('SIGKILL during upload on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true, workers: false });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    env = {
      DATA_DIR: ctx.config.dataDir,
      ...(ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl } : {}),
      ORPHAN_GRACE_SECONDS: '600',
      RATE_LIMIT_PER_SECOND: '10000',
      RATE_LIMIT_BURST: '10000',
    };
  });
  afterAll(() => ctx.close());

  const documentIds = async () =>
    new Set((await ctx.db.kysely.selectFrom('documents').select('id').execute()).map((r) => r.id));
  const fileOf = (key: string) => path.join(ctx.config.dataDir, 'files', key);

  async function expectEveryRowHasItsFile() {
    const rows = await ctx.db.kysely.selectFrom('documents').select(['id', 'file']).execute();
    for (const row of rows) expect(existsSync(fileOf(row.file)), row.file).toBe(true);
    return rows.length;
  }

  // Stands in for the hour that passes before a leftover counts as an orphan.
  function ageEveryStoredFile() {
    const past = new Date(Date.now() - 2 * 3600_000);
    for (const { key } of storedFiles(ctx.config.dataDir)) utimesSync(fileOf(key), past, past);
  }

  function plantFile(key: string) {
    mkdirSync(path.dirname(fileOf(key)), { recursive: true });
    writeFileSync(fileOf(key), makePdf());
  }

  it('leaves no row without its file, and no file without a row after the next start', async () => {
    const first = await spawnService(env);
    const before = streamQuickCreate({ baseUrl: first.baseUrl, apiKey, tenantId, file: makePdf() });
    expect(await before.done).toBe(201);

    // One large upload kept in flight, plus a burst of small ones racing the kill: some land
    // between "file stored" and "row committed", the window the cleanup exists for.
    const big = streamQuickCreate({
      baseUrl: first.baseUrl,
      apiKey,
      tenantId,
      file: makePdf({ padBytes: 30 * 1024 * 1024 }),
    });
    await waitUntil(
      () => storedFiles(ctx.config.dataDir).some((f) => f.size > 2e6),
      'the large upload to be streaming into storage',
    );
    const burst = Array.from({ length: 12 }, () =>
      streamQuickCreate({
        baseUrl: first.baseUrl,
        apiKey,
        tenantId,
        file: makePdf({ padBytes: 512 * 1024 }),
        chunkBytes: 64 * 1024,
        pauseMs: 1,
      }),
    );
    await new Promise((r) => setTimeout(r, 40));
    await first.kill9();
    expect(await big.done).toBeInstanceOf(Error);
    await Promise.all(burst.map((u) => u.done));

    const rowsAfterKill = await expectEveryRowHasItsFile();
    expect(rowsAfterKill).toBeGreaterThanOrEqual(1);
    // The large upload's file stays behind, without a row: written in place, as new keys are.
    const idsAfterKill = await documentIds();
    const leftovers = storedFiles(ctx.config.dataDir);
    expect(leftovers.some((f) => !idsAfterKill.has(documentIdOfKey(f.key)!))).toBe(true);

    ageEveryStoredFile();
    // Orphans in both layouts: a folder per document (before 2026-11-23), and shard folders.
    const oldOrphan = `documents/${randomUUID()}/original.pdf`;
    plantFile(oldOrphan);
    ageEveryStoredFile();
    // Another process's upload in flight: its file exists, its row does not yet.
    const youngOrphan = documentFileKey(randomUUID(), 'original.pdf');
    plantFile(youngOrphan);

    const second = await spawnService(env);
    try {
      await waitUntil(
        () => second.logs.some((l) => l.msg === 'orphan file cleanup done'),
        'the start-up cleanup',
      );
      const done = second.logs.find((l) => l.msg === 'orphan file cleanup done')!;
      expect(done.deleted).toBeGreaterThanOrEqual(2);
      expect(await expectEveryRowHasItsFile()).toBe(rowsAfterKill);
      const ids = await documentIds();
      const remaining = storedFiles(ctx.config.dataDir);
      const orphans = remaining.filter((f) => !ids.has(documentIdOfKey(f.key)!));
      expect(orphans.map((f) => f.key)).toEqual([youngOrphan]);
      expect(remaining.some((f) => f.key.endsWith('.partial'))).toBe(false);
      expect(existsSync(fileOf(oldOrphan))).toBe(false);

      // The service still works after the kill: the document made before it is intact.
      const check = streamQuickCreate({
        baseUrl: second.baseUrl,
        apiKey,
        tenantId,
        file: makePdf(),
      });
      expect(await check.done).toBe(201);
    } finally {
      await second.stop();
    }
  });

  it('`signet cleanup` removes orphans on demand, honouring --grace', async () => {
    const orphan = documentFileKey(randomUUID(), 'original.pdf');
    plantFile(orphan);
    // Files in documents/ whose names are not ours are never judged orphans.
    const foreign = ['documents/ab/notes.pdf', `documents/ab/${randomUUID()}`, 'documents/readme'];
    foreign.forEach(plantFile);
    const cli = (grace: string) =>
      run('node', ['bin/signet.mjs', 'cleanup', '--grace', grace], {
        env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
      });
    const kept = await cli('3600');
    expect(kept.stdout).toMatch(/deleted 0; kept [1-9]\d* younger than the grace period/);
    expect(existsSync(fileOf(orphan))).toBe(true);
    const removed = await cli('0');
    expect(removed.stdout).toContain(`deleted ${orphan}`);
    expect(existsSync(fileOf(orphan))).toBe(false);
    for (const key of foreign) expect(existsSync(fileOf(key)), key).toBe(true);
    await expectEveryRowHasItsFile();
  });
});
