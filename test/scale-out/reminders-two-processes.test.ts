import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REMIND_JOB,
  scheduleReminder,
} from '../../server/src/modules/documents/reminder-policy.js';
import type { TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { startTwoProcesses, type TwoProcesses } from './support.js';

const DOCUMENTS = 30;
const DAY_MS = 86_400_000;

// Two `signet serve` processes on one PostgreSQL database send the same automatic reminders.
// Every signee's first reminder is made due now (its invitation moved two days back) and gets
// a second job at the same time (as a policy changed in process would add), so both processes
// try to send each one at the same moment: each is sent exactly once.
describe('automatic reminders on two processes and one PostgreSQL database', () => {
  let two: TwoProcesses;
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;

  beforeAll(async () => {
    two = await startTwoProcesses();
    ({ ctx, apiKey, tenantId } = two);
  });

  afterAll(() => two?.close());

  it('sends each reminder once: one audit entry, one e-mail, one count', async () => {
    const ids: string[] = [];
    for (let i = 0; i < DOCUMENTS; i++) {
      const created = await quickCreate(ctx, apiKey, {
        tenantId,
        signees: [{ email: `late${i}@example.com`, name: `Late ${i}` }],
        extra: { reminders: JSON.stringify({ firstAfterDays: 2, max: 1 }) },
      });
      expect(created.status).toBe(201);
      ids.push(created.body.document.id as string);
    }
    for (const id of ids) {
      expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
        200,
      );
    }
    // Two days pass, for every invitation at once; each reminder gets a twin job.
    const invitedAt = new Date(Date.now() - 2 * DAY_MS - 1000).toISOString();
    const signees = await ctx.db.kysely
      .selectFrom('signees')
      .select(['id', 'document_id'])
      .where('document_id', 'in', ids)
      .execute();
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('signees')
        .set({ invited_at: invitedAt })
        .where('document_id', 'in', ids)
        .execute();
      for (const s of signees) {
        await scheduleReminder(trx, {
          documentId: s.document_id,
          signeeId: s.id,
          policy: { firstAfterDays: 2, everyDays: null, max: 1 },
          invitedAt,
          n: 1,
        });
      }
      await trx
        .updateTable('jobs')
        .set({ run_at: new Date().toISOString() })
        .where('kind', '=', REMIND_JOB)
        .where('status', '=', 'pending')
        .execute();
    });
    const jobsLeft = async () =>
      (await ctx.db.kysely.selectFrom('jobs').select('id').where('kind', '=', REMIND_JOB).execute())
        .length;
    await expect.poll(jobsLeft, { timeout: 30_000, interval: 200 }).toBe(0);
    const audits = await ctx.db.kysely
      .selectFrom('audit_entries')
      .select('document_id')
      .where('document_id', 'in', ids)
      .where('action', '=', 'reminded')
      .execute();
    expect(audits.map((r) => r.document_id).sort()).toEqual([...ids].sort());
    const counts = await ctx.db.kysely
      .selectFrom('signees')
      .select('auto_reminders')
      .where('document_id', 'in', ids)
      .execute();
    expect(counts.map((c) => c.auto_reminders)).toEqual(ids.map(() => 1));
    const emails = await ctx.db.kysely
      .selectFrom('emails')
      .select('to_address')
      .where('kind', '=', 'reminder')
      .where('to_address', 'like', 'late%@example.com')
      .execute();
    expect(emails.map((r) => r.to_address).sort()).toEqual(
      Array.from({ length: DOCUMENTS }, (_, i) => `late${i}@example.com`).sort(),
    );
  }, 120_000);
});
