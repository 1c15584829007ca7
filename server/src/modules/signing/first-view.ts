import type { Db } from '../../db/handle.js';
import { hashSecret, nowIso } from '../../lib/ids.js';
import { recordAudit, type RequestOrigin } from '../documents/audit.repo.js';
import { findDocument, findSigneeByTokenHash } from '../documents/documents.repo.js';
import { isOpenForSigning } from '../documents/lifecycle.js';
import { recordOptInEvent } from '../events/opt-in-events.js';

/**
 * The first opening of a signee's link (the page or its JSON, whichever comes first): sets
 * `opened_at`, writes the audit entry `opened` and `signee.viewed` (for opted-in tenants) in
 * one transaction. The conditional update is the claim, so two openings at once, in one
 * process or two, record it once. Returns the time recorded, or null when it was not the first.
 */
export async function recordFirstView(
  db: Db,
  view: { documentId: string; tenantId: string; signeeId: string; origin: RequestOrigin },
): Promise<string | null> {
  const at = nowIso();
  const first = await db.kysely.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('signees')
      .set({ opened_at: at })
      .where('id', '=', view.signeeId)
      .where('opened_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;
    await recordAudit(trx, {
      documentId: view.documentId,
      tenantId: view.tenantId,
      action: 'opened',
      actor: `signee:${view.signeeId}`,
      signeeId: view.signeeId,
      origin: view.origin,
      at,
    });
    await recordOptInEvent(trx, {
      tenantId: view.tenantId,
      type: 'signee.viewed',
      data: { documentId: view.documentId, signeeId: view.signeeId, viewedAt: at },
      at,
    });
    return true;
  });
  return first ? at : null;
}

/**
 * The signing page's own opening: a link that works and was never opened records its first
 * view here (the page's JSON request then finds it done). Anything else is left to the JSON
 * route, which answers it; the page itself is the same for every link. A link that asks for
 * verification records it at its JSON, once verified.
 */
export async function recordPageView(
  deps: { db: Db; wakeJobs: () => void },
  token: string,
  origin: RequestOrigin,
): Promise<void> {
  const signee = await findSigneeByTokenHash(deps.db.kysely, hashSecret(token));
  // A link that asks for verification is opened when its document is first shown, after it.
  if (!signee || signee.opened_at !== null || signee.auth !== 'none') return;
  const document = await findDocument(deps.db.kysely, signee.document_id);
  if (!document || !isOpenForSigning(document.status)) return;
  const first = await recordFirstView(deps.db, {
    documentId: document.id,
    tenantId: document.tenant_id,
    signeeId: signee.id,
    origin,
  });
  if (first) deps.wakeJobs();
}
