import type { DbOrTrx } from '../../db/handle.js';
import { recordAudit } from '../documents/audit.repo.js';
import type { EmailRow } from './mail.repo.js';

/**
 * The kinds of e-mail a signee gets, as their audit entries name them (docs/documents.md):
 * `invitation` (the signing link, any wave), `reminder` (manual or automatic), `declined` and
 * `cancelled` (the notices that a link stopped working), `copy` (the signed copy on completion),
 * `verification` (the code a link that asks for one e-mails on request, decisions §13).
 */
export const SIGNEE_EMAIL_KINDS = [
  'invitation',
  'reminder',
  'declined',
  'cancelled',
  'copy',
  'verification',
] as const;

/** A kind of e-mail to a signee. */
export type SigneeEmailKind = (typeof SIGNEE_EMAIL_KINDS)[number];

/** What an e-mail to a signee records in its document's trail (queueEmail's `audit`). */
export type EmailAudit = { documentId: string; signeeId: string; kind: SigneeEmailKind };

/**
 * Records an outbox row's final outcome in its document's trail, inside the transaction that
 * stores that outcome: `e-mailed` once the transport accepted it, `e-mail failed` once it was
 * refused for good. A row that is not to a signee (account e-mails, the sender's notices)
 * records nothing.
 */
export async function auditEmailOutcome(
  trx: DbOrTrx,
  email: Pick<EmailRow, 'tenant_id' | 'document_id' | 'signee_id' | 'kind' | 'to_address'>,
  outcome: { error: string | null; at: string },
) {
  if (!email.document_id || !email.tenant_id) return;
  await recordAudit(trx, {
    documentId: email.document_id,
    tenantId: email.tenant_id,
    action: outcome.error === null ? 'e-mailed' : 'e-mail failed',
    actor: 'system',
    signeeId: email.signee_id,
    details: {
      to: email.to_address,
      kind: email.kind,
      ...(outcome.error === null ? {} : { error: outcome.error }),
    },
    at: outcome.at,
  });
}
