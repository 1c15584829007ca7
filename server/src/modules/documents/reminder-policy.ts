import { z } from 'zod';
import type { DbOrTrx } from '../../db/handle.js';
import { enqueueJob } from '../../jobs/queue.js';
import type { DocumentRow, SigneeRow } from './documents.repo.js';
import { currentWave } from './signing-turns.js';

/**
 * Automatic reminders (decisions §12): a policy `{firstAfterDays, everyDays, max}` per document
 * or the tenant's defaults, and the schedule it gives each invited signee. Reminder n of a
 * signee is due `firstAfterDays + (n - 1) * everyDays` days after their invitation; each is a
 * job due at that time (`signee.remind`), so nothing scans documents to find the due ones.
 */

/** The job that sends one automatic reminder to one signee. */
export const REMIND_JOB = 'signee.remind';

/** Reminders one signee can get for a document, manual and automatic each. */
export const MAX_REMINDERS_PER_SIGNEE = 10;

/** The most automatic reminders a tenant's default sends, unless it says otherwise. */
export const DEFAULT_REMINDER_MAX = 3;

/** The longest wait a policy may name, in days. */
const MAX_DAYS = 365;

const DAY_MS = 86_400_000;

/** A document's reminder policy as it applies. */
export type ReminderPolicy = { firstAfterDays: number; everyDays: number | null; max: number };

const days = z.number().int('must be whole days').min(1).max(MAX_DAYS);

/**
 * A document's own policy as input: `{firstAfterDays?, everyDays?, max?}` (at least one of the
 * two waits; the first defaults to `everyDays`, `max` to 3), or null: none for this document.
 */
export const remindersInput = z
  .object({
    firstAfterDays: days.optional().describe('days after the invitation; default everyDays'),
    everyDays: days.nullable().optional().describe('days between reminders; null: only one'),
    max: z
      .number()
      .int()
      .min(1)
      .max(MAX_REMINDERS_PER_SIGNEE)
      .optional()
      .describe(`automatic reminders per signee at most; default ${DEFAULT_REMINDER_MAX}`),
  })
  .strict()
  .refine((p) => p.firstAfterDays !== undefined || p.everyDays != null, {
    message: 'give firstAfterDays or everyDays',
  })
  .transform((p): ReminderPolicy => ({
    firstAfterDays: p.firstAfterDays ?? p.everyDays!,
    everyDays: p.everyDays ?? null,
    max: p.max ?? DEFAULT_REMINDER_MAX,
  }))
  .nullable()
  .describe(
    "Automatic reminders to pending signees whose turn it is: {firstAfterDays, everyDays, max}; null: none. Absent: the tenant's defaults.",
  );

/** The policy as a document answers it: what applies (once sent) or was set, else null. */
export const remindersAnswer = z
  .object({
    firstAfterDays: z.number().int(),
    everyDays: z.number().int().nullable(),
    max: z.number().int(),
  })
  .nullable()
  .describe(
    "Automatic reminders: set on the document, or once sent the tenant's defaults as they were then; null: none (or, in a draft, the tenant's defaults at sending)",
  );

/** The `reminders` column for a policy given as input: JSON, `off`, or null (not given). */
export function encodeReminders(policy: ReminderPolicy | null | undefined): string | null {
  if (policy === undefined) return null;
  return policy === null ? 'off' : JSON.stringify(policy);
}

/** The policy a `reminders` column holds, or null (none, or the tenant's in a draft). */
export function decodeReminders(column: string | null): ReminderPolicy | null {
  return column && column !== 'off' ? (JSON.parse(column) as ReminderPolicy) : null;
}

/** The tenant's defaults as a policy, or null when it sets none. */
export function tenantReminders(tenant: {
  reminder_first_after_days: number | null;
  reminder_every_days: number | null;
  reminder_max: number;
}): ReminderPolicy | null {
  const first = tenant.reminder_first_after_days ?? tenant.reminder_every_days;
  if (first === null) return null;
  return { firstAfterDays: first, everyDays: tenant.reminder_every_days, max: tenant.reminder_max };
}

/**
 * The `reminders` column a document gets when it is sent: its own setting, else the tenant's
 * defaults as they are now (a later change of the defaults leaves documents in process alone).
 */
export function remindersAtSend(
  document: { reminders: string | null },
  tenant: Parameters<typeof tenantReminders>[0] | undefined,
): string {
  if (document.reminders !== null) return document.reminders;
  return encodeReminders(tenant ? tenantReminders(tenant) : null) ?? 'off';
}

/** When reminder n (1-based) of a signee invited at `invitedAt` is due, or null: never. */
export function reminderDueAt(
  policy: ReminderPolicy | null,
  invitedAt: string,
  n: number,
): string | null {
  if (!policy || n > policy.max || (n > 1 && policy.everyDays === null)) return null;
  const wait = policy.firstAfterDays + (n - 1) * (policy.everyDays ?? 0);
  return new Date(Date.parse(invitedAt) + wait * DAY_MS).toISOString();
}

/**
 * Schedules reminder n of a signee in the caller's transaction, at its due time or `notBefore`
 * if later (a reminder held back must not make the next one follow at once). Nothing when the
 * policy sends no reminder n.
 */
export async function scheduleReminder(
  trx: DbOrTrx,
  input: {
    documentId: string;
    signeeId: string;
    policy: ReminderPolicy | null;
    invitedAt: string;
    n: number;
    notBefore?: string;
  },
) {
  const due = reminderDueAt(input.policy, input.invitedAt, input.n);
  if (!due) return;
  const runAt = input.notBefore && input.notBefore > due ? input.notBefore : due;
  await enqueueJob(trx, {
    kind: REMIND_JOB,
    payload: { documentId: input.documentId, signeeId: input.signeeId, n: input.n },
    runAt,
  });
}

/**
 * Schedules, after a document in process changed its policy, the next reminder of each signee
 * whose turn it is under the new policy (at once if already overdue). Jobs of the old policy
 * find their time no longer due, or the reminder sent, and do nothing.
 */
export async function rescheduleReminders(
  trx: DbOrTrx,
  input: {
    document: Pick<DocumentRow, 'id' | 'signing_order_enabled' | 'signing_groups_enabled'>;
    policy: ReminderPolicy | null;
    signees: SigneeRow[];
    now: string;
  },
) {
  for (const signee of currentWave(input.document, input.signees)) {
    if (!signee.invited_at) continue;
    await scheduleReminder(trx, {
      documentId: input.document.id,
      signeeId: signee.id,
      policy: input.policy,
      invitedAt: signee.invited_at,
      n: signee.auto_reminders + 1,
      notBefore: input.now,
    });
  }
}
