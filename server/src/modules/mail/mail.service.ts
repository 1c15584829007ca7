import nodemailer from 'nodemailer';
import type { Readable } from 'node:stream';
import type { Storage } from '../storage/storage.js';
import { z } from 'zod';
import type { Db } from '../../db/handle.js';
import { deletePendingJob, enqueueJob, rescheduleJob } from '../../jobs/queue.js';
import { defineJob } from '../../jobs/runner.js';
import type { DbOrTrx } from '../../db/handle.js';
import { isoIn, newId, nowIso } from '../../lib/ids.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './mail.repo.js';
import { sweepRecipientLimits } from './recipient-limits.js';
import { isPermanentRefusal, refuseForGood } from './refusals.js';
import type { RefusalContext } from '../events/event-types.js';

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
  const today = await repo.countTenantMail(trx, tenant.id, nowIso().slice(0, 10), n);
  if (today > tenant.dailyLimit) {
    mailCounts.refused++;
    throw new AppError(
      'mail_quota_exceeded',
      `This tenant has queued its ${tenant.dailyLimit} e-mails for today (UTC); try again tomorrow.`,
    );
  }
}

/**
 * Writes an e-mail to the outbox and enqueues its delivery, inside the caller's transaction.
 * `jobDelayMs` holds the background job back while the request delivers the e-mail itself and
 * reports the result; the job then only acts if the process died before it could.
 */
export async function queueEmail(
  trx: DbOrTrx,
  email: RenderedEmail & {
    to: string;
    /** A tenant's e-mail counts against its daily quota; over it, nothing is queued (429). */
    tenant?: { id: string; dailyLimit: number };
    /** The tenant the e-mail is for, when it is not counted against the quota. */
    tenantId?: string;
    jobDelayMs?: number;
    attachment?: StoredAttachment;
    /** An e-mail about a document: what `email.failed` says if the server refuses it for good. */
    refusal?: RefusalContext;
  },
): Promise<string> {
  if (email.tenant) await countTenantEmails(trx, email.tenant, 1);
  const id = newId();
  await repo.insertEmail(trx, {
    id,
    tenant_id: email.tenant?.id ?? email.tenantId ?? null,
    to_address: email.to,
    subject: email.subject,
    html: email.html,
    text: email.text,
    status: 'queued',
    error: null,
    message_id: null,
    created_at: nowIso(),
    sent_at: null,
    attachment: email.attachment ? JSON.stringify(email.attachment) : null,
    refusal_event: email.refusal ? JSON.stringify(email.refusal) : null,
  });
  mailCounts.queued++;
  await enqueueJob(trx, {
    // The job shares the e-mail's id, so a failed delivery in the request can find it.
    id,
    kind: 'mail.send',
    payload: { emailId: id },
    maxAttempts: 8,
    runAt: email.jobDelayMs ? isoIn(email.jobDelayMs) : undefined,
  });
  return id;
}

/**
 * Delivers one outbox row once; a row already sent or stored is left alone. A failure made
 * outside the job (a request delivering in person) brings the job forward from its fallback
 * delay to `retryBaseMs`, so the outbox retries on the normal schedule.
 */
export async function deliverEmail(
  deps: {
    db: Db;
    transport: MailTransport;
    mailFrom: string;
    retryBaseMs?: number;
    /** Where attachments are read from (e-mails with one need it). */
    storage?: Storage;
  },
  emailId: string,
): Promise<repo.EmailRow> {
  const { db, transport } = deps;
  const email = await repo.findEmail(db.kysely, emailId);
  if (!email) throw new Error(`No outbox row ${emailId}.`);
  if (email.status === 'sent' || email.status === 'stored') return email;
  if (!transport) {
    return delivered(db, emailId, { status: 'stored', sent_at: nowIso(), error: null });
  }
  let content: Readable | null = null;
  try {
    const attachment = email.attachment ? (JSON.parse(email.attachment) as StoredAttachment) : null;
    if (attachment) {
      if (!deps.storage) throw new Error('No storage to read the attachment from.');
      // Streamed into the message as it is written: a large PDF is never held whole in memory.
      content = await deps.storage.get(attachment.key);
    }
    const { messageId } = await transport.send({
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
    return await delivered(db, emailId, {
      status: 'sent',
      sent_at: nowIso(),
      message_id: messageId,
      error: null,
      html: redactLinks(email.html),
      text: redactLinks(email.text),
    });
  } catch (err) {
    content?.destroy();
    const message = err instanceof Error ? err.message : String(err);
    if (isPermanentRefusal(err)) {
      // Refused for good (5xx): no retry, and email.failed for an opted-in tenant.
      await refuseForGood(db, email, message.slice(0, 1000));
      throw err;
    }
    await repo.updateEmail(db.kysely, emailId, { status: 'failed', error: message.slice(0, 1000) });
    // Only a pending job moves: when the job itself is running, the runner reschedules it.
    await rescheduleJob(db.kysely, emailId, isoIn(deps.retryBaseMs ?? 30_000));
    throw err;
  }
}

/**
 * Records an e-mail as delivered. Its job shares its id: when the request delivered it, the job
 * has nothing left to do and goes in the same commit.
 */
function delivered(db: Db, emailId: string, set: Partial<repo.EmailRow>) {
  return db.kysely.transaction().execute(async (trx) => {
    const row = await repo.updateEmail(trx, emailId, set);
    await deletePendingJob(trx, emailId);
    return row;
  });
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
    handle: async ({ emailId }) => {
      // A permanent refusal is recorded (refuseForGood) and ends the job: retrying cannot help.
      await deliverEmail(deps, emailId).catch((err: unknown) => {
        if (!isPermanentRefusal(err)) throw err;
      });
      // Housekeeping after the work: a sweep that fails is made up for by a later one.
      await sweepRecipientLimits(deps.db).catch(() => undefined);
    },
  });
}
