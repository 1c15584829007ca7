import { AppError } from './errors.js';

/** A member's role in a tenant. */
export type Role = 'owner' | 'admin' | 'member';

/** Everything a caller may try to do inside a tenant. */
export type Action =
  | 'tenant.read'
  | 'document.create'
  | 'document.read'
  | 'document.send'
  | 'document.manage'
  | 'template.read'
  | 'template.manage'
  | 'template.publish'
  | 'settings.manage'
  | 'webhooks.manage'
  | 'members.manage'
  | 'activity.read';

// Publishing a direct link lets anyone on the internet spend the tenant's credits.
const managers: Action[] = [
  'settings.manage',
  'webhooks.manage',
  'members.manage',
  'template.publish',
  'activity.read',
];

/** The one authorization rule of the service: members do documents, owners/admins manage. */
export function can(role: Role, action: Action): boolean {
  if (managers.includes(action)) return role === 'owner' || role === 'admin';
  return true;
}

/** Throws 403 forbidden unless the role allows the action. */
export function assertCan(role: Role, action: Action): void {
  if (!can(role, action)) {
    throw new AppError('forbidden', `Your role (${role}) does not allow ${action}.`);
  }
}
