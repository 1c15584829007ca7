import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import type { RequestOrigin } from '../documents/audit.repo.js';
import * as repo from '../documents/documents.repo.js';
import { moveSignee } from '../documents/lifecycle.js';
import { reload, type SigningDeps } from './signing.service.js';
import { advanceSigning, assertTurn, resolveLink } from './signing-steps.js';

/**
 * An approver approves (decisions §12): pending → signed with `signedAt`, the same
 * `signee.status_changed` as a signature and an `approved` audit entry, in one transaction; it
 * then advances the signing order, or completes the document when it was the last one, exactly
 * as a signature does. No signature and no field: an approver has none.
 */
export async function approveDocument(
  deps: SigningDeps,
  input: { token: string; origin: RequestOrigin },
) {
  const now = nowIso();
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    const { signee, document } = await resolveLink(trx, input.token, deps.db.engine);
    const signees = await repo.listSignees(trx, document.id);
    assertTurn(document, signees, signee, 'approve');
    const by = { actor: `signee:${signee.id}`, origin: input.origin };
    const approved = await moveSignee(trx, {
      document,
      signee,
      move: 'approve',
      at: now,
      set: { signed_at: now },
      by: { ...by, details: { name: signee.name, email: signee.email } },
    });
    if (!approved) throw new AppError('invalid_status', 'This approver has already approved.');
    await advanceSigning(trx, deps, {
      document,
      signees: signees.map((s) =>
        s.id === signee.id ? { ...s, status: 'signed' as const, signed_at: now } : s,
      ),
      by,
      at: now,
    });
    return { signeeId: signee.id, documentId: document.id };
  });
  deps.wakeJobs();
  return reload(deps, result.documentId, result.signeeId);
}
