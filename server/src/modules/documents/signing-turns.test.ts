import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SigneeRow } from './documents.repo.js';
import { blockedReason, currentWave } from './signing-turns.js';

type Status = SigneeRow['status'];

/** A signee row with only what the turn rules read set meaningfully. */
function signee(
  id: string,
  options: {
    status?: Status;
    order?: number | null;
    group?: string | null;
    role?: SigneeRow['role'];
  } = {},
): SigneeRow {
  return {
    id,
    document_id: 'doc',
    tenant_id: 'tenant',
    email: `${id}@example.com`,
    name: id,
    status: options.status ?? 'pending',
    user_id: 'user',
    language: null,
    role: options.role ?? 'signer',
    signing_order: options.order ?? null,
    signing_group_id: options.group ?? null,
    signed_at: null,
    position: 0,
    token_hash: null,
    invited_at: null,
    opened_at: null,
    auto_reminders: 0,
    auth: 'none',
    access_code_hash: null,
    declined_at: null,
    decline_reason: null,
    signature_file: null,
    signature_typed: null,
    initials_file: null,
    initials_typed: null,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
  };
}

const doc = (order: number | null, groups: number) => ({
  signing_order_enabled: order,
  signing_groups_enabled: groups,
});
const ids = (rows: SigneeRow[]) => rows.map((s) => s.id);

describe('currentWave', () => {
  it('without an order, is every pending signee', () => {
    const signees = [
      signee('a', { order: 2 }),
      signee('b', { status: 'signed' }),
      signee('c', { order: 1 }),
      signee('d', { status: 'declined' }),
    ];
    expect(ids(currentWave(doc(0, 0), signees))).toEqual(['a', 'c']);
    // A NULL column is "not enabled" too.
    expect(ids(currentWave(doc(null, 0), signees))).toEqual(['a', 'c']);
  });

  it('with an order, is the lowest pending number, equal numbers together', () => {
    const signees = [
      signee('a', { order: 2 }),
      signee('b', { order: 1 }),
      signee('c', { order: 3 }),
      signee('d', { order: 1 }),
    ];
    expect(ids(currentWave(doc(1, 0), signees))).toEqual(['b', 'd']);
    signees[1] = { ...signees[1], status: 'signed' };
    expect(ids(currentWave(doc(1, 0), signees))).toEqual(['d']);
    signees[3] = { ...signees[3], status: 'signed' };
    expect(ids(currentWave(doc(1, 0), signees))).toEqual(['a']);
  });

  it('moves past a wave whose signees declined', () => {
    const signees = [signee('a', { order: 1, status: 'declined' }), signee('b', { order: 2 })];
    expect(ids(currentWave(doc(1, 0), signees))).toEqual(['b']);
  });

  it('gives approvers a turn like signers, and cc recipients none', () => {
    const signees = [
      signee('a', { order: 1 }),
      signee('b', { order: 2, role: 'approver' }),
      signee('c', { order: 1, role: 'cc' }),
      signee('d', { order: 3 }),
    ];
    expect(ids(currentWave(doc(1, 0), signees))).toEqual(['a']);
    signees[0] = { ...signees[0], status: 'signed' };
    expect(ids(currentWave(doc(1, 0), signees))).toEqual(['b']);
    signees[1] = { ...signees[1], status: 'signed' };
    expect(ids(currentWave(doc(1, 0), signees))).toEqual(['d']);
    signees[3] = { ...signees[3], status: 'signed' };
    // Done: the cc recipient, still pending, is waited for by no one.
    expect(currentWave(doc(1, 0), signees)).toEqual([]);
    expect(ids(currentWave(doc(0, 0), [signee('x', { role: 'cc' }), signee('y')]))).toEqual(['y']);
  });

  it('puts a signee without a number in the first wave', () => {
    expect(
      ids(currentWave(doc(1, 0), [signee('a', { order: 2 }), signee('b', { order: null })])),
    ).toEqual(['b']);
    expect(
      ids(
        currentWave(doc(1, 0), [
          signee('a', { order: 1 }),
          signee('b', { order: null }),
          signee('c', { order: 2 }),
        ]),
      ),
    ).toEqual(['a', 'b']);
  });

  it('is empty when no one is pending', () => {
    const signees = [signee('a', { status: 'signed' }), signee('b', { status: 'declined' })];
    expect(currentWave(doc(1, 1), signees)).toEqual([]);
    expect(currentWave(doc(0, 0), [])).toEqual([]);
  });

  it('with groups enabled, needs no one else of a group one member signed for', () => {
    const signees = [
      signee('a', { group: 'g', status: 'signed' }),
      signee('b', { group: 'g' }),
      signee('c', { group: 'h' }),
      signee('d'),
    ];
    expect(ids(currentWave(doc(0, 1), signees))).toEqual(['c', 'd']);
  });

  it('with groups disabled, ignores the group ids', () => {
    const signees = [
      signee('a', { group: 'g', status: 'signed' }),
      signee('b', { group: 'g' }),
      signee('c', { group: 'h' }),
    ];
    expect(ids(currentWave(doc(0, 0), signees))).toEqual(['b', 'c']);
  });

  it('with groups and an order, a signed group closes its alternatives so the order moves on', () => {
    const signees = [
      signee('a', { order: 1, group: 'g', status: 'signed' }),
      signee('b', { order: 1, group: 'g' }),
      signee('c', { order: 2 }),
    ];
    expect(ids(currentWave(doc(1, 1), signees))).toEqual(['c']);
    expect(ids(currentWave(doc(1, 0), signees))).toEqual(['b']);
  });

  it('is always pending signees, sharing one order number when the order is on', () => {
    const row = fc.record({
      status: fc.constantFrom<Status>('pending', 'signed', 'declined'),
      order: fc.option(fc.integer({ min: 1, max: 4 })),
      group: fc.option(fc.constantFrom('g', 'h')),
    });
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 8 }),
        fc.constantFrom(0, 1),
        fc.constantFrom(0, 1),
        (rows, ordered, grouped) => {
          const signees = rows.map((r, i) => signee(`s${i}`, r));
          const wave = currentWave(doc(ordered, grouped), signees);
          for (const s of wave) expect(s.status).toBe('pending');
          if (ordered === 1) {
            expect(new Set(wave.map((s) => s.signing_order ?? 1)).size).toBeLessThanOrEqual(1);
          }
          const pending = signees.filter((s) => s.status === 'pending');
          if (ordered === 0 && grouped === 0) expect(wave).toEqual(pending);
          // Someone pending outside a signed group always has a turn coming: the wave is empty
          // only when no one is left to sign.
          if (wave.length === 0 && grouped === 0) expect(pending).toEqual([]);
          for (const s of signees) {
            const reason = blockedReason(doc(ordered, grouped), signees, s);
            expect(reason === null).toBe(wave.includes(s));
          }
        },
      ),
    );
  });
});

describe('blockedReason', () => {
  it('says signed or declined for a signee who is done, whatever the wave', () => {
    const signees = [
      signee('a', { status: 'signed', order: 1 }),
      signee('b', { status: 'declined', order: 2 }),
    ];
    expect(blockedReason(doc(1, 0), signees, signees[0])).toBe('signed');
    expect(blockedReason(doc(1, 0), signees, signees[1])).toBe('declined');
  });

  it('is null in the current wave and not_your_turn after it', () => {
    const signees = [
      signee('a', { order: 1 }),
      signee('b', { order: 1 }),
      signee('c', { order: 2 }),
    ];
    expect(blockedReason(doc(1, 0), signees, signees[0])).toBeNull();
    expect(blockedReason(doc(1, 0), signees, signees[1])).toBeNull();
    expect(blockedReason(doc(1, 0), signees, signees[2])).toBe('not_your_turn');
    // Without the order everyone pending may sign.
    expect(blockedReason(doc(0, 0), signees, signees[2])).toBeNull();
  });

  it('says group_signed for an alternative whose group is done, only with groups enabled', () => {
    const signees = [signee('a', { group: 'g', status: 'signed' }), signee('b', { group: 'g' })];
    expect(blockedReason(doc(0, 1), signees, signees[1])).toBe('group_signed');
    expect(blockedReason(doc(0, 0), signees, signees[1])).toBeNull();
    // A later wave's alternative of a signed group: the group is the reason, not the order.
    const ordered = [
      signee('a', { order: 1, group: 'g', status: 'signed' }),
      signee('x', { order: 1 }),
      signee('b', { order: 2, group: 'g' }),
    ];
    expect(blockedReason(doc(1, 1), ordered, ordered[2])).toBe('group_signed');
    expect(blockedReason(doc(1, 0), ordered, ordered[2])).toBe('not_your_turn');
  });
});
