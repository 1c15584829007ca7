import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleExpiry } from '../../server/src/modules/documents/expiry.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { spawnService, type ServiceProcess } from '../webhooks/service-process.js';

const DOCUMENTS = 30;

// Two `signet serve` processes on one PostgreSQL database keep the same deadlines. Every
// document gets a second expiry job as well (as a deadline moved to the same time would), so
// both processes try to expire each one at the same moment: each is expired exactly once.
describe('expiry on two processes and one PostgreSQL database', () => {
  let ctx: TestContext;
  let dir: string;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let apiKey: string;
  let tenantId: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'signet-expiry-scale-'));
    const shared = { SECRET_KEY: randomBytes(32).toString('hex') };
    ctx = await createTestContext('postgres', { listen: true, workers: false, env: shared });
    const env = { ...shared, DATABASE_URL: ctx.config.databaseUrl!, LOG_LEVEL: 'warn' };
    [a, b] = await Promise.all([
      spawnService({ ...env, DATA_DIR: path.join(dir, 'a') }),
      spawnService({ ...env, DATA_DIR: path.join(dir, 'b') }),
    ]);
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });

  afterAll(async () => {
    await Promise.all([a?.kill9(), b?.kill9()]);
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('expires each document once: one audit entry, one event, one notice', async () => {
    const expiresAt = new Date(Date.now() + 6000).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < DOCUMENTS; i++) {
      const created = await quickCreate(ctx, apiKey, {
        tenantId,
        signees: [{ email: `held${i}@example.com`, name: `Held ${i}` }],
        extra: { expiresAt },
      });
      expect(created.status).toBe(201);
      const id = created.body.document.id as string;
      expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
        200,
      );
      await scheduleExpiry(ctx.db.kysely, id, expiresAt);
      ids.push(id);
    }
    const cancelled = async () =>
      Number(
        (
          await ctx.db.kysely
            .selectFrom('documents')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('id', 'in', ids)
            .where('status', '=', 'cancelled')
            .where('cancel_reason', '=', 'expired')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await expect.poll(cancelled, { timeout: 30_000, interval: 200 }).toBe(DOCUMENTS);
    // Every expiry job has run (both per document) before counting what they did.
    await expect
      .poll(
        async () =>
          (
            await ctx.db.kysely
              .selectFrom('jobs')
              .select('id')
              .where('kind', '=', 'document.expire')
              .execute()
          ).length,
        { timeout: 30_000, interval: 200 },
      )
      .toBe(0);
    const audits = await ctx.db.kysely
      .selectFrom('audit_entries')
      .select('document_id')
      .where('document_id', 'in', ids)
      .where('action', '=', 'expired')
      .execute();
    expect(audits.map((r) => r.document_id).sort()).toEqual([...ids].sort());
    const events = await ctx.db.kysely
      .selectFrom('events')
      .select('document_id')
      .where('document_id', 'in', ids)
      .where('new_status', '=', 'cancelled')
      .execute();
    expect(events.map((r) => r.document_id).sort()).toEqual([...ids].sort());
    const notices = await ctx.db.kysely
      .selectFrom('emails')
      .select('to_address')
      .where('subject', 'like', '%has expired%')
      .execute();
    expect(notices.map((r) => r.to_address).sort()).toEqual(
      Array.from({ length: DOCUMENTS }, (_, i) => `held${i}@example.com`).sort(),
    );
  }, 120_000);
});
