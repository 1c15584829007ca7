import { useSession } from './session.js';
import { emailSummary } from './signee-emails.js';
import type { AuditEntry, Signee } from './types.js';
import { Time } from './ui.js';

/**
 * The document's whole audit trail, oldest first, naming people rather than ids: the signee's
 * e-mail, "you (your e-mail)", "a team member", "Signet" for the service's own steps.
 */
export function DocumentTimeline(props: { entries: AuditEntry[] | null; signees: Signee[] }) {
  const { user } = useSession();
  // Actors are stored as `user:<id>`, `signee:<id>` or `system`: show people, not ids.
  const who = (e: AuditEntry) => {
    const signee = props.signees.find((s) => s.id === e.signeeId);
    if (e.actor === `user:${user.id}`) return `you (${user.email})`;
    if (e.actor.startsWith('user:')) return 'a team member';
    if (signee) return signee.email;
    if (e.actor === 'system') return 'Signet';
    return e.actor;
  };
  // What an edit touched: the signee's e-mail, or the properties a PATCH changed.
  const what = (e: AuditEntry) => {
    const details = e.details ?? {};
    if (e.action.startsWith('signee ')) {
      const email =
        typeof details.email === 'string'
          ? details.email
          : props.signees.find((s) => s.id === e.signeeId)?.email;
      return email ? `: ${email}` : '';
    }
    // An e-mail names its kind and recipient, so each wave's invitation and each notice shows.
    if (e.action === 'e-mailed' || e.action === 'e-mail failed') return emailSummary(e);
    if (e.action === 'updated' && details.changed && typeof details.changed === 'object') {
      return `: ${Object.keys(details.changed).map(propertyName).join(', ')}`;
    }
    return '';
  };
  return (
    <section className="card" aria-labelledby="timeline">
      <h2 id="timeline">Timeline</h2>
      {props.entries && (
        <ol className="timeline">
          {props.entries.map((e) => (
            <li key={e.id}>
              <Time value={e.createdAt} />
              <span className="timeline-action">
                {e.action.replace(/[._]/g, ' ')}
                <span className="timeline-detail">{what(e)}</span>
              </span>
              <span className="muted">
                {who(e)}
                {e.ip ? ` · ${e.ip}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

// A PATCH property as the timeline names it.
function propertyName(key: string): string {
  const names: Record<string, string> = {
    name: 'name',
    signingMessage: 'message',
    emailLanguage: 'language',
    signingOrderEnabled: 'signing order',
    signingGroupsEnabled: 'signing groups',
    pinned: 'pin',
    folderId: 'folder',
    expiresAt: 'expiry',
    externalId: 'external ID',
    metadata: 'metadata',
    redirectUrl: 'redirect URL',
    reminders: 'automatic reminders',
  };
  return names[key] ?? key;
}
