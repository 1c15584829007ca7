import { createHmac } from 'node:crypto';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import type { DbOrTrx } from '../../db/handle.js';
import { hashSecret, isoIn, nowIso } from '../../lib/ids.js';
import {
  countEmailsAndChangeCredits,
  countTenantEmails,
  deliverEmails,
  queueEmails,
  type MailTransport,
  type QueuedEmail,
} from '../mail/mail.service.js';
import { recipientLimited, takeRecipientSlot } from '../mail/recipient-limits.js';
import { renderInvitation, type EmailLanguage } from '../mail/templates/invitation.js';
import { findTenant, type TenantRow } from '../tenants/tenants.repo.js';
import { brandOf } from '../tenants/branding.js';
import { deadlineAtSend, scheduleExpiry } from './expiry.js';
import { assertMemberCan, requireMembership } from '../tenants/tenants.service.js';
import { recordSigneeReminded } from '../events/opt-in-events.js';
import { MIN_REMINDER_COOLDOWN_MINUTES } from '../tenants/tenants.schemas.js';
import { countAuditEntriesBySignee, recordAudit, type RequestOrigin } from './audit.repo.js';
import * as repo from './documents.repo.js';
import { getDocument, type DocumentDeps } from './documents.service.js';
import { isOpenForSigning, moveDocument } from './lifecycle.js';
import { requireSendableFields } from '../fields/fields.service.js';
import { decodeFields, type FieldRow } from '../fields/fields.repo.js';
import { currentWave } from './signing-turns.js';
import { creditsFor, requireSomeoneActs, takesTurn } from './signee-roles.js';
import {
  decodeReminders,
  MAX_REMINDERS_PER_SIGNEE,
  remindersAtSend,
  scheduleReminder,
} from './reminder-policy.js';

/** What sending needs beyond document access. */
export type SendingDeps = DocumentDeps & {
  config: Pick<Config, 'mailRetryBaseMs' | 'mailDailyLimitPerTenant'>;
  transport: MailTransport;
  mailFrom: string;
  wakeJobs: () => void;
};

/** One signee's invitation result, as send-for-signing and remind report it. */
export type InvitationDelivery = {
  signeeId: string;
  email: string;
  status: 'sent' | 'scheduled' | 'failed' | 'link';
  error: string | null;
  signingUrl?: string;
};

type Invite = { signee: repo.SigneeRow; emailId: string | null; signingUrl: string };

// A fallback only: the request delivers invitations itself; the job acts if it could not.
const FALLBACK_DELAY_MS = 60_000;

/**
 * The signing link token of a signee: an HMAC of its id under the service secret, so reminders
 * can repeat the same link while only its hash is stored.
 */
export function signingTokenFor(secretKey: string, signeeId: string): string {
  return `sg_${createHmac('sha256', secretKey).update(`signing:${signeeId}`).digest('base64url')}`;
}

/**
 * Issues links to the given signees and, when the tenant e-mails invitations, queues the
 * e-mails, inside the caller's transaction. Deliver the result with deliverInvitations after
 * commit.
 */
export async function inviteSignees(
  trx: DbOrTrx,
  deps: { config: Pick<Config, 'publicUrl' | 'secretKey' | 'mailDailyLimitPerTenant'> },
  input: {
    document: repo.DocumentRow;
    signees: repo.SigneeRow[];
    senderName: string;
    reminder?: boolean;
    origin?: RequestOrigin;
    /** True when the caller delivers the e-mails itself right after commit (and reports them). */
    deliverInRequest?: boolean;
    /** `link`: links only, whatever the tenant's setting. */
    delivery?: 'tenant' | 'link';
    /** The document's tenant, when the caller has read it already. */
    tenant?: TenantRow;
    /** `caller`: the caller counts the e-mails against the quota itself (sendDraft). */
    quota?: 'caller';
  },
): Promise<Invite[]> {
  const tenant =
    input.delivery === 'link'
      ? null
      : (input.tenant ?? (await findTenant(trx, input.document.tenant_id)));
  const viaEmail = tenant?.invitation_emails === 1;
  const brand = tenant && viaEmail ? brandOf(tenant, deps.config.publicUrl) : null;
  const now = nowIso();
  const invites: Invite[] = [];
  const links: repo.SigningLink[] = [];
  const emails: QueuedEmail[] = [];
  const reminders = decodeReminders(input.document.reminders);
  for (const signee of input.signees) {
    // A first invitation starts the signee's automatic reminders (reminder-policy.ts).
    if (!input.reminder && signee.invited_at === null) {
      await scheduleReminder(trx, {
        documentId: input.document.id,
        signeeId: signee.id,
        policy: reminders,
        invitedAt: now,
        n: 1,
      });
    }
    const token = signingTokenFor(deps.config.secretKey, signee.id);
    const signingUrl = `${deps.config.publicUrl}/sign/${token}`;
    links.push({
      id: signee.id,
      token_hash: hashSecret(token),
      invited_at: signee.invited_at ?? now,
    });
    invites.push({ signee, emailId: null, signingUrl });
    if (viaEmail) {
      emails.push({
        to: signee.email,
        tenantId: input.document.tenant_id,
        jobDelayMs: input.deliverInRequest ? FALLBACK_DELAY_MS : 0,
        // Audited by the outbox with its outcome (e-mailed or e-mail failed), whoever delivers it.
        audit: {
          documentId: input.document.id,
          signeeId: signee.id,
          kind: input.reminder ? 'reminder' : 'invitation',
        },
        ...renderInvitation({
          language: (signee.language ?? input.document.email_language) as EmailLanguage,
          signeeName: signee.name,
          senderName: input.senderName,
          documentName: input.document.name,
          signingUrl,
          signingMessage: input.document.signing_message,
          reminder: input.reminder,
          approval: signee.role === 'approver',
          expiresAt: input.document.expires_at,
          brand,
        }),
      });
    } else {
      await recordAudit(trx, {
        documentId: input.document.id,
        tenantId: input.document.tenant_id,
        action: 'link issued',
        actor: 'system',
        signeeId: signee.id,
        origin: input.origin,
        at: now,
      });
    }
  }
  // The links and the e-mails of the whole wave, each in one statement.
  await repo.setSigningLinks(trx, links, now);
  const emailIds = await queueEmails(trx, emails);
  if (viaEmail) invites.forEach((invite, i) => (invite.emailId = emailIds[i]));
  // Counted last and at once: the tenant's count for the day is held until the caller commits.
  if (input.quota !== 'caller') {
    await countTenantEmails(trx, quotaOf(input.document, deps), emailed(invites));
  }
  return invites;
}

const quotaOf = (
  document: repo.DocumentRow,
  deps: { config: Pick<Config, 'mailDailyLimitPerTenant'> },
) => ({ id: document.tenant_id, dailyLimit: deps.config.mailDailyLimitPerTenant });

const emailed = (invites: Invite[]) => invites.filter((i) => i.emailId !== null).length;

/**
 * Hands queued invitations to the mail transport now and reports each result; the outbox
 * audits each one as it settles (a transient failure is retried by the job, and audited then).
 */
export async function deliverInvitations(
  deps: SendingDeps,
  document: repo.DocumentRow,
  invites: Invite[],
): Promise<InvitationDelivery[]> {
  const emailIds = invites.flatMap(({ emailId }) => (emailId ? [emailId] : []));
  // The send has committed: a failure here is reported per invitation, and each one's job
  // delivers it later.
  const results = emailIds.length
    ? await deliverEmails(
        {
          db: deps.db,
          transport: deps.transport,
          mailFrom: deps.mailFrom,
          retryBaseMs: deps.config.mailRetryBaseMs,
        },
        emailIds,
      ).catch((error: unknown) => emailIds.map(() => ({ error })))
    : [];
  const byEmail = new Map(emailIds.map((id, i) => [id, results[i]]));
  return invites.map(({ signee, emailId, signingUrl }): InvitationDelivery => {
    const base = { signeeId: signee.id, email: signee.email };
    if (!emailId) return { ...base, status: 'link', error: null, signingUrl };
    const result = byEmail.get(emailId)!;
    const error =
      'error' in result
        ? result.error instanceof Error
          ? result.error.message
          : String(result.error)
        : // Refused for good by a delivery that settled it first.
          result.row.status === 'refused'
          ? (result.row.error ?? 'refused')
          : null;
    return { ...base, status: error ? 'failed' : 'sent', error };
  });
}

/** draft → in_process: consumes one credit per signee and invites the first wave, atomically. */
export async function sendForSigning(
  deps: SendingDeps,
  input: { documentId: string; userId: string; senderName: string; origin: RequestOrigin },
) {
  const { invites, waiting, sent } = await deps.db.kysely.transaction().execute(async (trx) => {
    // What is sent is the document as it stands once locked: a draft edited meanwhile is sent
    // with its edits. The caller's role comes in the same read (a round trip each to
    // PostgreSQL): a non-member learns nothing of the document (404), a member who may not
    // send gets 403.
    const found = await repo.findDocumentForMember(trx, { ...input, lock: true });
    assertMemberCan(found?.role, { action: 'document.send', notFound: 'No such document.' });
    const current = found!.document;
    return sendDraft(trx, deps, {
      document: current,
      fields: decodeFields(found!.fields),
      signees: await repo.listSignees(trx, current.id),
      senderName: input.senderName,
      actor: `user:${input.userId}`,
      origin: input.origin,
      deliverInRequest: true,
    });
  });
  deps.wakeJobs();
  const deliveries = await reportDeliveries(deps, sent, invites, waiting);
  const result = await getDocument(deps, input);
  return { ...result, deliveries: deliveriesInOrder(result.signees, deliveries) };
}

/**
 * Each signee's delivery in the signees' order. A cc recipient has none: they get no link and
 * no invitation, only the e-mails that follow the document's end (decisions §12).
 */
export function deliveriesInOrder(
  signees: repo.SigneeRow[],
  deliveries: Map<string, InvitationDelivery>,
): InvitationDelivery[] {
  return signees.filter(takesTurn).map((s) => deliveries.get(s.id)!);
}

/**
 * Send-for-signing inside the caller's transaction, for a document it holds: checks that someone
 * signs or approves and its fields, moves it to `in_process`, invites the first wave and takes
 * one credit per signer (unless the caller reserved them; approvers and cc recipients cost
 * none), refusing with the same errors in the same order. Nothing is written when it throws,
 * as long as the caller lets the error end its transaction.
 */
export async function sendDraft(
  trx: DbOrTrx,
  deps: { config: Pick<Config, 'publicUrl' | 'secretKey' | 'mailDailyLimitPerTenant'> },
  input: {
    document: repo.DocumentRow;
    signees: repo.SigneeRow[];
    /** Its fields, when the caller has read them with the document (else read here). */
    fields?: FieldRow[];
    senderName: string;
    actor: string;
    origin?: RequestOrigin;
    /** True when the caller delivers the e-mails right after commit (and reports them). */
    deliverInRequest: boolean;
    /** `reserved`: the caller took the credits already (a bulk send, at intake). */
    credits?: 'charge' | 'reserved';
    /** `link`: no invitation e-mail whatever the tenant's setting (a direct link's visitor). */
    delivery?: 'tenant' | 'link';
  },
) {
  const { document: current, signees } = input;
  const credits = creditsFor(signees);
  if (current.status === 'draft') {
    requireSomeoneActs(signees);
    await requireSendableFields(trx, current.id, signees, input.fields);
  }
  const now = nowIso();
  const tenant = await findTenant(trx, current.tenant_id);
  const expiresAt = deadlineAtSend(current, tenant, now);
  const reminders = remindersAtSend(current, tenant);
  const moved = await moveDocument(trx, {
    document: current,
    move: 'send',
    at: now,
    set: { hash: current.original_sha256, expires_at: expiresAt, reminders },
    by: {
      actor: input.actor,
      origin: input.origin,
      details: { signees: signees.length, creditsUsed: credits },
    },
  });
  if (!moved) {
    throw new AppError(
      'invalid_status',
      `Only a draft can be sent for signing; this document is ${current.status}.`,
    );
  }
  const sent = { ...current, status: 'in_process' as const, expires_at: expiresAt, reminders };
  if (expiresAt) await scheduleExpiry(trx, current.id, expiresAt);
  const wave = currentWave(sent, signees);
  const invites = await inviteSignees(trx, deps, {
    document: sent,
    signees: wave,
    senderName: input.senderName,
    origin: input.origin,
    deliverInRequest: input.deliverInRequest,
    delivery: input.delivery,
    tenant,
    quota: 'caller',
  });
  // The day's e-mail count and the tenant's balance last, in one statement on PostgreSQL: their
  // rows are held from here until the commit, so sends of one tenant wait on each other only
  // for that long (SQLite writes one at a time). A document of approvers alone costs nothing,
  // and writes no ledger entry of 0.
  const quota = quotaOf(current, deps);
  if (input.credits !== 'reserved' && credits > 0) {
    const balance = await countEmailsAndChangeCredits(trx, quota, emailed(invites), {
      tenantId: current.tenant_id,
      delta: -credits,
      reason: 'send-for-signing',
      reference: current.id,
    });
    if (balance === null) {
      throw new AppError(
        'insufficient_credits',
        `Sending needs ${credits} credit(s), one per signer; the tenant has fewer.`,
      );
    }
  } else {
    await countTenantEmails(trx, quota, emailed(invites));
  }
  const invited = new Set(wave.map((s) => s.id));
  // cc recipients wait for nothing: they are in no wave and are never invited.
  const waiting = signees.filter((s) => takesTurn(s) && !invited.has(s.id));
  return { invites, waiting, sent };
}

/**
 * Delivers what sendDraft queued, once its transaction committed, and reports every signee:
 * invited now (`sent`, `failed`, `link`) or later, at their turn (`scheduled`).
 */
export async function reportDeliveries(
  deps: SendingDeps,
  document: repo.DocumentRow,
  invites: Invite[],
  waiting: repo.SigneeRow[],
): Promise<Map<string, InvitationDelivery>> {
  const delivered = await deliverInvitations(deps, document, invites);
  const scheduled: InvitationDelivery[] = waiting.map((s) => ({
    signeeId: s.id,
    email: s.email,
    status: 'scheduled',
    error: null,
  }));
  return new Map([...delivered, ...scheduled].map((d) => [d.signeeId, d]));
}

/**
 * The signees whose address may get one more reminder from the whole service (see
 * RECIPIENT_RULES.reminder), each counted; the others are left out, as a signee reminded the
 * most times is. When none may, 429 `rate_limited` with the shortest wait, and the caller's
 * transaction (the cooldown it claimed) rolls back. Addresses are taken in sorted order, so two
 * reminders sharing signees lock their rows in one order.
 */
async function withinRecipientBudget(trx: DbOrTrx, signees: repo.SigneeRow[]) {
  const allowed = new Set<string>();
  let retryAfterSeconds = Infinity;
  const byAddress = [...signees].sort((a, b) =>
    a.email.toLowerCase() < b.email.toLowerCase() ? -1 : 1,
  );
  for (const signee of byAddress) {
    const slot = await takeRecipientSlot(trx, { kind: 'reminder', address: signee.email });
    if (slot.ok) allowed.add(signee.id);
    else retryAfterSeconds = Math.min(retryAfterSeconds, slot.retryAfterSeconds);
  }
  if (allowed.size === 0) {
    throw recipientLimited(
      'The addresses of the signees whose turn it is have been sent too many reminders lately; try again later.',
      retryAfterSeconds,
    );
  }
  return signees.filter((s) => allowed.has(s.id));
}

/** Re-invites pending signees whose turn it is, at most once per the tenant's cooldown. */
export async function remindSignees(
  deps: SendingDeps,
  input: { documentId: string; userId: string; senderName: string; origin: RequestOrigin },
) {
  const { document } = await getDocument(deps, input);
  const now = nowIso();
  const invites = await deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, {
      tenantId: document.tenant_id,
      userId: input.userId,
      action: 'document.send',
    });
    const current = await repo.findDocument(trx, document.id);
    if (!current || !isOpenForSigning(current.status)) {
      throw new AppError('invalid_status', 'Only a document in process can be reminded.');
    }
    const tenant = await findTenant(trx, document.tenant_id);
    // Settings saved before the minimum existed may hold less: the minimum wins.
    const minutes = Math.max(
      MIN_REMINDER_COOLDOWN_MINUTES,
      tenant?.reminder_cooldown_minutes ?? MIN_REMINDER_COOLDOWN_MINUTES,
    );
    const until = isoIn(minutes * 60_000);
    const claimed = await repo.claimReminderCooldown(trx, {
      documentId: document.id,
      now,
      until,
    });
    if (!claimed) {
      const retryAfter = Math.max(
        1,
        Math.ceil((Date.parse(current.reminder_cooldown_until ?? now) - Date.now()) / 1000),
      );
      throw new AppError(
        'reminder_cooldown',
        `Reminders are on cooldown until ${current.reminder_cooldown_until}.`,
        { headers: { 'retry-after': String(retryAfter) } },
      );
    }
    const turn = currentWave(current, await repo.listSignees(trx, document.id));
    const sent = await countAuditEntriesBySignee(trx, {
      documentId: document.id,
      action: 'reminded',
      signeeIds: turn.map((s) => s.id),
    });
    const due = turn.filter((s) => (sent.get(s.id) ?? 0) < MAX_REMINDERS_PER_SIGNEE);
    if (due.length === 0) {
      throw new AppError(
        'reminder_limit_reached',
        `Each signee can be reminded ${MAX_REMINDERS_PER_SIGNEE} times; the signees whose turn it is have been.`,
      );
    }
    // Only e-mailed reminders count: a tenant that hands out links itself e-mails nobody.
    const wave = tenant?.invitation_emails === 1 ? await withinRecipientBudget(trx, due) : due;
    for (const signee of wave) {
      await recordAudit(trx, {
        documentId: document.id,
        tenantId: document.tenant_id,
        action: 'reminded',
        actor: `user:${input.userId}`,
        signeeId: signee.id,
        origin: input.origin,
        at: now,
      });
      await recordSigneeReminded(trx, {
        tenantId: document.tenant_id,
        documentId: document.id,
        signeeId: signee.id,
        at: now,
      });
    }
    return inviteSignees(trx, deps, {
      document: current,
      signees: wave,
      senderName: input.senderName,
      reminder: true,
      origin: input.origin,
      deliverInRequest: true,
    });
  });
  deps.wakeJobs();
  const deliveries = await deliverInvitations(deps, document, invites);
  return { ...(await getDocument(deps, input)), deliveries };
}
