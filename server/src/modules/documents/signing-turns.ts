import type { DocumentRow, SigneeRow } from './documents.repo.js';

/** Why a signee cannot sign (or approve) right now. */
export type BlockedReason = 'not_your_turn' | 'signed' | 'declined' | 'group_signed';

/**
 * Pending signees whose turn it is (signing order waves; a signed group needs no one else).
 * Approvers take turns as signers do; cc recipients never have one, so a document whose wave
 * is empty is complete whatever its cc recipients' (pending) status.
 */
export function currentWave(
  document: Pick<DocumentRow, 'signing_order_enabled' | 'signing_groups_enabled'>,
  signees: SigneeRow[],
): SigneeRow[] {
  const signedGroups = new Set(
    signees
      .filter((s) => s.status === 'signed' && s.signing_group_id)
      .map((s) => s.signing_group_id),
  );
  const open = signees.filter(
    (s) =>
      s.status === 'pending' &&
      s.role !== 'cc' &&
      !(
        document.signing_groups_enabled === 1 &&
        s.signing_group_id &&
        signedGroups.has(s.signing_group_id)
      ),
  );
  if (document.signing_order_enabled !== 1 || open.length === 0) return open;
  // A signee without a number joins the first wave.
  const order = (s: SigneeRow) => s.signing_order ?? 1;
  const first = Math.min(...open.map(order));
  return open.filter((s) => order(s) === first);
}

/** Why `signee` cannot sign or decline now, or null when it is their turn. */
export function blockedReason(
  document: Pick<DocumentRow, 'signing_order_enabled' | 'signing_groups_enabled'>,
  signees: SigneeRow[],
  signee: SigneeRow,
): BlockedReason | null {
  if (signee.status === 'signed') return 'signed';
  if (signee.status === 'declined') return 'declined';
  if (currentWave(document, signees).some((s) => s.id === signee.id)) return null;
  const groupDone =
    document.signing_groups_enabled === 1 &&
    signee.signing_group_id !== null &&
    signees.some((s) => s.signing_group_id === signee.signing_group_id && s.status === 'signed');
  return groupDone ? 'group_signed' : 'not_your_turn';
}
