import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/handle.js';

// The e-mails that ask a signee to act: the invitation and its reminders.
const ASKING_KINDS = [sql.lit('invitation'), sql.lit('reminder')];

/**
 * The ids of a tenant's documents with a failed e-mail (docs/api.md, "Home counts"): a signee
 * still pending whose invitation or reminder was refused for good (a bounce, or the last retry
 * failing) and not followed by one that went out. A subquery for `documents.id in (…)`; the
 * document's own status is the caller's condition. `refused` is written as a literal so both
 * engines match the partial index of refused e-mails (migration 0034).
 */
export function documentsWithFailedEmail(db: DbOrTrx, tenantId: string) {
  return db
    .selectFrom('emails as e')
    .innerJoin('signees as s', 's.id', 'e.signee_id')
    .select('e.document_id')
    .where('e.tenant_id', '=', tenantId)
    .where('e.status', '=', sql.lit('refused'))
    .where('e.kind', 'in', ASKING_KINDS)
    .where('s.status', '=', 'pending')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('emails as later')
            .select(sql.lit(1).as('one'))
            .whereRef('later.signee_id', '=', 'e.signee_id')
            .where('later.kind', 'in', ASKING_KINDS)
            .where('later.status', 'in', ['sent', 'stored'])
            .whereRef('later.created_at', '>', 'e.created_at'),
        ),
      ),
    );
}

/** The home counts of one tenant, in one statement of four indexed counts. */
export async function countSummary(
  db: DbOrTrx,
  input: { tenantId: string; completedSince: string },
) {
  const { tenantId } = input;
  const count = (status: 'draft' | 'in_process') =>
    db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('status', '=', status);
  const row = await db
    .selectNoFrom([
      count('in_process').as('in_process'),
      count('draft').as('draft'),
      // completed_at is set only when a document becomes signed, which it then stays.
      db
        .selectFrom('documents')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('completed_at', '>=', input.completedSince)
        .as('completed'),
      count('in_process')
        .where('id', 'in', documentsWithFailedEmail(db, tenantId))
        .as('email_failed'),
    ])
    .executeTakeFirstOrThrow();
  return {
    inProcess: Number(row.in_process),
    draft: Number(row.draft),
    completed: Number(row.completed),
    emailFailed: Number(row.email_failed),
  };
}
