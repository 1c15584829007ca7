import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Db, DbOrTrx } from '../../db/handle.js';
import { defineJob } from '../../jobs/runner.js';
import { AppError } from '../../lib/errors.js';
import { isoIn, nowIso } from '../../lib/ids.js';
import { findUserById } from '../accounts/accounts.repo.js';
import { recordSigneeReminded } from '../events/opt-in-events.js';
import { takeRecipientSlot } from '../mail/recipient-limits.js';
import { findTenant } from '../tenants/tenants.repo.js';
import { recordAudit } from './audit.repo.js';
import * as repo from './documents.repo.js';
import {
  decodeReminders,
  reminderDueAt,
  REMIND_JOB,
  scheduleReminder,
  type ReminderPolicy,
} from './reminder-policy.js';
import { inviteSignees } from './sending.service.js';
import { currentWave } from './signing-turns.js';

/** What an automatic reminder needs. */
export type ReminderDeps = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'secretKey' | 'mailDailyLimitPerTenant'>;
  wakeJobs: () => void;
};

type Due = { documentId: string; signeeId: string; n: number };

const DAY_MS = 86_400_000;

// A reminder held back by a limit: its transaction rolls back, and it is due again at `until`.
class Postponed extends Error {
  constructor(readonly until: string) {
    super(`postponed until ${until}`);
  }
}

/**
 * Sends reminder n of a signee if it is still owed: the document in process, the signee
 * pending, invited and in the current wave, reminder n due under the document's policy and not
 * sent yet. Once: the signee's count of automatic reminders moves from n - 1 to n by
 * compare-and-set in the transaction that queues the e-mail and records `reminded` (actor
 * `system`), so a second run, a second process or a duplicate job finds it sent. Held back, not
 * dropped, by the manual cooldown (until it ends), the recipient's reminder limit and the
 * tenant's daily e-mail quota (until they allow it).
 */
export async function sendAutomaticReminder(deps: ReminderDeps, due: Due): Promise<boolean> {
  try {
    return await deps.db.kysely.transaction().execute((trx) => remindInTrx(trx, deps, due));
  } catch (err) {
    if (!(err instanceof Postponed)) throw err;
    // The policy is read again when the postponed job runs: only the time is carried over.
    await deps.db.kysely.transaction().execute(async (trx) => {
      const document = await repo.findDocument(trx, due.documentId);
      if (!document) return;
      const signees = await repo.listSignees(trx, document.id);
      const signee = signees.find((s) => s.id === due.signeeId);
      if (!signee?.invited_at) return;
      await scheduleReminder(trx, {
        ...due,
        policy: decodeReminders(document.reminders),
        invitedAt: signee.invited_at,
        notBefore: err.until,
      });
    });
    return false;
  }
}

async function remindInTrx(trx: DbOrTrx, deps: ReminderDeps, due: Due): Promise<boolean> {
  const document = await repo.lockDocument(trx, deps.db.engine, due.documentId);
  if (document?.status !== 'in_process') return false;
  const signees = await repo.listSignees(trx, document.id);
  const signee = signees.find((s) => s.id === due.signeeId);
  if (!signee?.invited_at || signee.auto_reminders !== due.n - 1) return false;
  const policy = decodeReminders(document.reminders);
  const dueAt = reminderDueAt(policy, signee.invited_at, due.n);
  const now = nowIso();
  // Turned off, or moved later by a PATCH (which scheduled the new time itself).
  if (!dueAt || dueAt > now) return false;
  if (!currentWave(document, signees).some((s) => s.id === signee.id)) return false;
  if (document.reminder_cooldown_until && document.reminder_cooldown_until > now) {
    throw new Postponed(document.reminder_cooldown_until);
  }
  const sent = await trx
    .updateTable('signees')
    .set({ auto_reminders: due.n, updated_at: now })
    .where('id', '=', signee.id)
    .where('auto_reminders', '=', due.n - 1)
    .executeTakeFirst();
  if (Number(sent.numUpdatedRows) !== 1) return false;
  const tenant = await findTenant(trx, document.tenant_id);
  if (tenant?.invitation_emails === 1) {
    const slot = await takeRecipientSlot(trx, { kind: 'reminder', address: signee.email });
    if (!slot.ok) throw new Postponed(isoIn(slot.retryAfterSeconds * 1000));
  }
  await recordAudit(trx, {
    documentId: document.id,
    tenantId: document.tenant_id,
    action: 'reminded',
    actor: 'system',
    signeeId: signee.id,
    details: { automatic: true, n: due.n },
    at: now,
  });
  await recordSigneeReminded(trx, { ...due, tenantId: document.tenant_id, at: now });
  const sender = await findUserById(trx, document.user_id);
  try {
    await inviteSignees(trx, deps, {
      document,
      signees: [signee],
      senderName: sender?.name ?? 'Signet',
      reminder: true,
      tenant,
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'mail_quota_exceeded') {
      throw new Postponed(nextUtcDay(now));
    }
    throw err;
  }
  await scheduleNext(trx, { ...due, policy, invitedAt: signee.invited_at, now });
  return true;
}

// The next reminder at its time, and never sooner than a full interval after this one (a
// reminder held back for days must not make the next follow at once).
async function scheduleNext(
  trx: DbOrTrx,
  input: Due & { policy: ReminderPolicy | null; invitedAt: string; now: string },
) {
  const gap = (input.policy?.everyDays ?? 0) * DAY_MS;
  await scheduleReminder(trx, {
    ...input,
    n: input.n + 1,
    notBefore: new Date(Date.parse(input.now) + gap).toISOString(),
  });
}

// Midnight UTC after `at`, when the tenant's daily e-mail count starts again.
function nextUtcDay(at: string): string {
  const day = new Date(at.slice(0, 10));
  return new Date(day.getTime() + DAY_MS).toISOString();
}

/** The durable automatic-reminder job. */
export function remindJob(deps: ReminderDeps) {
  return defineJob({
    kind: REMIND_JOB,
    payload: z.object({ documentId: z.string(), signeeId: z.string(), n: z.number().int() }),
    handle: async (due) => {
      if (await sendAutomaticReminder(deps, due)) deps.wakeJobs();
    },
  });
}
