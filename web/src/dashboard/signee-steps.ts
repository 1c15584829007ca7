import { emailOf } from './audit-csv.js';
import { emailKindName } from './signee-emails.js';
import type { AuditEntry, Signee } from './types.js';

/** What kind of step a signee's timeline shows; the kind picks its colour. */
export type StepKind =
  | 'invited'
  | 'viewed'
  | 'reminded'
  | 'signed'
  | 'approved'
  | 'declined'
  | 'bounced'
  | 'notice'
  | 'copy'
  | 'other';

/** One line of a signee's timeline. */
export type SigneeStep = {
  key: string;
  at: string;
  kind: StepKind;
  label: string;
  /** What the line adds to its label: how it was delivered, by whom, why it failed. */
  detail: string | null;
};

/**
 * A signee's role (signer, approver, cc) when the API answers one, else null: the dashboard
 * reads it defensively so it works with answers from before roles existed.
 */
export function roleOf(signee: Signee): string | null {
  const role = (signee as { role?: unknown }).role;
  return typeof role === 'string' && role !== '' ? role : null;
}

// Edits of a draft's signees: the document's own timeline tells them; a signee's tells their
// way through the signing.
const SKIPPED = new Set(['signee added', 'signee changed', 'signee removed']);

// Entries with these actions stand for the same step as the signee's own timestamps, so a
// trail written before they were all audited still shows each step once.
const STEP_OF_COLUMN: [keyof Signee, string, StepKind, string][] = [
  ['invitedAt', 'invited', 'invited', 'Invited'],
  ['openedAt', 'opened', 'viewed', 'Viewed'],
  ['signedAt', 'signed', 'signed', 'Signed'],
  ['declinedAt', 'declined', 'declined', 'Declined'],
];

/**
 * One signee's steps, oldest first, from the document's audit trail: each wave's invitation
 * (e-mailed or a link issued), the first view, each reminder (with whether its e-mail went
 * out), signed, approved, declined (an approver's is "Rejected"), each e-mail the mail server
 * refused for good ("Bounced"), notices and the signed copy. `you` is the viewer's user id, so
 * a reminder they asked for says so.
 */
export function signeeSteps(
  entries: AuditEntry[],
  signee: Signee,
  context: { you: string; expired?: boolean },
): SigneeStep[] {
  const approver = roleOf(signee) === 'approver';
  const steps: SigneeStep[] = [];
  // Reminders still waiting for their e-mail's outcome, oldest first.
  const reminders: SigneeStep[] = [];
  // Reminder e-mails listed before their own entry: settled in the same millisecond.
  const unasked: SigneeStep[] = [];
  // Steps an entry stands for without showing under their own kind (a refused invitation).
  const attempted = new Set<StepKind>();
  const own = entries.filter((e) => e.signeeId === signee.id && !SKIPPED.has(e.action));
  for (const e of own) {
    const step = (kind: StepKind, label: string, detail: string | null = null): SigneeStep => ({
      key: e.id,
      at: e.createdAt,
      kind,
      label,
      detail,
    });
    const email = emailOf(e);
    const to = email && email.to.toLowerCase() !== signee.email.toLowerCase() ? email.to : null;
    const delivered = to ? `e-mailed to ${to}` : 'e-mailed';
    switch (e.action) {
      case 'e-mailed': {
        // An entry from before kinds were recorded is the signee's invitation, or a reminder.
        const invited = steps.some((s) => s.kind === 'invited');
        const kind = email?.kind || (invited ? 'reminder' : 'invitation');
        if (kind === 'reminder') {
          // The reminder's own entry says who asked; its e-mail says it went out.
          const asked = reminders.shift();
          if (asked) asked.detail = [asked.detail, delivered].filter(Boolean).join(', ');
          else {
            const mailed = step('reminded', 'Reminded', delivered);
            steps.push(mailed);
            unasked.push(mailed);
          }
        } else if (kind === 'invitation') steps.push(step('invited', 'Invited', delivered));
        else if (kind === 'copy') steps.push(step('copy', 'Copy sent', delivered));
        else if (kind === 'declined') steps.push(step('notice', 'Decline notice', delivered));
        else if (kind === 'cancelled') {
          const label = context.expired ? 'Expiry notice' : 'Cancel notice';
          steps.push(step('notice', label, delivered));
        } else steps.push(step('other', 'E-mailed', delivered));
        break;
      }
      case 'e-mail failed': {
        const what = email ? (emailKindName(email.kind)?.toLowerCase() ?? 'e-mail') : 'e-mail';
        const error = typeof e.details?.error === 'string' ? `: ${e.details.error}` : '';
        const address = email ? ` to ${email.to}` : '';
        steps.push(step('bounced', 'Bounced', `${what}${address} refused${error}`));
        if (email?.kind === 'reminder') reminders.shift();
        // The invitation was tried and refused: its bounce is the invitation's step.
        if (email?.kind === 'invitation') attempted.add('invited');
        break;
      }
      case 'link issued':
        steps.push(step('invited', 'Invited', 'signing link issued, not e-mailed'));
        break;
      case 'reminded': {
        const by = reminderBy(e.actor, context.you);
        const mailed = unasked[0]?.at === e.createdAt ? unasked.shift() : undefined;
        if (mailed) {
          mailed.detail = [by, mailed.detail].filter(Boolean).join(', ');
          break;
        }
        const reminded = step('reminded', 'Reminded', by);
        steps.push(reminded);
        reminders.push(reminded);
        break;
      }
      case 'opened':
        steps.push(step('viewed', 'Viewed'));
        break;
      case 'signed':
        steps.push(step('signed', 'Signed'));
        break;
      case 'approved':
        steps.push(step('approved', 'Approved'));
        break;
      case 'declined':
        steps.push(step('declined', approver ? 'Rejected' : 'Declined'));
        break;
      default:
        steps.push(step('other', sentenceCase(e.action)));
    }
  }
  for (const [column, action, kind, label] of STEP_OF_COLUMN) {
    const at = signee[column];
    // No entry for a step the signee row records: an older trail. Shown from the row.
    if (typeof at !== 'string' || attempted.has(kind) || steps.some((s) => s.kind === kind)) {
      continue;
    }
    const named = kind === 'declined' && approver ? 'Rejected' : label;
    steps.push({ key: `${signee.id}-${action}`, at, kind, label: named, detail: null });
  }
  // The trail is oldest first already; a step taken from the signee row goes in its place.
  return steps
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (a.s.at < b.s.at ? -1 : a.s.at > b.s.at ? 1 : a.i - b.i))
    .map(({ s }) => s);
}

// Who asked for a reminder: the viewer, another member, or the automatic schedule.
function reminderBy(actor: string, you: string): string | null {
  if (actor === `user:${you}`) return 'by you';
  if (actor.startsWith('user:')) return 'by a team member';
  if (actor === 'system') return 'automatically';
  return null;
}

// "copy downloaded" → "Copy downloaded".
function sentenceCase(action: string): string {
  const text = action.replace(/[._]/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
