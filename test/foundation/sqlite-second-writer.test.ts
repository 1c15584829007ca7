import path from 'node:path';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../server/src/lib/ids.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

// Another connection to the same SQLite file (the CLI, or a service being replaced by its
// successor) holds the write lock while the service runs a transaction that reads and then
// writes. The service must wait for the lock (busy_timeout), not fail with SQLITE_BUSY.
const HOLD_MS = 300;

/** Opens its own connection on a thread, holds the write lock for HOLD_MS, then commits. */
async function holdWriteLock(file: string): Promise<{ released: Promise<unknown> }> {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const SQLite = require('better-sqlite3');
    const db = new SQLite(workerData.file);
    db.pragma('busy_timeout = 5000');
    db.exec('begin immediate');
    db.prepare("update tenants set updated_at = updated_at").run();
    parentPort.postMessage('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    db.exec('commit');
    db.close();
    `,
    { eval: true, workerData: { file, holdMs: HOLD_MS } },
  );
  await once(worker, 'message');
  return { released: once(worker, 'exit') };
}

describe('a second writer on the sqlite file', () => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  let file: string;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { listen: true, workers: false });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    file = path.join(ctx.config.dataDir, 'signet.db');
  });
  afterAll(() => ctx.close());

  it('makes a transaction that reads, then writes, wait for the lock', async () => {
    const { released } = await holdWriteLock(file);
    const started = performance.now();
    const id = newId();
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').limit(1).execute();
      await trx
        .insertInto('users')
        .values({
          id,
          email: `${id}@example.com`,
          name: 'Second Writer',
          password_hash: 'x',
          email_verified_at: null,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
    });
    expect(performance.now() - started).toBeGreaterThan(HOLD_MS / 2);
    await released;
    const row = await ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row).toEqual({ id });
  });

  it('sends a document for signing while another process writes', async () => {
    const created = await quickCreate(ctx, apiKey, { tenantId });
    expect(created.status).toBe(201);
    const { released } = await holdWriteLock(file);
    const res = await api(
      ctx,
      apiKey,
      'POST',
      `/api/documents/${created.body.document.id}/send-for-signing`,
    );
    expect(res.status).toBe(200);
    expect(res.body.document.status).toBe('in_process');
    await released;
  });
});
