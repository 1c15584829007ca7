import type { Db, DbOrTrx } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/ids.js';
import * as repo from './mail.repo.js';

/** How many e-mails of one kind an address may get from the whole service. */
export type RecipientRule = { perHour: number; perDay: number };

/**
 * The kinds of e-mail that anyone can aim at an address they do not own, and how many of each
 * one address gets from the whole service, whichever tenants or clients ask. A real person is
 * invited to a handful of teams a year, verifies an address once, and is reminded about the
 * few documents waiting for them; an attacker with 30 free tenants wanted 150 invitations in a
 * second and a half. Sliding windows of an hour and a day.
 * - member invitations: 3 an hour, 10 a day: a new colleague invited by a few teams at once
 *   still gets every invitation, a mailbox cannot be flooded;
 * - reminders: 5 an hour, 20 a day: several documents from several senders may be waiting, and
 *   each document reminds at most every 15 minutes anyway;
 * - account e-mails (the verification link, at sign-up or resent, and the "you already have an
 *   account" notice): 3 an hour, 10 a day. Every verification link works for 48 hours, so the
 *   owner of an address always holds a working one whoever spends its budget.
 * - direct links: 3 an hour, 10 a day. Anyone holding a template's public link types a name and
 *   an address, and the signed copy is e-mailed there: a person signs a form or two, a script
 *   must not aim a stream of signed copies at a mailbox through every link it finds.
 */
export const RECIPIENT_RULES = {
  member_invitation: { perHour: 3, perDay: 10 },
  reminder: { perHour: 5, perDay: 20 },
  account: { perHour: 3, perDay: 10 },
  direct_link: { perHour: 3, perDay: 10 },
} as const satisfies Record<string, RecipientRule>;

/** A kind of e-mail limited per recipient address. */
export type RecipientKind = keyof typeof RECIPIENT_RULES;

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
// One delivered e-mail in this many also sweeps the rows of addresses nothing went to for a day.
const SWEEP_EVERY = 200;

/** The wait until `times` (ms, oldest first) holds fewer than `limit` within `windowMs`. */
function waitMs(times: number[], limit: number, windowMs: number, now: number): number {
  const inWindow = times.filter((t) => t > now - windowMs);
  if (inWindow.length < limit) return 0;
  // Capped at the window: another process's clock may be a little ahead of ours.
  return Math.min(windowMs, inWindow[inWindow.length - limit] + windowMs - now);
}

/**
 * Records one e-mail of `kind` to `address` when the address's budget allows it, inside the
 * caller's transaction (a rollback takes it back). Answers whether it may be sent and, when
 * not, how many seconds until it may. The address's row stays locked until the caller commits:
 * call it late in the transaction, and for several addresses in sorted order.
 */
export async function takeRecipientSlot(
  trx: DbOrTrx,
  input: { kind: RecipientKind; address: string; now?: number },
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  const rule = RECIPIENT_RULES[input.kind];
  const key = {
    kind: input.kind,
    addressHash: hashSecret(input.address.trim().toLowerCase()),
    now: new Date(input.now ?? Date.now()).toISOString(),
  };
  const recorded = JSON.parse(await repo.lockRecipientSends(trx, key)) as string[];
  // The time is read once the row is ours: a sender we waited for may have recorded a later one.
  const now = input.now ?? Date.now();
  const times = recorded
    .map((t) => Date.parse(t))
    .filter((t) => t > now - DAY_MS)
    .sort((a, b) => a - b);
  const wait = Math.max(
    waitMs(times, rule.perHour, HOUR_MS, now),
    waitMs(times, rule.perDay, DAY_MS, now),
  );
  if (wait > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
  const nowIso = new Date(Math.max(now, times.at(-1) ?? now)).toISOString();
  const sentAt = JSON.stringify([...times.map((t) => new Date(t).toISOString()), nowIso]);
  await repo.saveRecipientSends(trx, { ...key, now: nowIso, sentAt });
  return { ok: true };
}

/**
 * Now and then (one call in SWEEP_EVERY) deletes the rows of addresses nothing was sent to for
 * a day, outside any request's transaction: the mail job calls it after a delivery.
 */
export async function sweepRecipientLimits(db: Db, now = Date.now()): Promise<void> {
  if (Math.random() * SWEEP_EVERY >= 1) return;
  await repo.deleteStaleRecipientSends(db.kysely, db.engine, new Date(now - DAY_MS).toISOString());
}

/** The 429 for an address whose budget of a kind of e-mail is spent. */
export function recipientLimited(detail: string, retryAfterSeconds: number): AppError {
  return new AppError('rate_limited', detail, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}
