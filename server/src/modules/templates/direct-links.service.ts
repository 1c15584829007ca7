import type { Config } from '../../config.js';
import type { Db, DbOrTrx } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/ids.js';
import { findUserById } from '../accounts/accounts.repo.js';
import type { RequestOrigin } from '../documents/audit.repo.js';
import { sendDraft } from '../documents/sending.service.js';
import { recipientLimited, takeRecipientSlot } from '../mail/recipient-limits.js';
import { createFromTemplateInTrx } from './from-template.service.js';
import * as repo from './templates.repo.js';

/** What direct links need: the database, and what sending a document needs of the config. */
export type DirectLinkDeps = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'secretKey' | 'mailDailyLimitPerTenant'>;
};

/**
 * Uses of one direct link, counted in the database so that every process sees them: a link
 * posted somewhere public cannot drain its tenant's credits faster than this, nor make the
 * service e-mail signed copies to more addresses.
 */
export const DIRECT_LINK_USES_PER_HOUR = 100;
/** Uses of one direct link a day (a sliding 24 hours). */
export const DIRECT_LINK_USES_PER_DAY = 1000;

/** Who the trail names for what a direct link's visitor set off (the certificate shows it). */
const ACTOR = 'direct_link';
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
// Said to a visitor whatever the tenant lacks: the balance of a stranger's tenant is no business
// of theirs.
const CANNOT_USE = 'This link cannot be used right now.';

// The template a token names, 404 when none does (an unknown token, a deleted template) and 410
// while its link is disabled, with the template's language for the page to speak.
async function templateOfToken(
  db: Db,
  trx: DbOrTrx,
  token: string,
  lock: boolean,
): Promise<repo.TemplateRow> {
  // Every link token is dl_…: anything else is not looked up.
  const tokenHash = token.startsWith('dl_') ? hashSecret(token) : null;
  const found = tokenHash ? await repo.findTemplateByLinkHash(trx, tokenHash) : undefined;
  // Held until the commit (PostgreSQL; SQLite writes one transaction at a time anyway): the uses
  // of one link are counted one after another, and a disable or delete that came first is seen.
  const template =
    found && lock && db.engine === 'postgres'
      ? await repo.findTemplate(trx, found.id, { engine: db.engine, mode: 'update' })
      : found;
  if (!template || template.direct_link_token_hash !== tokenHash) {
    throw new AppError('not_found', 'No such link.');
  }
  if (template.direct_link_enabled !== 1) {
    throw new AppError('direct_link_disabled', 'This link has been disabled by its owner.', {
      extensions: { language: template.email_language },
    });
  }
  return template;
}

/** GET /api/direct-links/{token}: what the visitor's page shows before they give their name. */
export async function viewDirectLink(deps: DirectLinkDeps, token: string) {
  const template = await templateOfToken(deps.db, deps.db.kysely, token, false);
  const creator = await findUserById(deps.db.kysely, template.user_id);
  return {
    template: {
      name: template.name,
      signingMessage: template.signing_message,
      language: template.email_language,
      senderName: creator?.name ?? 'Signet',
    },
  };
}

// The seconds until the link may be used again, 0 when it may now: the uses of the last hour and
// of the last day, each window's oldest use that counts against it read from the index
// (documents_template_idx: template_id, created_at).
async function linkUseWaitSeconds(trx: DbOrTrx, templateId: string, now: number) {
  let waitMs = 0;
  for (const [limit, windowMs] of [
    [DIRECT_LINK_USES_PER_HOUR, HOUR_MS],
    [DIRECT_LINK_USES_PER_DAY, DAY_MS],
  ] as const) {
    const oldestCounted = await trx
      .selectFrom('documents')
      .select('created_at')
      .where('template_id', '=', templateId)
      .where('source', '=', 'direct_link')
      .where('created_at', '>', new Date(now - windowMs).toISOString())
      .orderBy('created_at', 'desc')
      .limit(1)
      .offset(limit - 1)
      .executeTakeFirst();
    if (oldestCounted) {
      // Capped at the window: another process's clock may be a little ahead of ours.
      const wait = Math.min(windowMs, Date.parse(oldestCounted.created_at) + windowMs - now);
      waitMs = Math.max(waitMs, wait);
    }
  }
  return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
}

/**
 * POST /api/direct-links/{token}/documents: one use of a direct link. In one transaction the
 * visitor becomes the signee of the template's one role on a new document (`source:
 * direct_link`, its sender the template's creator), which is sent at once for one credit with
 * a link and no invitation e-mail. Refused before anything is written: a disabled link (410),
 * the link's or the address's uses spent (429), credits short (402, saying nothing of the
 * tenant's balance).
 */
export async function useDirectLink(
  deps: DirectLinkDeps,
  input: { token: string; name: string; email: string; origin: RequestOrigin },
) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const template = await templateOfToken(deps.db, trx, input.token, true);
    const linkWait = await linkUseWaitSeconds(trx, template.id, Date.now());
    if (linkWait > 0) {
      throw new AppError(
        'rate_limited',
        'This link has been used too often lately; try again later.',
        {
          headers: { 'retry-after': String(linkWait) },
        },
      );
    }
    // The signed copy goes to whatever address is typed here: one address gets only so many.
    const slot = await takeRecipientSlot(trx, { kind: 'direct_link', address: input.email });
    if (!slot.ok) {
      throw recipientLimited(
        'This e-mail address has been used with direct links too often lately; try again later.',
        slot.retryAfterSeconds,
      );
    }
    const creator = await findUserById(trx, template.user_id);
    const created = await createFromTemplateInTrx(trx, {
      template,
      userId: template.user_id,
      signees: [{ roleIndex: 0, email: input.email, name: input.name, language: null }],
      values: new Map(),
      source: 'direct_link',
      // Whoever opened the link typed this address; nothing proved it theirs.
      details: { emailSelfDeclared: true },
      actor: ACTOR,
      origin: input.origin,
    });
    const sending = await sendDraft(trx, deps, {
      document: created.document,
      signees: created.signees,
      senderName: creator?.name ?? 'Signet',
      actor: ACTOR,
      origin: input.origin,
      deliverInRequest: false,
      delivery: 'link',
    }).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'insufficient_credits') {
        throw new AppError('insufficient_credits', CANNOT_USE);
      }
      throw err;
    });
    return { documentId: created.document.id, signingUrl: sending.invites[0].signingUrl };
  });
}
