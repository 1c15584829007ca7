import { emailOf } from './audit-csv.js';
import type { AuditEntry } from './types.js';

// How the dashboard names each kind of e-mail to a signee (docs/documents.md).
const KIND_NAMES: Record<string, string> = {
  invitation: 'Invitation',
  reminder: 'Reminder',
  declined: 'Decline notice',
  cancelled: 'Cancellation notice',
  copy: 'Signed copy',
};

/** The dashboard's name of an e-mail's kind ("Decline notice"), or null for an unknown kind. */
export function emailKindName(kind: string): string | null {
  return KIND_NAMES[kind] ?? null;
}

/** What an e-mail entry says in the timeline: ": invitation to ann@example.com". */
export function emailSummary(entry: AuditEntry): string {
  const email = emailOf(entry);
  if (!email) return '';
  const kind = emailKindName(email.kind)?.toLowerCase() ?? email.kind;
  return `: ${kind ? `${kind} ` : ''}to ${email.to}`;
}
