import type * as Api from '../../../server/src/api-types.js';

type Details = Record<string, unknown>;

const str = (v: unknown) => (v === null || v === undefined ? 'none' : String(v));
const list = (v: unknown) => (Array.isArray(v) && v.length > 0 ? v.join(', ') : '');

// "email language en → de, brand name none → Acme": a changes object in a line.
function changes(d: Details): string {
  const all = (d.changes ?? {}) as Record<string, { from: unknown; to: unknown }>;
  return Object.entries(all)
    .map(([key, c]) => {
      const show = (v: unknown) => (Array.isArray(v) ? `[${v.join(', ')}]` : str(v));
      // An API name in words: reminderCooldownMinutes → reminder cooldown minutes.
      const name = key.replace(/([A-Z])/g, ' $1').toLowerCase();
      return `${name} ${show(c.from)} → ${show(c.to)}`;
    })
    .join(', ');
}

function keys(d: Details): string {
  const parts = [
    list(d.added) && `added ${list(d.added)}`,
    list(d.removed) && `removed ${list(d.removed)}`,
    list(d.replaced) && `replaced ${list(d.replaced)}`,
  ].filter(Boolean);
  return parts.join('; ');
}

const SAY: Record<Api.ActivityEntry['action'], (d: Details) => string> = {
  'tenant.created': (d) => `Created the workspace “${str(d.name)}”`,
  'tenant.renamed': (d) => `Renamed the workspace from “${str(d.from)}” to “${str(d.to)}”`,
  'member.added': (d) => `${str(d.email)} joined as ${str(d.role)}`,
  'member.removed': (d) =>
    d.left ? `${str(d.email)} left the workspace` : `Removed ${str(d.email)} (${str(d.role)})`,
  'member.role_changed': (d) => `Changed ${str(d.email)} from ${str(d.from)} to ${str(d.to)}`,
  'invitation.created': (d) => `Invited ${str(d.email)} as ${str(d.role)}`,
  'invitation.revoked': (d) => `Withdrew the invitation of ${str(d.email)}`,
  'invitation.accepted': (d) => `${str(d.email)} accepted an invitation (already a member)`,
  'webhook.created': (d) => `Added the webhook ${str(d.url)}`,
  'webhook.updated': (d) => `Changed a webhook: ${changes(d)}`,
  'webhook.deleted': (d) => `Deleted the webhook ${str(d.url)}`,
  'webhook.secret_rotated': (d) => `Rotated the secret of the webhook ${str(d.url)}`,
  'settings.updated': (d) => `Changed settings: ${changes(d)}`,
  'logo.updated': () => 'Uploaded a new logo',
  'logo.removed': () => 'Removed the logo',
  'identity_keys.updated': (d) => `Changed identity keys: ${keys(d)}`,
  'template.created': (d) => `Created the template “${str(d.name)}”`,
  'template.updated': (d) => {
    const what = changes(d);
    return `Changed the template “${str(d.name)}”${what ? `: ${what}` : ': its fields'}`;
  },
  'template.deleted': (d) => `Deleted the template “${str(d.name)}”`,
  'api_key.created': (d) => `Made the API key “${str(d.name)}”`,
  'api_key.revoked': (d) => `Revoked the API key “${str(d.name)}”`,
};

/** An activity entry's action in words, with what changed. */
export function describeActivity(entry: Api.ActivityEntry): string {
  return (SAY[entry.action] ?? (() => entry.action))(entry.details);
}
