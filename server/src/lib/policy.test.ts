import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { assertCan, can, type Action, type Role } from './policy.js';

// The whole rule as a table: a change to who may do what must change this file too.
const expected: Record<Action, Record<Role, boolean>> = {
  'tenant.read': { owner: true, admin: true, member: true },
  'document.create': { owner: true, admin: true, member: true },
  'document.read': { owner: true, admin: true, member: true },
  'document.send': { owner: true, admin: true, member: true },
  'document.manage': { owner: true, admin: true, member: true },
  'settings.manage': { owner: true, admin: true, member: false },
  'webhooks.manage': { owner: true, admin: true, member: false },
  'members.manage': { owner: true, admin: true, member: false },
  'template.read': { owner: true, admin: true, member: true },
  'template.manage': { owner: true, admin: true, member: true },
  'template.publish': { owner: true, admin: true, member: false },
  'activity.read': { owner: true, admin: true, member: false },
};
const cases = Object.entries(expected).flatMap(([action, roles]) =>
  Object.entries(roles).map(([role, allowed]) => ({
    role: role as Role,
    action: action as Action,
    allowed,
  })),
);

describe('policy', () => {
  it.each(cases)('$role may $action: $allowed', ({ role, action, allowed }) => {
    expect(can(role, action)).toBe(allowed);
  });

  it.each(cases)('assertCan($role, $action) agrees with can', ({ role, action, allowed }) => {
    if (allowed) {
      expect(() => assertCan(role, action)).not.toThrow();
      return;
    }
    let thrown: unknown;
    try {
      assertCan(role, action);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe('forbidden');
    expect((thrown as AppError).status).toBe(403);
    expect((thrown as AppError).message).toBe(`Your role (${role}) does not allow ${action}.`);
  });
});
