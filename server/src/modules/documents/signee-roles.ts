import { z } from 'zod';
import { validationError, type FieldError } from '../../lib/errors.js';

/**
 * What a signee is asked to do (decisions §12). A `signer` signs. An `approver` takes a turn in
 * the signing order like a signer and approves or rejects, with no signature and no field. A
 * `cc` gets no link and no turn; they are sent the signed copy and the decline and cancel
 * notices, and their status stays `pending` for good.
 */
export const SIGNEE_ROLES = ['signer', 'approver', 'cc'] as const;

/** A signee's role. */
export type SigneeRole = (typeof SIGNEE_ROLES)[number];

/** A signee input's `role`, as quick-create, the signee routes and template roles take it. */
export const signeeRoleSchema = z
  .enum(SIGNEE_ROLES)
  .describe(
    'signer (default): signs; approver: approves or rejects in the signing order, needs no field; cc: no link and no turn, gets the signed copy and the decline/cancel notices',
  );

type HasRole = { role: SigneeRole };

/** Signers and approvers: they hold a link, take a turn, and the document waits for them. */
export function takesTurn(signee: HasRole): boolean {
  return signee.role !== 'cc';
}

/** Signers: the only ones who sign, cost a credit and need a signature field. */
export function signs(signee: HasRole): boolean {
  return signee.role === 'signer';
}

/** Credits sending takes: one per signer (approvers and cc recipients cost none). */
export function creditsFor(signees: HasRole[]): number {
  return signees.filter(signs).length;
}

/** What a document with no signer and no approver is told. */
export const NOBODY_ACTS = 'at least one signee must be a signer or an approver';

/** A zod check of a `signees` list: someone has to sign or approve (`role` absent: signer). */
export function someoneActs(signees: Array<{ role?: SigneeRole }>): boolean {
  return signees.some((s) => (s.role ?? 'signer') !== 'cc');
}

/**
 * Refuses (422 at `path`) a set of signees in which nobody would sign or approve: such a
 * document could never complete, it would only be e-mailed about.
 */
export function requireSomeoneActs(signees: HasRole[], path = 'signees'): void {
  if (signees.some(takesTurn)) return;
  throw validationError(
    [{ path, message: NOBODY_ACTS }],
    'A document needs at least one signer or approver: cc recipients alone cannot complete it.',
  );
}

/**
 * What is wrong with a field placed for someone of `role`, or null for a signer (or an owner the
 * caller reports otherwise: undefined). An approver or a cc has nothing to fill, so a field for
 * them could never be filled and the document never completed with it.
 */
export function nonSignerProblem(
  role: SigneeRole | undefined,
  participant: 'signee' | 'role',
): string | null {
  if (role === undefined || role === 'signer') return null;
  const who = role === 'cc' ? 'a cc recipient' : 'an approver';
  return `is for ${who}: fields are placed only for signers (the ${participant}'s role is ${role})`;
}

/** The 422 errors of fields placed for approvers or cc recipients (nonSignerProblem). */
export function nonSignerFieldErrors<F>(
  fields: F[],
  options: {
    roleOf: (field: F) => SigneeRole | undefined;
    path: (index: number) => string;
    participant: 'signee' | 'role';
  },
): FieldError[] {
  return fields.flatMap((field, i) => {
    const message = nonSignerProblem(options.roleOf(field), options.participant);
    return message ? [{ path: options.path(i), message }] : [];
  });
}

/** A role as stored in a template's JSON or given by an input: `signer` when absent. */
export function roleOrSigner(role: SigneeRole | undefined | null): SigneeRole {
  return role ?? 'signer';
}
