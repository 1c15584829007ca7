import type { Db, DbOrTrx } from '../../db/handle.js';
import { AppError, validationError, type FieldError } from '../../lib/errors.js';
import { newId, nowIso } from '../../lib/ids.js';
import { recordAudit, type RequestOrigin } from '../documents/audit.repo.js';
import * as documentsRepo from '../documents/documents.repo.js';
import { readAll, type Storage } from '../storage/storage.js';
import { requireMembership } from '../tenants/tenants.service.js';
import type { PageSize } from './field-types.js';
import * as repo from './fields.repo.js';
import { showIfErrors } from './show-if.js';
import { z } from 'zod';
import {
  NO_OPTIONS,
  fieldIssues,
  fieldPath,
  isRequired,
  placementErrors,
  fieldsPart,
  quickCreateFieldSchema,
  type FieldDraft,
} from './fields.schemas.js';
import { isUnreadablePages, readPageSizes, unreadablePages } from './page-sizes.js';
import { nonSignerFieldErrors, signs, type SigneeRole } from '../documents/signee-roles.js';

/** What the field services need. */
export type FieldDeps = { db: Db; storage: Storage };

/** The API form of a field. */
export function presentField(f: repo.FieldRow) {
  return {
    id: f.id,
    signeeId: f.signee_id,
    type: f.type,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
    required: f.required,
    label: f.label,
    options: f.options,
    value: f.value,
    filledAt: f.filled_at,
    min: f.min ?? null,
    max: f.max ?? null,
    decimals: f.decimals ?? null,
    validation: f.validation ?? null,
    showIf: f.show_if ?? null,
  };
}

/**
 * The fields of checked drafts, in their order, each for the signee `signeeIdOf` gives
 * (quick-create's fields name theirs by position).
 */
export function fieldRows<F extends Omit<FieldDraft, 'signeeId'>>(
  drafts: F[],
  signeeIdOf: (field: F) => string,
): repo.FieldRow[] {
  return drafts.map((f) => ({
    id: f.id ?? newId(),
    signee_id: signeeIdOf(f),
    type: f.type,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
    required: isRequired(f),
    label: f.label ?? null,
    options: f.options ?? null,
    value: f.value ?? null,
    tag_box: f.tagBox ?? null,
    filled_at: null,
    min: f.min ?? null,
    max: f.max ?? null,
    decimals: f.decimals ?? null,
    validation: f.validation ?? null,
    show_if: f.showIf ?? null,
  }));
}

/**
 * The decoded `fields` part of quick-create (or of a new template: `participant` 'role'),
 * each field naming its signee (role) by position; errors as 422 paths.
 */
export function parseFieldsPart(
  raw: string,
  count: number,
  participant: 'signee' | 'role' = 'signee',
): { fields: Array<z.output<typeof quickCreateFieldSchema>>; errors: FieldError[] } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { fields: [], errors: [{ path: 'fields', message: 'must be a JSON array of fields' }] };
  }
  const parsed = fieldsPart[participant](json);
  if (!parsed.success) {
    const errors = fieldIssues(parsed.error);
    return {
      fields: [],
      errors: errors.map((e) => (e.path === 'fields.' ? { ...e, path: 'fields' } : e)),
    };
  }
  const errors: FieldError[] = [];
  parsed.data.forEach((field, i) => {
    const position = 'signee' in field ? field.signee : field.role;
    if (position >= count) {
      errors.push({
        path: fieldPath(i, participant),
        message: `${participant} ${position} does not exist (${participant}s are counted from 0; there are ${count})`,
      });
    }
  });
  // Zod's output is new objects: a template's fields are renamed in place, a document's are as
  // they are (copying twenty fields' keys again was a fifth of reading them).
  const fields = parsed.data.map((field) => {
    if ('signee' in field) return field;
    const { role, ...rest } = field;
    return { ...rest, signee: role };
  });
  return { fields, errors };
}

// Reads under way, by document: views of one link at once wait for the one read.
const reading = new Map<string, Promise<PageSize[]>>();

/**
 * The pages of a document as displayed: read once from its file (on a bounded thread), then
 * stored, and so is a failure to read them (the same 422 again, without reading the file).
 */
export async function documentPageSizes(
  deps: FieldDeps,
  document: documentsRepo.DocumentRow,
): Promise<PageSize[]> {
  if (document.page_sizes) return JSON.parse(document.page_sizes) as PageSize[];
  if (document.page_sizes_error) throw unreadablePages(document.page_sizes_error);
  let pending = reading.get(document.id);
  if (!pending) {
    pending = readAndStorePageSizes(deps, document).finally(() => reading.delete(document.id));
    reading.set(document.id, pending);
  }
  return pending;
}

async function readAndStorePageSizes(
  deps: FieldDeps,
  document: documentsRepo.DocumentRow,
): Promise<PageSize[]> {
  try {
    const pages = await readPageSizes(
      await readAll(deps.storage, document.file),
      document.original_sha256,
    );
    await repo.savePageSizes(deps.db.kysely, document.id, pages);
    return pages;
  } catch (err) {
    if (isUnreadablePages(err))
      await repo.savePageSizesError(deps.db.kysely, document.id, err.message);
    throw err;
  }
}

/** A document's fields, for a caller who may read it. */
export async function getFields(deps: FieldDeps, input: { documentId: string; userId: string }) {
  const document = await readableDocument(deps.db.kysely, input);
  return repo.listFields(deps.db.kysely, document.id);
}

/**
 * The rows of a whole new set of fields (of a draft, or of a template: `participant` 'role'),
 * checked against what it replaces: each for a participant that exists, an `id` only of a
 * field it had, once, each on a page the file has. 422 naming every problem; the rows
 * otherwise, a field that keeps its id keeping the text tag it came from.
 */
export function replacementFields(input: {
  fields: Array<Omit<FieldDraft, 'signeeId' | 'tagBox'> & { ownerId: string }>;
  owners: Set<string>;
  participant: 'signee' | 'role';
  existing: Map<string, repo.FieldRow>;
  pages: PageSize[];
  /** Each owner's recipient role: a field for an approver or a cc is refused. */
  roleOf?: Map<string, SigneeRole>;
}): repo.FieldRow[] {
  const { existing, participant } = input;
  const owner = participant === 'role' ? 'template' : 'document';
  const errors: FieldError[] = [];
  const kept = new Set<string>();
  input.fields.forEach((field, i) => {
    if (!input.owners.has(field.ownerId)) {
      errors.push({
        path: fieldPath(i, `${participant}Id`),
        message: `is not a ${participant} of this ${owner}`,
      });
    }
    if (field.id === undefined) return;
    if (!existing.has(field.id)) {
      errors.push({ path: fieldPath(i, 'id'), message: `is not a field of this ${owner}` });
    } else if (kept.has(field.id)) {
      errors.push({ path: fieldPath(i, 'id'), message: 'names a field already given' });
    }
    kept.add(field.id);
  });
  errors.push(
    ...nonSignerFieldErrors(input.fields, {
      roleOf: (f) => input.roleOf?.get(f.ownerId),
      path: (i) => fieldPath(i, `${participant}Id`),
      participant,
    }),
    ...placementErrors(input.fields, input.pages),
    ...showIfErrors(input.fields, (f) => f.ownerId),
  );
  if (errors.length > 0) throw validationError(errors);
  const drafts = input.fields.map((field) => {
    const before = field.id === undefined ? undefined : existing.get(field.id);
    return before?.tag_box ? { ...field, tagBox: before.tag_box } : field;
  });
  return fieldRows(drafts, (f) => f.ownerId);
}

/**
 * Replaces a draft's fields with `fields` (422 pointing at a bad one, 409 once sent). Every
 * check runs before anything is written: a refused request changes nothing.
 */
export async function putFields(
  deps: FieldDeps,
  input: {
    documentId: string;
    userId: string;
    fields: Array<Omit<FieldDraft, 'tagBox'>>;
    origin: RequestOrigin;
  },
) {
  const document = await readableDocument(deps.db.kysely, input);
  requireDraft(document.status);
  const pages = await documentPageSizes(deps, document);
  return deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, {
      tenantId: document.tenant_id,
      userId: input.userId,
      action: 'document.manage',
    });
    const current = await documentsRepo.lockDocument(trx, deps.db.engine, document.id);
    if (!current) throw new AppError('not_found', 'No such document.');
    requireDraft(current.status);
    const existing = new Map((await repo.listFields(trx, document.id)).map((f) => [f.id, f]));
    const signees = await documentsRepo.listSignees(trx, document.id);
    const rows = replacementFields({
      fields: input.fields.map((f) => ({ ...f, ownerId: f.signeeId })),
      owners: new Set(signees.map((s) => s.id)),
      participant: 'signee',
      existing,
      pages,
      roleOf: new Map(signees.map((s) => [s.id, s.role])),
    });
    const now = nowIso();
    // The same fields in the same order (a client saving again what it read) change nothing:
    // no write, and no entry in the audit trail saying they changed.
    if (repo.encodeFields(rows) === repo.encodeFields([...existing.values()])) return rows;
    await repo.saveFields(trx, document.id, rows);
    await documentsRepo.updateDocument(trx, document.id, { updated_at: now });
    await recordAudit(trx, {
      documentId: document.id,
      tenantId: document.tenant_id,
      action: 'fields changed',
      actor: `user:${input.userId}`,
      origin: input.origin,
      details: { fields: input.fields.length },
      at: now,
    });
    return rows;
  });
}

/**
 * Refuses to send a document with fields that cannot be signed: while a signer has no
 * signature field to sign in (422 `signature_field_missing` naming them; approvers and cc
 * recipients need none), or a dropdown has no
 * option to choose (a `{{dropdown:N}}` text tag makes one; 422 at the field, as a `PUT` of it
 * would be). A document without fields signs on an appended page and needs none.
 */
export async function requireSendableFields(
  db: DbOrTrx,
  documentId: string,
  signees: Array<{ id: string; name: string; email: string; role: SigneeRole }>,
  /** The document's fields, when the caller has read them with it (in its transaction). */
  read?: repo.FieldRow[],
) {
  const fields = read ?? (await repo.listFields(db, documentId));
  if (fields.length === 0) return;
  requireSignatureFields(fields, signees);
  const empty: FieldError[] = fields.flatMap((f, i) =>
    f.type === 'dropdown' && !f.options?.length
      ? [{ path: fieldPath(i, 'options'), message: NO_OPTIONS }]
      : [],
  );
  if (empty.length > 0) {
    const which = empty.length === 1 ? 'A dropdown has' : `${empty.length} dropdowns have`;
    throw validationError(
      empty,
      `${which} no options to choose from: add them with PUT /api/documents/${documentId}/fields before sending.`,
    );
  }
}

function requireSignatureFields(
  fields: repo.FieldRow[],
  signees: Array<{ id: string; name: string; email: string; role: SigneeRole }>,
) {
  const withSignature = new Set(
    fields.filter((f) => f.type === 'signature').map((f) => f.signee_id),
  );
  const missing = signees.filter((s) => signs(s) && !withSignature.has(s.id));
  if (missing.length === 0) return;
  const names = missing.map((s) => `${s.name} <${s.email}>`).join(', ');
  throw new AppError(
    'signature_field_missing',
    `Every signer needs a signature field; ${names} ${missing.length === 1 ? 'has' : 'have'} none.`,
    {
      errors: missing.map((s) => ({
        path: `signees.${signees.indexOf(s)}`,
        message: `${s.name} <${s.email}> has no signature field`,
      })),
    },
  );
}

function requireDraft(status: documentsRepo.DocumentRow['status']) {
  if (status !== 'draft') {
    throw new AppError(
      'invalid_status',
      'Fields can be changed only while the document is a draft.',
    );
  }
}

async function readableDocument(db: DbOrTrx, input: { documentId: string; userId: string }) {
  const document = await documentsRepo.findDocument(db, input.documentId);
  if (!document) throw new AppError('not_found', 'No such document.');
  await requireMembership(db, {
    tenantId: document.tenant_id,
    userId: input.userId,
    action: 'document.read',
    notFound: 'No such document.',
  });
  return document;
}
