import nodemailer from 'nodemailer';
import type { Readable } from 'node:stream';
import type { Storage } from '../storage/storage.js';
import { z } from 'zod';
import { PostgresAdapter, sql } from 'kysely';
import { flushWrites } from '../../db/deferred-writes.js';
import { changeCredits, creditChangeCtes, type CreditChange } from '../tenants/tenants.repo.js';
import type { Db } from '../../db/handle.js';
import { deletePendingJobs, enqueueJobs, rescheduleJob } from '../../jobs/queue.js';
import { defineJob } from '../../jobs/runner.js';
import type { DbOrTrx } from '../../db/handle.js';
import { isoIn, newId, nowIso } from '../../lib/ids.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './mail.repo.js';
import { auditEmailOutcomes, type EmailAudit } from './mail-audit.js';
import { sweepRecipientLimits } from './recipient-limits.js';
import { recordEmailFailed } from '../events/opt-in-events.js';

/**
 * E-mails queued and refused for a tenant's quota by this process (the /metrics counters);
 * counted before their transaction commits, so a rolled-back send still counts.
 */
export const mailCounts = { queued: 0, refused: 0 };

/** A rendered e-mail: what every template returns. */
export type RenderedEmail = { subject: string; html: string; text: string };

/** A file sent with an e-mail, streamed from storage as the message is written. */
export type MailAttachment = { filename: string; contentType: string; content: Readable };

/** What an outbox row attaches: a stored file, read only when the e-mail is delivered. */
export type StoredAttachment = { key: string; filename: string; contentType: string; size: number };

/** Sends one message; null means the dev mailbox (messages stay in the database). */
export type MailTransport = {
  send: (message: {
    from: string;
    to: string;
    subject: string;
    html: string;
    text: string;
    attachments?: MailAttachment[];
  }) => Promise<{ messageId: string }>;
  close: () => void;
} | null;

/** SMTP through nodemailer when SMTP_URL is set, else the dev mailbox. */
export function createMailTransport(smtpUrl: string | null): MailTransport {
  if (!smtpUrl) return null;
  const url = new URL(smtpUrl);
  // Short timeouts: a hung SMTP server must fail a delivery, not stall send-for-signing.
  for (const [k, v] of Object.entries({
    connectionTimeout: '10000',
    greetingTimeout: '10000',
    socketTimeout: '20000',
  })) {
    if (!url.searchParams.has(k)) url.searchParams.set(k, v);
  }
  const transporter = nodemailer.createTransport(url.toString());
  return {
    send: async (message) => {
      const info = await transporter.sendMail(message);
      return { messageId: info.messageId };
    },
    close: () => transporter.close(),
  };
}

/**
 * Counts `n` more e-mails against the tenant's daily quota (UTC); over it, 429
 * `mail_quota_exceeded` and the caller's transaction queues nothing. The count is a row per
 * tenant and day that the transaction holds until it commits: a caller queuing several
 * e-mails counts them once, as late in its transaction as it can (sendForSigning).
 */
export async function countTenantEmails(
  trx: DbOrTrx,
  tenant: { id: string; dailyLimit: number },
  n: number,
) {
  if (n === 0) return;
  refuseOverQuota(tenant, await repo.countTenantMail(trx, tenant.id, quotaDay(), n));
}

/**
 * countTenantEmails and then changeCredits, a send's last writes: on PostgreSQL one statement,
 * so that the two rows every send of the tenant waits on (the day's count and the balance) are
 * held from one round trip to the commit rather than from two. The quota is checked first, as
 * apart; returns the new balance, or null when it does not cover a debit.
 */
export async function countEmailsAndChangeCredits(
  trx: DbOrTrx,
  tenant: { id: string; dailyLimit: number },
  n: number,
  change: CreditChange,
): Promise<number | null> {
  if (n === 0 || !(trx.getExecutor().adapter instanceof PostgresAdapter)) {
    await countTenantEmails(trx, tenant, n);
    return changeCredits(trx, change);
  }
  await flushWrites(trx);
  const { rows } = await sql<{ count: number | string; credit_balance: number | null }>`
    with mail as (${repo.mailCountUpsert(trx, tenant.id, quotaDay(), n)}), ${creditChangeCtes(change)}
    select (select count from mail) as count, (select credit_balance from changed) as credit_balance`.execute(
    trx,
  );
  refuseOverQuota(tenant, Number(rows[0].count));
  return rows[0].credit_balance;
}

/** The day (UTC) a tenant's e-mails count against, as tenant_mail_counts keys it. */
export const quotaDay = () => nowIso().slice(0, 10);

function refuseOverQuota(tenant: { dailyLimit: number }, count: number) {
  if (count <= tenant.dailyLimit) return;
  mailCounts.refused++;
  throw new AppError(
    'mail_quota_exceeded',
    `This tenant has queued its ${tenant.dailyLimit} e-mails for today (UTC); try again tomorrow.`,
  );
}

/** An e-mail to queue: what queueEmail and queueEmails take. */
export type QueuedEmail = RenderedEmail & {
  to: string;
  /** A tenant's e-mail counts against its daily quota; over it, nothing is queued (429). */
  tenant?: { id: string; dailyLimit: number };
  /** The tenant the e-mail is for, when it is not counted against the quota. */
  tenantId?: string;
  jobDelayMs?: number;
  attachment?: StoredAttachment;
  /** An e-mail to a signee: audited in its document's trail with its outcome. */
  audit?: EmailAudit;
};

/**
 * Writes an e-mail to the outbox and enqueues its delivery, inside the caller's transaction.
 * `jobDelayMs` holds the background job back while the request delivers the e-mail itself and
 * reports the result; the job then only acts if the process died before it could.
 */
export async function queueEmail(trx: DbOrTrx, email: QueuedEmail): Promise<string> {
  const [id] = await queueEmails(trx, [email]);
  return id;
}

/**
 * queueEmail for several e-mails: their outbox rows in one statement and their jobs in another
 * (a document's invitations: two round trips to PostgreSQL, however many signees).
 */
export async function queueEmails(trx: DbOrTrx, emails: QueuedEmail[]): Promise<string[]> {
  for (const email of emails) if (email.tenant) await countTenantEmails(trx, email.tenant, 1);
  if (emails.length === 0) return [];
  const rows = emails.map((email) => ({
    id: newId(),
    tenant_id: email.tenant?.id ?? email.tenantId ?? null,
    to_address: email.to,
    subject: email.subject,
    html: email.html,
    text: email.text,
    status: 'queued' as const,
    error: null,
    message_id: null,
    created_at: nowIso(),
    sent_at: null,
    attachment: email.attachment ? JSON.stringify(email.attachment) : null,
    document_id: email.audit?.documentId ?? null,
    signee_id: email.audit?.signeeId ?? null,
    kind: email.audit?.kind ?? null,
  }));
  await repo.insertEmails(trx, rows);
  mailCounts.queued += rows.length;
  await enqueueJobs(
    trx,
    rows.map((row, i) => ({
      // The job shares the e-mail's id, so a failed delivery in the request can find it.
      id: row.id,
      kind: 'mail.send',
      payload: { emailId: row.id },
      maxAttempts: 8,
      runAt: emails[i].jobDelayMs ? isoIn(emails[i].jobDelayMs) : undefined,
    })),
  );
  return rows.map((row) => row.id);
}

/** Thrown by deliverEmail for an e-mail refused for good: stored, audited, never retried. */
export class MailRefusedError extends Error {}

/**
 * True for a refusal that a retry cannot change: the SMTP server's permanent 5xx reply (a
 * mailbox that does not exist, a policy rejection). Connection failures and 4xx are retried.
 */
export function isPermanentRefusal(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** What deliverEmail and deliverEmails need. */
export type DeliveryDeps = {
  db: Db;
  transport: MailTransport;
  mailFrom: string;
  retryBaseMs?: number;
  /** Where attachments are read from (e-mails with one need it). */
  storage?: Storage;
};

/**
 * Delivers one outbox row once; a row already sent, stored or refused is left alone. A failure
 * made outside the job (a request delivering in person) brings the job forward from its
 * fallback delay to `retryBaseMs`, so the outbox retries on the normal schedule. A permanent
 * refusal, or any failure of the `final` attempt, settles the row as `refused` and throws
 * MailRefusedError.
 */
export async function deliverEmail(
  deps: DeliveryDeps,
  emailId: string,
  options: { final?: boolean } = {},
): Promise<repo.EmailRow> {
  const [result] = await deliverEmails(deps, [emailId], options);
  if ('error' in result) throw result.error;
  return result.row;
}

/** One outbox row's delivery: the row as it settled, or why it was not delivered. */
export type DeliveryResult = { row: repo.EmailRow } | { error: unknown };

/**
 * deliverEmail for several outbox rows (a send's invitations), each result in the order of
 * `emailIds`. The rows are read in one statement, handed to the transport side by side, and
 * those it accepted are settled in one transaction: a send's invitations cost the same few
 * round trips to PostgreSQL however many signees it has.
 */
export async function deliverEmails(
  deps: DeliveryDeps,
  emailIds: string[],
  options: { final?: boolean } = {},
): Promise<DeliveryResult[]> {
  const found = new Map((await repo.findEmails(deps.db.kysely, emailIds)).map((e) => [e.id, e]));
  const results = new Map<string, DeliveryResult>();
  const accepted: Array<{ email: repo.EmailRow; set: Partial<repo.EmailRow> }> = [];
  // The dev mailbox stores every row alike: one `set`, so one statement settles them all.
  const stored = { status: 'stored' as const, sent_at: nowIso(), error: null };
  await Promise.all(
    emailIds.map(async (id) => {
      const email = found.get(id);
      if (!email) return results.set(id, { error: new Error(`No outbox row ${id}.`) });
      if ((repo.SETTLED as readonly string[]).includes(email.status)) {
        return results.set(id, { row: email });
      }
      if (!deps.transport) return accepted.push({ email, set: stored });
      try {
        accepted.push({ email, set: await transmit(deps, email) });
      } catch (err) {
        results.set(id, { error: await recordFailure(deps, email, err, options) });
      }
    }),
  );
  try {
    for (const row of await delivered(deps.db, accepted)) results.set(row.id, { row });
  } catch (err) {
    // Accepted but not recorded (the database failed): each row's job delivers it again later.
    for (const { email } of accepted) results.set(email.id, { error: err });
  }
  return emailIds.map((id) => results.get(id)!);
}

/** Hands one outbox row to the transport; what its row keeps once it is accepted. */
async function transmit(deps: DeliveryDeps, email: repo.EmailRow): Promise<Partial<repo.EmailRow>> {
  let content: Readable | null = null;
  try {
    const attachment = email.attachment ? (JSON.parse(email.attachment) as StoredAttachment) : null;
    if (attachment) {
      if (!deps.storage) throw new Error('No storage to read the attachment from.');
      // Streamed into the message as it is written: a large PDF is never held whole in memory.
      content = await deps.storage.get(attachment.key);
    }
    const { messageId } = await deps.transport!.send({
      from: deps.mailFrom,
      to: email.to_address,
      subject: email.subject,
      html: email.html,
      text: email.text,
      ...(attachment && content
        ? {
            attachments: [
              { filename: attachment.filename, contentType: attachment.contentType, content },
            ],
          }
        : {}),
    });
    // Delivered: the links in it (signing links, verification tokens) are the recipient's
    // alone now, so the copy at rest keeps no usable secret.
    return {
      status: 'sent',
      sent_at: nowIso(),
      message_id: messageId,
      error: null,
      html: redactLinks(redactCode(email)(email.html)),
      text: redactLinks(redactCode(email)(email.text)),
    };
  } catch (err) {
    content?.destroy();
    throw err;
  }
}

/**
 * Records a failed delivery and returns the error to report: a permanent refusal, or the
 * `final` attempt's failure, settles the row as refused (MailRefusedError); any other failure
 * marks it failed and brings its pending job forward to the retry schedule.
 */
async function recordFailure(
  deps: DeliveryDeps,
  email: repo.EmailRow,
  err: unknown,
  options: { final?: boolean },
): Promise<unknown> {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
  if (options.final || isPermanentRefusal(err)) {
    await refused(deps.db, email, message);
    return new MailRefusedError(message, { cause: err });
  }
  await repo.updateEmail(deps.db.kysely, email.id, { status: 'failed', error: message });
  // Only a pending job moves: when the job itself is running, the runner reschedules it.
  await rescheduleJob(deps.db.kysely, email.id, isoIn(deps.retryBaseMs ?? 30_000));
  return err;
}

/**
 * Records e-mails as delivered, each with its `e-mailed` audit entry, in one commit. Each one's
 * job shares its id: when the request delivered it, the job has nothing left to do and goes in
 * the same commit too. A row another delivery settled first is returned as that one left it,
 * and audited by that one only.
 */
async function delivered(
  db: Db,
  accepted: Array<{ email: repo.EmailRow; set: Partial<repo.EmailRow> }>,
): Promise<repo.EmailRow[]> {
  if (accepted.length === 0) return [];
  return db.kysely.transaction().execute(async (trx) => {
    const settled = await repo.settleEmails(
      trx,
      accepted.map(({ email, set }) => ({ id: email.id, set })),
    );
    await auditEmailOutcomes(trx, settled, { error: null });
    await deletePendingJobs(
      trx,
      settled.map((row) => row.id),
    );
    const others = accepted.filter(({ email }) => !settled.some((row) => row.id === email.id));
    return others.length
      ? [
          ...settled,
          ...(await repo.findEmails(
            trx,
            others.map(({ email }) => email.id),
          )),
        ]
      : settled;
  });
}

/**
 * Records an e-mail as refused for good, with its `e-mail failed` audit entry and, for a tenant
 * that opted in, its `email.failed` event, and deletes its job (pending, or the one running
 * this attempt), all in one commit: nothing retries it, and only the settling call records.
 */
function refused(db: Db, email: repo.EmailRow, error: string) {
  return db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('jobs').where('id', '=', email.id).execute();
    const [row] = await repo.settleEmails(trx, [
      { id: email.id, set: { status: 'refused', error } },
    ]);
    if (!row) return;
    const at = nowIso();
    await auditEmailOutcomes(trx, [row], { error, at });
    await recordEmailFailed(trx, row, { error, at });
  });
}

/** What a delivered verification e-mail keeps of its code: none. */
export const REDACTED_CODE = '[code removed after delivery]';

// A verification e-mail's 6-digit code is the recipient's alone once delivered, as a link is.
function redactCode(email: Pick<repo.EmailRow, 'kind'>): (body: string) => string {
  if (email.kind !== 'verification') return (body) => body;
  return (body) => body.replace(/\b\d{6}\b/g, REDACTED_CODE);
}

/** What a delivered e-mail keeps of its links: none. */
export const REDACTED_LINK = '[link removed after delivery]';

/** The text with every http(s) URL replaced by REDACTED_LINK. */
export function redactLinks(body: string): string {
  return body.replace(/https?:\/\/[^\s"'<>]+/g, REDACTED_LINK);
}

/** The durable job that delivers an outbox row, retried with backoff while SMTP refuses. */
export function mailSendJob(deps: {
  db: Db;
  transport: MailTransport;
  storage: Storage;
  mailFrom: string;
  /** MAIL_RETRY_BASE_MS: the first retry's delay, doubled per attempt. */
  retryBaseMs?: number;
}) {
  const base = deps.retryBaseMs ?? 30_000;
  return defineJob({
    kind: 'mail.send',
    payload: z.object({ emailId: z.string() }),
    backoffMs: (attempt) => Math.min(base * 2 ** (attempt - 1), 30 * 60_000),
    handle: async ({ emailId }, { job, attempt }) => {
      try {
        // The last attempt's failure is final: the row is refused and audited, not left failed.
        await deliverEmail(deps, emailId, { final: attempt >= job.max_attempts });
      } catch (err) {
        // Refused for good: its job row went with the refusal, there is nothing left to record.
        if (err instanceof MailRefusedError) return 'done';
        throw err;
      }
      // Housekeeping after the work: a sweep that fails is made up for by a later one.
      await sweepRecipientLimits(deps.db).catch(() => undefined);
    },
  });
}
