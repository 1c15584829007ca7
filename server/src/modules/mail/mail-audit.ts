import type { DbOrTrx } from '../../db/handle.js';
import { recordAudits } from '../documents/audit.repo.js';
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
 * Records outbox rows' final outcome in their documents' trails, inside the transaction that
 * stores that outcome: `e-mailed` once the transport accepted them, `e-mail failed` once
 * refused for good. A row that is not to a signee (account e-mails, the sender's notices)
 * records nothing.
 */
export async function auditEmailOutcomes(
  trx: DbOrTrx,
  emails: Array<
    Pick<EmailRow, 'tenant_id' | 'document_id' | 'signee_id' | 'kind' | 'to_address' | 'sent_at'>
  >,
  /** `at` defaults to each row's `sent_at`. */
  outcome: { error: string | null; at?: string },
) {
  await recordAudits(
    trx,
    emails.flatMap((email) =>
      email.document_id && email.tenant_id
        ? [
            {
              documentId: email.document_id,
              tenantId: email.tenant_id,
              action: outcome.error === null ? ('e-mailed' as const) : ('e-mail failed' as const),
              actor: 'system',
              signeeId: email.signee_id,
              details: {
                to: email.to_address,
                kind: email.kind,
                ...(outcome.error === null ? {} : { error: outcome.error }),
              },
              at: outcome.at ?? email.sent_at ?? undefined,
            },
          ]
        : [],
    ),
  );
}
