import { statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withUnflushedCommits } from '../../server/src/db/database.js';
import { newId, nowIso } from '../../server/src/lib/ids.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { waitUntil } from '../faults/support.js';
import { quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

// SQLite commits write the log without flushing it; the flush (fdatasync) runs off the event loop
// and is awaited before the code that committed goes on (server/src/db/database.ts). PostgreSQL
// flushes its own commits, so this is SQLite's alone.
describe('group commit on sqlite', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { listen: true, workers: false });
  });
  afterAll(() => ctx.close());

  const insertUser = (q = ctx.db.kysely) =>
    q
      .insertInto('users')
      .values({
        id: newId(),
        email: `${newId()}@example.com`,
        name: 'Flush Test',
        password_hash: 'x',
        email_verified_at: null,
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();

  it('returns from a commit only once a flush made after it has finished', async () => {
    for (let i = 0; i < 5; i++) {
      const before = ctx.db.walFlushes()!;
      await insertUser();
      // Read in the same turn the insert resolved: a flush not awaited would not be counted yet.
      expect(ctx.db.walFlushes()).toBeGreaterThan(before);
    }
    const before = ctx.db.walFlushes()!;
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await insertUser(trx);
      await insertUser(trx);
    });
    expect(ctx.db.walFlushes()).toBeGreaterThan(before);
  });

  it('shares one flush between commits made while another flush runs', async () => {
    const before = ctx.db.walFlushes()!;
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.db.kysely
          .transaction()
          .execute((trx) => insertUser(trx))
          .then(() => seen.push(ctx.db.walFlushes()! - before)),
      ),
    );
    expect(seen.every((n) => n >= 1)).toBe(true);
    // The first commit's flush, then one for the nineteen that committed while it ran.
    expect(ctx.db.walFlushes()! - before).toBeLessThanOrEqual(3);
  });

  it('does not wait for the flush of unflushed commits, but flushes earlier durable ones first', async () => {
    // A durable commit still being flushed when the unflushed one starts: `fn` runs after it is
    // on disk, so what `fn` reads cannot be undone by a power failure.
    const before = ctx.db.walFlushes()!;
    const durable = insertUser();
    let flushesSeenInside = -1;
    await withUnflushedCommits(ctx.db, async (q) => {
      flushesSeenInside = ctx.db.walFlushes()!;
      await insertUser(q);
    });
    await durable;
    expect(flushesSeenInside).toBeGreaterThan(before);
    // The unflushed commit returned without waiting for a flush of its own...
    const afterDurable = ctx.db.walFlushes()!;
    const unflushed = await withUnflushedCommits(ctx.db, async (q) => {
      await insertUser(q);
      return ctx.db.walFlushes()!;
    });
    expect(ctx.db.walFlushes()).toBe(unflushed);
    expect(unflushed).toBe(afterDurable);
    // ...and one it started carries it to disk though no other commit follows.
    await waitUntil(() => ctx.db.walFlushes()! > unflushed, 'the background flush');
    // Unflushed commits alone never make the next one wait for the disk: the second starts
    // while the first one's flush is still running.
    const quiet = ctx.db.walFlushes()!;
    const seen = await Promise.all(
      [0, 1].map(() =>
        withUnflushedCommits(ctx.db, async (q) => {
          const flushes = ctx.db.walFlushes()!;
          await insertUser(q);
          return flushes;
        }),
      ),
    );
    expect(seen).toEqual([quiet, quiet]);
    await waitUntil(() => ctx.db.walFlushes()! > quiet, 'the background flush');
  });

  it('counts flushes in /metrics, and answers a quick-create after its flush', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const metric = async () => {
      const text = (await ctx.app.inject('/metrics')).body;
      return Number(/^signet_sqlite_wal_flushes_total (\d+)$/m.exec(text)![1]);
    };
    const before = await metric();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => quickCreate(ctx, owner.apiKey, { tenantId })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    // Background commits (the search indexer's) may flush while /metrics answers.
    const low = ctx.db.walFlushes()!;
    const after = await metric();
    expect(after).toBeGreaterThan(before);
    expect(after).toBeGreaterThanOrEqual(low);
    expect(after).toBeLessThanOrEqual(ctx.db.walFlushes()!);
  });

  it('checkpoints the log off the event loop, keeping it bounded, and counts it in /metrics', async () => {
    const walBytes = () => statSync(path.join(ctx.config.dataDir, 'signet.db-wal')).size;
    const page = 'x'.repeat(4000);
    const before = ctx.db.walCheckpoints()!;
    // About 4 000 pages (16 MB) written in 400 commits, with pauses a checkpoint can run in.
    for (let round = 0; round < 40; round++) {
      await ctx.db.kysely.transaction().execute(async (trx) => {
        for (let i = 0; i < 10; i++) {
          await trx
            .insertInto('users')
            .values({
              id: newId(),
              email: `${newId()}@example.com`,
              name: page,
              password_hash: 'x',
              email_verified_at: null,
              created_at: nowIso(),
              updated_at: nowIso(),
            })
            .execute();
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await waitUntil(() => ctx.db.walCheckpoints()! > before, 'a checkpoint');
    // The event loop's connection never checkpoints by itself...
    expect(
      (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(ctx.db.kysely))
        .rows[0].wal_autocheckpoint,
    ).toBe(0);
    // ...yet the log is reused, not grown to hold everything written.
    expect(walBytes()).toBeLessThan(8 * 1024 * 1024);
    // The thread may finish another checkpoint while /metrics answers: the count it reports lies
    // between the counts read before and after.
    const low = ctx.db.walCheckpoints()!;
    const text = (await ctx.app.inject('/metrics')).body;
    const high = ctx.db.walCheckpoints()!;
    const reported = Number(/^signet_sqlite_wal_checkpoints_total (\d+)$/m.exec(text)![1]);
    expect(reported).toBeGreaterThanOrEqual(low);
    expect(reported).toBeLessThanOrEqual(high);
    expect(reported).toBeGreaterThan(before);
  });
});
