import { describe, expect, it } from 'vitest';
import { roleOf, signeeSteps } from '../../web/src/dashboard/signee-steps.js';
import type { AuditEntry, Signee } from '../../web/src/dashboard/types.js';

// A signee's timeline from the audit trail (pure functions, no browser): the browser test
// drives the real trail; these cover what it cannot produce yet (approvers, roles) and older
// trails.
const SIGNEE: Signee = {
  id: '00000000-0000-4000-8000-000000000001',
  documentId: '00000000-0000-4000-8000-0000000000d0',
  email: 'ann@example.com',
  name: 'Ann',
  status: 'pending',
  role: 'signer',
  userId: '00000000-0000-4000-8000-0000000000a0',
  signingOrder: null,
  signingGroupId: null,
  signedAt: null,
  invitedAt: null,
  openedAt: null,
  declinedAt: null,
  declineReason: null,
  language: null,
  auth: 'none',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

let n = 0;
const entry = (action: string, minute: number, more: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `e${++n}`,
  action,
  actor: 'system',
  signeeId: SIGNEE.id,
  ip: null,
  userAgent: null,
  details: null,
  createdAt: `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
  ...more,
});
const mail = (kind: string, minute: number, failed = false) =>
  entry(failed ? 'e-mail failed' : 'e-mailed', minute, {
    details: { to: SIGNEE.email, kind, ...(failed ? { error: '550 Mailbox unavailable' } : {}) },
  });
const you = { you: 'u1' };
const lines = (steps: ReturnType<typeof signeeSteps>) =>
  steps.map((s) => (s.detail ? `${s.label} (${s.detail})` : s.label));

describe('signeeSteps', () => {
  it('pairs each reminder with its e-mail, and shows a refused one as bounced', () => {
    const trail = [
      mail('invitation', 1),
      entry('opened', 2),
      entry('reminded', 3, { actor: 'user:u1' }),
      mail('reminder', 3),
      entry('reminded', 4, { actor: 'system' }),
      mail('reminder', 5, true),
      entry('signed', 6),
      mail('copy', 7),
    ];
    expect(lines(signeeSteps(trail, SIGNEE, you))).toEqual([
      'Invited (e-mailed)',
      'Viewed',
      'Reminded (by you, e-mailed)',
      'Reminded (automatically)',
      'Bounced (reminder to ann@example.com refused: 550 Mailbox unavailable)',
      'Signed',
      'Copy sent (e-mailed)',
    ]);
  });

  it('pairs a reminder whose e-mail is listed first, in the same millisecond', () => {
    const trail = [
      mail('invitation', 1),
      mail('reminder', 3),
      entry('reminded', 3, { actor: 'user:u2' }),
    ];
    expect(lines(signeeSteps(trail, SIGNEE, you))).toEqual([
      'Invited (e-mailed)',
      'Reminded (by a team member, e-mailed)',
    ]);
  });

  it('shows an approval as Approved, and an approver’s decline as Rejected', () => {
    const approver = { ...SIGNEE, role: 'approver' } as Signee;
    expect(roleOf(approver)).toBe('approver');
    // An answer from before roles existed has none.
    expect(roleOf({ ...SIGNEE, role: undefined } as unknown as Signee)).toBeNull();
    const approved = signeeSteps([mail('invitation', 1), entry('approved', 2)], approver, you);
    expect(lines(approved)).toEqual(['Invited (e-mailed)', 'Approved']);
    const rejected = signeeSteps([mail('invitation', 1), entry('declined', 2)], approver, you);
    expect(lines(rejected)).toEqual(['Invited (e-mailed)', 'Rejected']);
  });

  it('fills an older trail’s gaps from the signee’s own times, in time order', () => {
    const signee = {
      ...SIGNEE,
      invitedAt: '2026-11-01T10:01:00.000Z',
      openedAt: '2026-11-01T10:02:00.000Z',
      declinedAt: '2026-11-01T10:05:00.000Z',
    };
    // An invitation of no kind (before kinds were recorded), and no entry for the view.
    const trail = [
      entry('e-mailed', 1, { details: { to: SIGNEE.email } }),
      entry('declined', 5),
      entry('signee changed', 0),
    ];
    expect(lines(signeeSteps(trail, signee, you))).toEqual([
      'Invited (e-mailed)',
      'Viewed',
      'Declined',
    ]);
  });

  it('names another address and notices; a refused invitation is not also "Invited"', () => {
    const signee = { ...SIGNEE, invitedAt: '2026-11-01T10:01:00.000Z' };
    const trail = [
      mail('invitation', 1, true),
      entry('e-mailed', 2, { details: { to: 'other@example.com', kind: 'cancelled' } }),
    ];
    expect(lines(signeeSteps(trail, signee, { ...you, expired: true }))).toEqual([
      'Bounced (invitation to ann@example.com refused: 550 Mailbox unavailable)',
      'Expiry notice (e-mailed to other@example.com)',
    ]);
  });
});
