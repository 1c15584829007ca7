import type { DbOrTrx } from '../../db/handle.js';
import { validationError } from '../../lib/errors.js';
import { listFields } from '../fields/fields.repo.js';
import type { SigneeRow } from './documents.repo.js';
import { nonSignerProblem, requireSomeoneActs, type SigneeRole } from './signee-roles.js';

/**
 * Refuses (422 at `body.role`) making a draft's signee an approver or a cc recipient while
 * fields are placed for them: fields are only for signers, and dropping them unasked would lose
 * the sender's work. Their labels (or types) are named; remove them with PUT …/fields first.
 */
async function requireNoFieldsFor(
  db: DbOrTrx,
  input: { documentId: string; signee: Pick<SigneeRow, 'id' | 'name'>; role: SigneeRole },
): Promise<void> {
  const problem = nonSignerProblem(input.role, 'signee');
  if (!problem) return;
  const own = (await listFields(db, input.documentId)).filter(
    (f) => f.signee_id === input.signee.id,
  );
  if (own.length === 0) return;
  const names = own.map((f) => f.label ?? f.type).join(', ');
  throw validationError(
    [
      {
        path: 'body.role',
        message: `${input.signee.name} has ${own.length} field(s) (${names}); fields are placed only for signers: remove them first`,
      },
    ],
    `Fields are placed only for signers; ${input.signee.name} has ${own.length}: remove them before making them ${input.role === 'cc' ? 'a cc recipient' : 'an approver'}.`,
  );
}

/**
 * Refuses (422 at `body.role`) a draft signee's new role that would leave fields on an approver
 * or a cc recipient, or the draft without a signer or an approver.
 */
export async function requireRoleChange(
  db: DbOrTrx,
  input: { documentId: string; signees: SigneeRow[]; signee: SigneeRow; role?: SigneeRole },
): Promise<void> {
  const { signee, role } = input;
  if (role === undefined || role === signee.role) return;
  await requireNoFieldsFor(db, { documentId: input.documentId, signee, role });
  requireSomeoneActs(
    input.signees.map((s) => (s.id === signee.id ? { role } : s)),
    'body.role',
  );
}
