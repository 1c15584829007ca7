import { emailOf } from './audit-csv.js';
import type { AuditEntry } from './types.js';
import { Time } from './ui.js';

// How the dashboard names each kind of e-mail to a signee (docs/documents.md).
const KIND_NAMES: Record<string, string> = {
  invitation: 'Invitation',
  reminder: 'Reminder',
  declined: 'Decline notice',
  cancelled: 'Cancellation notice',
  copy: 'Signed copy',
};

/** What an e-mail entry says in the timeline: ": invitation to ann@example.com". */
export function emailSummary(entry: AuditEntry): string {
  const email = emailOf(entry);
  if (!email) return '';
  const kind = KIND_NAMES[email.kind]?.toLowerCase() ?? email.kind;
  return `: ${kind ? `${kind} ` : ''}to ${email.to}`;
}

/**
 * The e-mails the audit trail records for one signee, oldest first: each one's kind, its
 * recipient, whether the mail server took it or refused it for good, and when.
 */
export function SigneeEmails(props: { entries: AuditEntry[] | null; signeeId: string }) {
  const mails = (props.entries ?? []).filter((e) => e.signeeId === props.signeeId && emailOf(e));
  if (mails.length === 0) return null;
  return (
    <ul className="signee-emails" aria-label="E-mails">
      {mails.map((e) => {
        const email = emailOf(e)!;
        const failed = e.action === 'e-mail failed';
        return (
          <li key={e.id}>
            {KIND_NAMES[email.kind] ?? 'E-mail'} {failed ? 'refused for' : 'e-mailed to'} {email.to}{' '}
            <Time value={e.createdAt} />
            {failed && typeof e.details?.error === 'string' && (
              <span className="error-text"> ({e.details.error})</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
