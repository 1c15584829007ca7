import type { Db } from '../../db/handle.js';
import { deletePendingJob } from '../../jobs/queue.js';
import { nowIso } from '../../lib/ids.js';
import type { RefusalContext } from '../events/event-types.js';
import { recordOptInEvent } from '../events/opt-in-events.js';
import type { EmailRow } from './mail.repo.js';

/**
 * True for the SMTP server's permanent refusal (a 5xx reply, as nodemailer reports it in
 * `responseCode`): retrying cannot help. Timeouts, refused connections and 4xx replies are
 * temporary and retried.
 */
export function isPermanentRefusal(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code <= 599;
}

/**
 * An e-mail refused for good: the row is `failed` with the server's answer, its pending
 * delivery job goes (no retry), and `email.failed` is recorded for an opted-in tenant, all in
 * one transaction. The row's refusal context is taken as the event is raised, so a second
 * refusal of the same row (the request and its fallback job racing) raises none.
 */
export async function refuseForGood(db: Db, email: EmailRow, error: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('emails')
      .set({ status: 'failed', error })
      .where('id', '=', email.id)
      .execute();
    await deletePendingJob(trx, email.id);
    if (!email.refusal_event || !email.tenant_id) return;
    const taken = await trx
      .updateTable('emails')
      .set({ refusal_event: null })
      .where('id', '=', email.id)
      .where('refusal_event', 'is not', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) return;
    const context = JSON.parse(email.refusal_event) as RefusalContext;
    const at = nowIso();
    await recordOptInEvent(trx, {
      tenantId: email.tenant_id,
      type: 'email.failed',
      data: {
        documentId: context.documentId,
        signeeId: context.signeeId,
        email: email.to_address,
        kind: context.kind,
        error,
        failedAt: at,
      },
      at,
    });
  });
}
