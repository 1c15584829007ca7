import type { Insertable } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { AuditEntriesTable } from '../../db/schema.js';
import type { DbOrTrx } from '../../db/handle.js';
import { newId, nowIso } from '../../lib/ids.js';
import { deferWrite } from '../../db/deferred-writes.js';

/** Steps of a document's life that the audit trail records. */
export type AuditAction =
  | 'created'
  | 'fields changed'
  | 'updated'
  | 'signee added'
  | 'signee changed'
  | 'signee removed'
  | 'sent'
  | 'e-mailed'
  | 'e-mail failed'
  | 'link issued'
  | 'reminded'
  | 'opened'
  | 'signed'
  | 'approved'
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'sealed'
  | 'seal failed'
  | 'seal retried'
  | 'copy downloaded'
  | 'copy links revoked'
  // Signer verification (signing/signee-auth.ts): details name the method, never a code.
  | 'auth succeeded'
  | 'auth failed'
  | 'auth locked';

/** Where a request came from, for the audit trail. */
export type RequestOrigin = { ip: string | null; userAgent: string | null };

/** One audit entry: what happened to a document, by whom, from where. */
export type AuditEntry = {
  documentId: string;
  tenantId: string;
  action: AuditAction;
  actor: string;
  signeeId?: string | null;
  origin?: RequestOrigin;
  details?: Record<string, unknown>;
  at?: string;
};

/** Appends one audit entry, inside the transaction of the step it records. */
export async function recordAudit(trx: DbOrTrx, entry: AuditEntry) {
  await insertAuditEntry(trx, { entry: auditRow(entry) });
}

/** recordAudit for several entries, in one statement. */
export async function recordAudits(trx: DbOrTrx, entries: AuditEntry[]) {
  if (entries.length === 1) return recordAudit(trx, entries[0]);
  if (entries.length > 1)
    await deferWrite(trx, trx.insertInto('audit_entries').values(entries.map(auditRow)));
}

/** An audit entry's row, ready to insert. */
export type AuditRow = Insertable<AuditEntriesTable>;

/** The row of an audit entry (recordAudit inserts it; a new document's goes in with it). */
export function auditRow(entry: AuditEntry): AuditRow {
  return {
    id: newId(),
    document_id: entry.documentId,
    tenant_id: entry.tenantId,
    action: entry.action,
    actor: entry.actor,
    signee_id: entry.signeeId ?? null,
    ip: entry.origin?.ip ?? null,
    user_agent: entry.origin?.userAgent?.slice(0, 500) ?? null,
    details: entry.details ? JSON.stringify(entry.details) : null,
    created_at: entry.at ?? nowIso(),
  };
}

const insertAuditEntry = preparedQuery(
  (q, p: { entry: Insertable<AuditEntriesTable> }) => q.insertInto('audit_entries').values(p.entry),
  { deferred: true },
);

/** True when the document's trail has an entry of this action for this signee. */
export async function hasAuditEntry(
  db: DbOrTrx,
  input: { documentId: string; signeeId: string; action: AuditAction },
): Promise<boolean> {
  const row = await db
    .selectFrom('audit_entries')
    .select('id')
    .where('document_id', '=', input.documentId)
    .where('signee_id', '=', input.signeeId)
    .where('action', '=', input.action)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many entries of an action each of the given signees has on the document's trail. */
export async function countAuditEntriesBySignee(
  db: DbOrTrx,
  input: { documentId: string; action: AuditAction; signeeIds: string[] },
): Promise<Map<string, number>> {
  if (input.signeeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('audit_entries')
    .select(['signee_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('document_id', '=', input.documentId)
    .where('action', '=', input.action)
    .where('signee_id', 'in', input.signeeIds)
    .groupBy('signee_id')
    .execute();
  return new Map(rows.map((r) => [r.signee_id!, Number(r.n)]));
}

/** A document's audit trail, oldest first, in API form. */
export async function listAudit(db: DbOrTrx, documentId: string) {
  const rows = await db
    .selectFrom('audit_entries')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    actor: r.actor,
    signeeId: r.signee_id,
    ip: r.ip,
    userAgent: r.user_agent,
    details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
    createdAt: r.created_at,
  }));
}
