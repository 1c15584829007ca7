import { hash } from '@node-rs/argon2';
import { z } from 'zod';
import type { FieldError } from '../../lib/errors.js';

/**
 * What opens a signee's link besides the link itself (decisions §13): nothing, an access code
 * the sender hands over, or a 6-digit code e-mailed on request.
 */
export const SIGNEE_AUTH_METHODS = ['none', 'access_code', 'email_otp'] as const;
/** A signee's `auth`. */
export type SigneeAuthMethod = (typeof SIGNEE_AUTH_METHODS)[number];

/** The `auth` of a signee input and of a Signee answer. */
export const signeeAuthSchema = z
  .enum(SIGNEE_AUTH_METHODS)
  .describe(
    'what the signing link asks for before it shows anything: none (default), access_code (the accessCode given here, which you hand over yourself) or email_otp (a 6-digit code e-mailed to the signee on request); an identity token from your app also satisfies it',
  );

/** An access code as the sender sets it: 4 to 64 characters, compared exactly. */
export const accessCodeSchema = z
  .string()
  .min(4, 'must be 4 to 64 characters')
  .max(64, 'must be 4 to 64 characters')
  .describe('with auth access_code only: 4 to 64 characters; stored hashed and never shown again');

/** The two properties a signee input may have for verification. */
export const signeeAuthFields = {
  auth: signeeAuthSchema.optional(),
  accessCode: accessCodeSchema.optional(),
};

/** A signee input's verification, as given. */
export type SigneeAuthInput = { auth?: SigneeAuthMethod; accessCode?: string };

/**
 * What is wrong with an input's `auth` and `accessCode` together (each alone is checked by its
 * schema): a code without `auth: access_code`, or `access_code` without a code. `hasCode`: the
 * signee already has one (an edit may keep it).
 */
export function signeeAuthProblems(
  input: SigneeAuthInput,
  pathOf: (key: string) => string,
  hasCode = false,
): FieldError[] {
  if (input.accessCode !== undefined && input.auth !== undefined && input.auth !== 'access_code') {
    return [{ path: pathOf('accessCode'), message: 'is only taken with auth access_code' }];
  }
  if (input.auth === 'access_code' && input.accessCode === undefined && !hasCode) {
    return [{ path: pathOf('accessCode'), message: 'is required with auth access_code' }];
  }
  return [];
}

/** A zod superRefine for an array of signee inputs (quick-create's `signees`). */
export function refineSigneeAuths(signees: SigneeAuthInput[], ctx: z.RefinementCtx) {
  signees.forEach((signee, i) => refineSigneeAuth(signee, ctx, [i]));
}

/** A zod superRefine for one signee input (`POST …/signees`). */
export function refineSigneeAuth(
  signee: SigneeAuthInput,
  ctx: z.RefinementCtx,
  prefix: Array<string | number> = [],
) {
  for (const problem of signeeAuthProblems(signee, (key) => key)) {
    ctx.addIssue({ code: 'custom', path: [...prefix, problem.path], message: problem.message });
  }
}

/** A signee's verification as its row stores it: the method and the code's hash. */
export type SigneeAuthRow = { auth: SigneeAuthMethod; accessCodeHash: string | null };

/**
 * The row part of an input: its method, and its access code hashed with Argon2id (the password
 * hash of accounts.service.ts: a code is short and chosen by a person, so a stolen hash must
 * stay costly to guess). Run before any transaction: a hash takes about 10 ms of a thread.
 */
export async function signeeAuthRow(input: SigneeAuthInput): Promise<SigneeAuthRow> {
  const auth = input.auth ?? (input.accessCode !== undefined ? 'access_code' : 'none');
  if (auth !== 'access_code' || input.accessCode === undefined) {
    return { auth, accessCodeHash: null };
  }
  return { auth, accessCodeHash: await hash(input.accessCode) };
}

/**
 * Signee inputs with their verification ready for newSignee: `auth` and `accessCodeHash` set,
 * the plain code dropped so that nothing after this point can store or echo it.
 */
export async function withSigneeAuth<T extends SigneeAuthInput>(
  signees: T[],
): Promise<Array<Omit<T, 'accessCode'> & SigneeAuthRow>> {
  return Promise.all(
    signees.map(async ({ accessCode, ...signee }) => ({
      ...signee,
      ...(await signeeAuthRow({ auth: signee.auth, accessCode })),
    })),
  );
}

/** An edit's verification with its new code, if any, hashed (before the transaction). */
export type SigneeAuthEdit = { auth?: SigneeAuthMethod; accessCodeHash?: string };

/** Hashes an edit's new access code, if it has one. */
export async function hashSigneeAuthEdit(patch: SigneeAuthInput): Promise<SigneeAuthEdit> {
  if (patch.accessCode === undefined) return { auth: patch.auth };
  return { auth: patch.auth, accessCodeHash: await hash(patch.accessCode) };
}

/**
 * What an edit changes on a signee's row, and what its audit entry says of it (that the code
 * changed, never the code). 422 at `body.accessCode` for a code without `access_code`, or
 * `access_code` with no code given nor kept.
 */
export function applySigneeAuthEdit(
  current: { auth: SigneeAuthMethod; access_code_hash: string | null },
  patch: SigneeAuthInput,
  edit: SigneeAuthEdit,
): {
  problems: FieldError[];
  set: { auth?: SigneeAuthMethod; access_code_hash?: string | null };
  changed: { auth?: SigneeAuthMethod; accessCode?: 'changed' };
} {
  const hasCode = current.auth === 'access_code' && current.access_code_hash !== null;
  const problems = signeeAuthProblems(patch, (key) => `body.${key}`, hasCode);
  const auth = edit.auth ?? (edit.accessCodeHash !== undefined ? 'access_code' : current.auth);
  // `auth` left out: the signee's own method, which may need a code it never had.
  if (
    problems.length === 0 &&
    auth === 'access_code' &&
    edit.accessCodeHash === undefined &&
    !hasCode
  ) {
    problems.push({ path: 'body.accessCode', message: 'is required with auth access_code' });
  }
  if (problems.length > 0) return { problems, set: {}, changed: {} };
  const codeHash =
    auth === 'access_code' ? (edit.accessCodeHash ?? current.access_code_hash) : null;
  const set: { auth?: SigneeAuthMethod; access_code_hash?: string | null } = {};
  const changed: { auth?: SigneeAuthMethod; accessCode?: 'changed' } = {};
  if (auth !== current.auth) set.auth = changed.auth = auth;
  if (codeHash !== current.access_code_hash) set.access_code_hash = codeHash;
  if (edit.accessCodeHash !== undefined) changed.accessCode = 'changed';
  return { problems, set, changed };
}

const signeeAuthPair = z.object(signeeAuthFields);

/**
 * The verification of create-from-template's signees (`signees[i].auth`, `.accessCode`), read
 * from the raw input before the transaction so the codes are hashed outside it; by e-mail (lower
 * case), which is unique within a document. Only this route takes them: bulk sends and direct
 * links make signees without verification.
 */
export async function templateSigneeAuths(
  input: unknown,
): Promise<{ byEmail: Map<string, SigneeAuthRow>; errors: FieldError[] }> {
  const byEmail = new Map<string, SigneeAuthRow>();
  const errors: FieldError[] = [];
  if (!Array.isArray(input)) return { byEmail, errors };
  const rows = input.map(async (element: unknown, i) => {
    if (typeof element !== 'object' || element === null) return;
    const pathOf = (key: string) => `signees[${i}].${key}`;
    const parsed = signeeAuthPair.safeParse(element);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        errors.push({ path: pathOf(issue.path.map(String).join('.')), message: issue.message });
      }
      return;
    }
    const problems = signeeAuthProblems(parsed.data, pathOf);
    errors.push(...problems);
    const email = (element as { email?: unknown }).email;
    if (problems.length === 0 && typeof email === 'string') {
      byEmail.set(email.toLowerCase(), await signeeAuthRow(parsed.data));
    }
  });
  await Promise.all(rows);
  return { byEmail, errors };
}
