import { AppError, validationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { lockFolders, requireFolder } from '../folders/folders.repo.js';
import { deleteSigneeFields } from '../fields/fields.repo.js';
import { requireMembership } from '../tenants/tenants.service.js';
import { recordAudit, type RequestOrigin } from './audit.repo.js';
import * as repo from './documents.repo.js';
import { MAX_SIGNEES, type signeeInputSchema } from './documents.schemas.js';
import { getDocument, newSignee, type DocumentDeps } from './documents.service.js';
import { DRAFT_ONLY, OPEN_ONLY, type DocumentEdit, type SigneeEdit } from './editing.schemas.js';
import { scheduleExpiry } from './expiry.js';
import { decodeReminders, encodeReminders, rescheduleReminders } from './reminder-policy.js';
import { encodeMetadata } from './integrator-fields.js';
import { requireRoleChange } from './role-edits.js';
import { requireSomeoneActs } from './signee-roles.js';
import {
  applySigneeAuthEdit,
  hashSigneeAuthEdit,
  withSigneeAuth,
} from '../signing/signee-auth-input.js';
import type { z } from 'zod';

type Caller = { documentId: string; userId: string; origin: RequestOrigin };

/**
 * Runs `change` on the document, locked, inside one transaction, for a caller who may manage it
 * (404 for anyone else). `change` sees the document as it stands once locked.
 */
async function changeDocument<T>(
  deps: DocumentDeps,
  input: Caller,
  change: (trx: Transaction<Database>, document: repo.DocumentRow) => Promise<T>,
): Promise<T> {
  const found = await repo.findDocument(deps.db.kysely, input.documentId);
  if (!found) throw new AppError('not_found', 'No such document.');
  return deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, {
      tenantId: found.tenant_id,
      userId: input.userId,
      action: 'document.manage',
      notFound: 'No such document.',
    });
    const document = await repo.lockDocument(trx, deps.db.engine, found.id);
    if (!document) throw new AppError('not_found', 'No such document.');
    return change(trx, document);
  });
}

function requireDraft(document: repo.DocumentRow, what: string) {
  if (document.status !== 'draft') {
    throw new AppError(
      'invalid_status',
      `${what} can be changed only while the document is a draft; it is ${document.status}.`,
    );
  }
}

function requireOpen(document: repo.DocumentRow, what: string) {
  if (document.status !== 'draft' && document.status !== 'in_process') {
    throw new AppError(
      'invalid_status',
      `${what} can be changed only while the document is a draft or in process; it is ${document.status}.`,
    );
  }
}

/**
 * Applies a PATCH: the draft's settings (409 `invalid_status` once sent, and then nothing else
 * changes either), expiresAt, externalId, metadata, redirectUrl and reminders while draft or
 * in process (409 after), `pinned` and `folderId` in any status. Only what differs is written; a
 * change moves `updatedAt` and is audited, a PATCH that changes nothing does neither.
 */
export async function editDocument(deps: DocumentDeps, input: Caller & { patch: DocumentEdit }) {
  const { patch } = input;
  await changeDocument(deps, input, async (trx, document) => {
    const draftOnly = DRAFT_ONLY.filter((k) => patch[k] !== undefined);
    if (draftOnly.length > 0) requireDraft(document, draftOnly.join(', '));
    const openOnly = OPEN_ONLY.filter((k) => patch[k] !== undefined);
    if (openOnly.length > 0) requireOpen(document, openOnly.join(', '));
    if (patch.folderId) {
      await lockFolders(trx, deps.db.engine, document.tenant_id);
      await requireFolder(trx, { tenantId: document.tenant_id, folderId: patch.folderId });
    }
    const now = nowIso();
    const wanted: Partial<repo.DocumentRow> = {
      name: patch.name,
      signing_message: patch.signingMessage,
      email_language: patch.emailLanguage,
      signing_order_enabled:
        patch.signingOrderEnabled === undefined
          ? undefined
          : patch.signingOrderEnabled === null
            ? null
            : Number(patch.signingOrderEnabled),
      signing_groups_enabled:
        patch.signingGroupsEnabled === undefined ? undefined : Number(patch.signingGroupsEnabled),
      // Pinning a pinned document keeps the time it was first pinned.
      pinned:
        patch.pinned === undefined ? undefined : patch.pinned ? (document.pinned ?? now) : null,
      folder_id: patch.folderId,
      expires_at: patch.expiresAt,
      external_id: patch.externalId,
      metadata: patch.metadata === undefined ? undefined : encodeMetadata(patch.metadata),
      redirect_url: patch.redirectUrl,
      reminders: patch.reminders === undefined ? undefined : encodeReminders(patch.reminders),
    };
    const set = Object.fromEntries(
      Object.entries(wanted).filter(
        ([k, v]) => v !== undefined && v !== document[k as keyof repo.DocumentRow],
      ),
    ) as Partial<repo.DocumentRow>;
    if (Object.keys(set).length === 0) return;
    await repo.updateDocument(trx, document.id, { ...set, updated_at: now });
    if (set.name !== undefined)
      await repo.refreshSearchText(trx, { id: document.id, name: set.name });
    if (set.expires_at && document.status === 'in_process') {
      await scheduleExpiry(trx, document.id, set.expires_at);
    }
    if (set.reminders !== undefined && document.status === 'in_process') {
      await rescheduleReminders(trx, {
        document,
        policy: decodeReminders(set.reminders),
        signees: await repo.listSignees(trx, document.id),
        now,
      });
    }
    await recordAudit(trx, {
      documentId: document.id,
      tenantId: document.tenant_id,
      action: 'updated',
      actor: `user:${input.userId}`,
      origin: input.origin,
      details: { changed: changedProperties(patch, set) },
      at: now,
    });
  });
  return getDocument(deps, input);
}

// The PATCH's properties whose column changed, with their new values.
function changedProperties(patch: DocumentEdit, set: Partial<repo.DocumentRow>) {
  const columns: Record<keyof DocumentEdit, keyof repo.DocumentRow> = {
    name: 'name',
    signingMessage: 'signing_message',
    emailLanguage: 'email_language',
    signingOrderEnabled: 'signing_order_enabled',
    signingGroupsEnabled: 'signing_groups_enabled',
    pinned: 'pinned',
    folderId: 'folder_id',
    expiresAt: 'expires_at',
    externalId: 'external_id',
    metadata: 'metadata',
    redirectUrl: 'redirect_url',
    reminders: 'reminders',
  };
  return Object.fromEntries(
    (Object.keys(columns) as Array<keyof DocumentEdit>)
      .filter((k) => columns[k] in set)
      .map((k) => [k, patch[k]]),
  );
}

// The 422 of a signee whose e-mail another signee of the document already has.
function requireUniqueEmail(signees: repo.SigneeRow[], email: string, self?: string) {
  const taken = signees.find((s) => s.id !== self && s.email.toLowerCase() === email.toLowerCase());
  if (taken) {
    throw validationError([
      {
        path: 'body.email',
        message: `is already the e-mail of signee ${taken.id} (${taken.name})`,
      },
    ]);
  }
}

// Bookkeeping after a signee changed: the document's updatedAt, search text and audit trail.
async function signeesChanged(
  trx: Transaction<Database>,
  document: repo.DocumentRow,
  input: Caller & {
    signeeId: string;
    action: 'signee added' | 'signee changed' | 'signee removed';
  },
  details: Record<string, unknown>,
  at: string,
) {
  await repo.updateDocument(trx, document.id, { updated_at: at });
  // The locked row's name is current: renames take the same lock.
  await repo.refreshSearchText(trx, document);
  await recordAudit(trx, {
    documentId: document.id,
    tenantId: document.tenant_id,
    action: input.action,
    actor: `user:${input.userId}`,
    signeeId: input.signeeId,
    origin: input.origin,
    details,
    at,
  });
}

/** Adds a signee to a draft, with quick-create's rules (at most 100, e-mails unique). */
export async function addSignee(
  deps: DocumentDeps,
  input: Caller & { signee: z.output<typeof signeeInputSchema> },
) {
  const [withAuth] = await withSigneeAuth([input.signee]);
  const signeeId = await changeDocument(deps, input, async (trx, document) => {
    requireDraft(document, 'Signees');
    const signees = await repo.listSignees(trx, document.id);
    if (signees.length >= MAX_SIGNEES) {
      throw validationError(
        [{ path: 'signees', message: `at most ${MAX_SIGNEES} signees` }],
        `A document has at most ${MAX_SIGNEES} signees.`,
      );
    }
    requireUniqueEmail(signees, input.signee.email);
    const now = nowIso();
    const signee = newSignee({
      document,
      signee: withAuth,
      position: Math.max(-1, ...signees.map((s) => s.position)) + 1,
      at: now,
    });
    await repo.insertSignees(trx, [signee]);
    await signeesChanged(
      trx,
      document,
      { ...input, signeeId: signee.id, action: 'signee added' },
      {
        email: input.signee.email,
        name: input.signee.name,
        role: signee.role,
        ...(signee.auth !== 'none' ? { auth: signee.auth } : {}),
      },
      now,
    );
    return signee.id;
  });
  return withSignee(deps, input, signeeId);
}

// The signee of the document (404 otherwise), among all of them.
function requireSignee(signees: repo.SigneeRow[], signeeId: string) {
  const signee = signees.find((s) => s.id === signeeId);
  if (!signee) throw new AppError('not_found', 'No such signee of this document.');
  return signee;
}

// `auth` and `accessCode` go through applySigneeAuthEdit: a code is never a column's value.
const SIGNEE_COLUMNS: Record<
  Exclude<keyof SigneeEdit, 'auth' | 'accessCode'>,
  keyof repo.SigneeRow
> = {
  email: 'email',
  name: 'name',
  signingOrder: 'signing_order',
  signingGroupId: 'signing_group_id',
  role: 'role',
};

/** Changes a draft's signee: e-mail (still unique), name, signing order, group, role. */
export async function editSignee(
  deps: DocumentDeps,
  input: Caller & { signeeId: string; patch: SigneeEdit },
) {
  const { patch } = input;
  const authEdit = await hashSigneeAuthEdit(patch);
  await changeDocument(deps, input, async (trx, document) => {
    const signees = await repo.listSignees(trx, document.id);
    const signee = requireSignee(signees, input.signeeId);
    requireDraft(document, 'Signees');
    if (patch.email !== undefined) requireUniqueEmail(signees, patch.email, signee.id);
    await requireRoleChange(trx, { documentId: document.id, signees, signee, role: patch.role });
    const auth = applySigneeAuthEdit(signee, patch, authEdit);
    if (auth.problems.length > 0) throw validationError(auth.problems);
    const wanted: Partial<repo.SigneeRow> = Object.fromEntries(
      (Object.keys(SIGNEE_COLUMNS) as Array<keyof typeof SIGNEE_COLUMNS>).map((k) => [
        SIGNEE_COLUMNS[k],
        patch[k],
      ]),
    );
    const set = Object.fromEntries(
      Object.entries(wanted).filter(
        ([k, v]) => v !== undefined && v !== signee[k as keyof repo.SigneeRow],
      ),
    ) as Partial<repo.SigneeRow>;
    Object.assign(set, auth.set);
    if (Object.keys(set).length === 0 && !auth.changed.accessCode) return;
    const now = nowIso();
    await repo.updateSignee(trx, signee.id, { ...set, updated_at: now });
    const changed = Object.fromEntries(
      (Object.keys(patch) as Array<keyof SigneeEdit>)
        .filter(
          (k) => k in SIGNEE_COLUMNS && SIGNEE_COLUMNS[k as keyof typeof SIGNEE_COLUMNS] in set,
        )
        .map((k) => [k, patch[k]]),
    );
    Object.assign(changed, auth.changed);
    await signeesChanged(trx, document, { ...input, action: 'signee changed' }, changed, now);
  });
  return withSignee(deps, input, input.signeeId);
}

/**
 * Removes a draft's signee and the fields placed for them; the last signee, or the last signer or
 * approver, stays (422).
 */
export async function removeSignee(deps: DocumentDeps, input: Caller & { signeeId: string }) {
  await changeDocument(deps, input, async (trx, document) => {
    const signees = await repo.listSignees(trx, document.id);
    const signee = requireSignee(signees, input.signeeId);
    requireDraft(document, 'Signees');
    if (signees.length === 1) {
      throw validationError(
        [{ path: 'signees', message: 'at least one signee is required' }],
        'A document needs at least one signee; add another before removing this one.',
      );
    }
    requireSomeoneActs(signees.filter((s) => s.id !== signee.id));
    const now = nowIso();
    const fields = await deleteSigneeFields(trx, document.id, signee.id);
    await repo.deleteSignee(trx, signee.id);
    await signeesChanged(
      trx,
      document,
      { ...input, action: 'signee removed' },
      { email: signee.email, name: signee.name, fieldsRemoved: fields },
      now,
    );
  });
}

async function withSignee(deps: DocumentDeps, input: Caller, signeeId: string) {
  const found = await getDocument(deps, input);
  return { ...found, signee: requireSignee(found.signees, signeeId) };
}
