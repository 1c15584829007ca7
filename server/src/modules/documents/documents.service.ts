import type { SealMode } from '../sealing/seal-pdf.js';
import { listAttachments } from '../fields/attachments.repo.js';
import type { SealLevel } from '../sealing/seal-types.js';
import type { Config } from '../../config.js';
import type { Db, DbOrTrx } from '../../db/handle.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError } from '../../lib/errors.js';
import { newId, nowIso } from '../../lib/ids.js';
import { documentIdOfKey } from '../storage/keys.js';
import type { Storage } from '../storage/storage.js';
import { releaseTemplateFile } from '../templates/template-files.js';
import { findTenantForMember } from '../tenants/tenants.repo.js';
import { assertMemberCan, requireMembership } from '../tenants/tenants.service.js';
import { auditRow, listAudit, type RequestOrigin } from './audit.repo.js';
import { isDeletable, moveDocument, type ChangeBy, type EventDocument } from './lifecycle.js';
import * as repo from './documents.repo.js';
import { createDownloadUrl } from './download-url.js';
import { searchTerm, searchTextOf } from './search-text.js';
import { decodeMetadata, encodeMetadata } from './integrator-fields.js';
import { queueCancelNotices } from './after-signing.js';
import { requireFolder } from '../folders/folders.repo.js';
import type { PageSize } from '../fields/field-types.js';
import { decodeFields, encodeFields } from '../fields/fields.repo.js';
import type { FieldDraft } from '../fields/fields.schemas.js';
import { fieldRows } from '../fields/fields.service.js';
import type { SigneeRole } from './signee-roles.js';
import { decodeReminders, encodeReminders, type ReminderPolicy } from './reminder-policy.js';
import { withSigneeAuth, type SigneeAuthMethod } from '../signing/signee-auth-input.js';

/** What document services need. */
export type DocumentDeps = {
  db: Db;
  storage: Storage;
  config: Pick<Config, 'publicUrl' | 'secretKey' | 'downloadUrlTtlSeconds'>;
};

/** The API form of a document, with a fresh download URL. */
export function presentDocument(deps: DocumentDeps, d: repo.DocumentRow) {
  return {
    id: d.id,
    tenantId: d.tenant_id,
    folderId: d.folder_id,
    name: d.name,
    status: d.status,
    pinned: d.pinned,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    source: d.source,
    userId: d.user_id,
    signingMethod: d.signing_method,
    signingMessage: d.signing_message,
    signingOrderEnabled: d.signing_order_enabled === null ? null : d.signing_order_enabled === 1,
    signingGroupsEnabled: d.signing_groups_enabled === 1,
    reminderCooldownUntil: d.reminder_cooldown_until,
    emailLanguage: d.email_language,
    file: d.status === 'signed' && d.sealed_file ? d.sealed_file : d.file,
    originalFile: d.original_file,
    hash: d.hash,
    sealMode: d.status === 'signed' ? (d.seal_mode as SealMode | null) : null,
    sealLevel: d.status === 'signed' ? (d.seal_level as SealLevel | null) : null,
    sealFailure: d.status === 'seal_failed' ? d.seal_failure : null,
    templateId: d.template_id,
    externalId: d.external_id,
    metadata: decodeMetadata(d.metadata),
    expiresAt: d.expires_at,
    cancelReason: d.cancel_reason,
    reminders: decodeReminders(d.reminders),
    redirectUrl: d.redirect_url,
    completedAt: d.completed_at,
    downloadUrl: createDownloadUrl({
      publicUrl: deps.config.publicUrl,
      secretKey: deps.config.secretKey,
      ttlSeconds: deps.config.downloadUrlTtlSeconds,
      documentId: d.id,
      kind: d.status === 'signed' && d.sealed_file ? 'sealed' : 'original',
    }),
  };
}

/** The API form of a signee. */
export function presentSignee(s: repo.SigneeRow) {
  return {
    id: s.id,
    documentId: s.document_id,
    email: s.email,
    name: s.name,
    status: s.status,
    role: s.role,
    userId: s.user_id,
    signingOrder: s.signing_order,
    signingGroupId: s.signing_group_id,
    signedAt: s.signed_at,
    invitedAt: s.invited_at,
    openedAt: s.opened_at,
    language: s.language,
    auth: s.auth,
    declinedAt: s.declined_at,
    declineReason: s.decline_reason,
    createdAt: s.created_at,
    updatedAt: s.updated_at,
  };
}

/** The row of a signee joining a draft: pending, not yet invited. */
export function newSignee(input: {
  document: Pick<repo.DocumentRow, 'id' | 'tenant_id' | 'user_id'>;
  signee: {
    email: string;
    name: string;
    signingOrder?: number;
    signingGroupId?: string;
    language?: string | null;
    role?: SigneeRole;
    /** Set by withSigneeAuth (signing/signee-auth-input.ts): never a plain access code. */
    auth?: SigneeAuthMethod;
    accessCodeHash?: string | null;
  };
  position: number;
  at: string;
}): repo.SigneeRow {
  const { document, signee } = input;
  return {
    id: newId(),
    document_id: document.id,
    tenant_id: document.tenant_id,
    email: signee.email,
    name: signee.name,
    status: 'pending',
    user_id: document.user_id,
    signing_order: signee.signingOrder ?? null,
    signing_group_id: signee.signingGroupId ?? null,
    signed_at: null,
    position: input.position,
    token_hash: null,
    invited_at: null,
    opened_at: null,
    auto_reminders: 0,
    language: signee.language ?? null,
    role: signee.role ?? 'signer',
    auth: signee.auth ?? 'none',
    access_code_hash: signee.accessCodeHash ?? null,
    declined_at: null,
    decline_reason: null,
    signature_file: null,
    signature_typed: null,
    initials_file: null,
    initials_typed: null,
    created_at: input.at,
    updated_at: input.at,
  };
}

/** An uploaded, checked file waiting for its document row. */
export type StoredUpload = {
  documentId: string;
  key: string;
  size: number;
  sha256: string;
  filename: string;
};

/** Creates a draft document with its signees for an already stored upload. No invitations. */
export async function createDocument(
  deps: DocumentDeps,
  input: {
    userId: string;
    tenantId: string;
    upload: StoredUpload;
    name?: string;
    signingMessage?: string;
    signingOrderEnabled?: boolean;
    signingGroupsEnabled?: boolean;
    signees: Array<Parameters<typeof newSignee>[0]['signee']>;
    expiresAt?: string;
    externalId?: string;
    metadata?: Record<string, string>;
    redirectUrl?: string;
    reminders?: ReminderPolicy | null;
    /** Fields, each naming its signee by position in `signees`; already checked. */
    fields?: Array<Omit<FieldDraft, 'signeeId'> & { signee: number }>;
    /** The file's pages as displayed, when they were read. */
    pageSizes?: PageSize[];
    origin: RequestOrigin;
  },
) {
  // Access codes are hashed before anything is read: a hash takes a thread for about 10 ms.
  const signees = await withSigneeAuth(input.signees);
  // The caller's role and the tenant in one read, and the draft in one statement on
  // PostgreSQL (repo.insertDocument): a membership revoked between the two is the same race
  // as a request that came a moment earlier.
  const found = await findTenantForMember(deps.db.kysely, input);
  assertMemberCan(found?.role, { action: 'document.create' });
  const { tenant } = found!;
  const document = newDocumentRow({
    id: input.upload.documentId,
    tenantId: input.tenantId,
    userId: input.userId,
    name: input.name ?? (input.upload.filename.replace(/\.pdf$/i, '') || 'Document'),
    source: 'uploaded',
    file: {
      key: input.upload.key,
      originalFile: input.upload.filename,
      sizeBytes: input.upload.size,
      sha256: input.upload.sha256,
      pageSizes: input.pageSizes ? JSON.stringify(input.pageSizes) : null,
    },
    signingMessage: input.signingMessage ?? null,
    signingOrderEnabled: input.signingOrderEnabled ?? null,
    signingGroupsEnabled: input.signingGroupsEnabled,
    emailLanguage: tenant.email_language,
    signees: input.signees,
    expiresAt: input.expiresAt,
    externalId: input.externalId,
    metadata: input.metadata,
    redirectUrl: input.redirectUrl,
    reminders: input.reminders,
  });
  return insertDraft(deps.db.kysely, {
    document,
    signees,
    fields: input.fields ?? [],
    actor: `user:${input.userId}`,
    origin: input.origin,
  });
}

/** The stored file a new document is made of: an upload, or a template's (shared) file. */
export type DocumentFile = {
  key: string;
  originalFile: string;
  sizeBytes: number;
  sha256: string;
  /** JSON [{width, height}], when the pages were read. */
  pageSizes: string | null;
};

/** The row of a new draft: what quick-create and create-from-template share. */
export function newDocumentRow(input: {
  id?: string;
  tenantId: string;
  userId: string;
  name: string;
  source: string;
  file: DocumentFile;
  signingMessage: string | null;
  signingOrderEnabled: boolean | null;
  signingGroupsEnabled?: boolean;
  emailLanguage: string;
  signees: Array<{ email: string; name: string }>;
  templateId?: string;
  externalId?: string | null;
  metadata?: Record<string, string> | null;
  expiresAt?: string | null;
  redirectUrl?: string | null;
  reminders?: ReminderPolicy | null;
  at?: string;
}): repo.DocumentRow {
  const now = input.at ?? nowIso();
  return {
    id: input.id ?? newId(),
    tenant_id: input.tenantId,
    folder_id: null,
    name: input.name,
    status: 'draft',
    pinned: null,
    source: input.source,
    user_id: input.userId,
    signing_method: 'email',
    signing_message: input.signingMessage,
    signing_order_enabled:
      input.signingOrderEnabled === null ? null : input.signingOrderEnabled ? 1 : 0,
    signing_groups_enabled: input.signingGroupsEnabled ? 1 : 0,
    reminder_cooldown_until: null,
    email_language: input.emailLanguage,
    file: input.file.key,
    original_file: input.file.originalFile,
    content_type: 'application/pdf',
    size_bytes: input.file.sizeBytes,
    original_sha256: input.file.sha256,
    hash: null,
    sealed_file: null,
    seal_mode: null,
    seal_level: null,
    seal_failure: null,
    page_sizes: input.file.pageSizes,
    page_sizes_error: null,
    search_text: searchTextOf(input.name, input.signees),
    created_at: now,
    updated_at: now,
    template_id: input.templateId ?? null,
    external_id: input.externalId ?? null,
    metadata: encodeMetadata(input.metadata),
    expires_at: input.expiresAt ?? null,
    cancel_reason: null,
    redirect_url: input.redirectUrl ?? null,
    reminders: encodeReminders(input.reminders),
    completed_at: null,
  };
}

/**
 * Inserts a new draft with its signees and fields, and its `created` audit entry, in the
 * caller's transaction.
 */
export async function insertDraft(
  trx: DbOrTrx,
  input: {
    document: repo.DocumentRow;
    signees: Array<Parameters<typeof newSignee>[0]['signee']>;
    /** Fields, each naming its signee by position in `signees`; already checked. */
    fields: Array<Omit<FieldDraft, 'signeeId'> & { signee: number }>;
    actor: string;
    origin?: RequestOrigin;
    details?: Record<string, unknown>;
  },
) {
  const { document } = input;
  const now = document.created_at;
  const signees = input.signees.map((s, position) =>
    newSignee({ document, signee: s, position, at: now }),
  );
  const fields = fieldRows(input.fields, (f) => signees[f.signee].id);
  const audit = auditRow({
    documentId: document.id,
    tenantId: document.tenant_id,
    action: 'created',
    actor: input.actor,
    origin: input.origin,
    details: {
      originalFile: document.original_file,
      sha256: document.original_sha256,
      ...input.details,
    },
    at: now,
  });
  await repo.insertDocument(trx, { ...document, fields: encodeFields(fields) }, signees, audit);
  return { document, signees, fields };
}

/** A document the caller may access (404 otherwise), with its signees. */
export async function getDocument(
  deps: DocumentDeps,
  input: { documentId: string; userId: string },
) {
  const found = await repo.findDocumentWithSignees(deps.db.kysely, input);
  assertMemberCan(found?.role, { action: 'document.read', notFound: 'No such document.' });
  const { document, fields, signees } = found!;
  return { document, signees, fields: decodeFields(fields) };
}

/** A page of a tenant's documents, newest first, keyset-paginated, filtered. */
export async function listDocuments(
  deps: DocumentDeps,
  input: Omit<repo.ListFilter, 'term'> & {
    userId: string;
    tenantId: string;
    q?: string;
    limit: number;
    cursor?: string;
  },
) {
  await requireMembership(deps.db.kysely, { ...input, action: 'document.read' });
  if (input.folderId) {
    await requireFolder(deps.db.kysely, { tenantId: input.tenantId, folderId: input.folderId });
  }
  const term = input.q === undefined ? '' : searchTerm(input.q);
  const rows = await repo.listDocuments(deps.db.kysely, deps.db.engine, {
    tenantId: input.tenantId,
    status: input.status,
    folderId: input.folderId,
    pinned: input.pinned,
    externalId: input.externalId,
    completedSince: input.completedSince,
    emailFailed: input.emailFailed,
    term: term || undefined,
    limit: input.limit + 1,
    after: input.cursor ? decodeCursor(input.cursor) : undefined,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > input.limit && last ? encodeCursor(last) : null;
  return { documents: page, nextCursor };
}

/**
 * Cancels a document in process: terminal, links stop working, and the signees already invited
 * are told (with the reason, when one is given).
 */
export async function cancelDocument(
  deps: DocumentDeps & { wakeJobs: () => void },
  input: { documentId: string; userId: string; reason?: string; origin: RequestOrigin },
) {
  const { document } = await getDocument(deps, input);
  const now = nowIso();
  const reason = input.reason?.trim() || null;
  await deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, {
      tenantId: document.tenant_id,
      userId: input.userId,
      action: 'document.manage',
    });
    const moved = await moveDocument(trx, {
      document,
      move: 'cancel',
      at: now,
      by: {
        actor: `user:${input.userId}`,
        origin: input.origin,
        ...(reason ? { details: { reason } } : {}),
      },
    });
    if (!moved) {
      throw new AppError('invalid_status', `Only a document in process can be cancelled.`);
    }
    await queueCancelNotices(trx, {
      document,
      signees: await repo.listSignees(trx, document.id),
      reason,
      publicUrl: deps.config.publicUrl,
    });
  });
  deps.wakeJobs();
  return getDocument(deps, input);
}

/**
 * Seals again a document whose seal failed for good (`seal_failed`): back to `pending_seal`
 * with a new seal job, its full budget of attempts. For when the outside fault that stopped it
 * (a seal certificate that could not be read, storage that was down) has been put right.
 */
export async function retrySeal(
  deps: DocumentDeps & { wakeJobs: () => void },
  input: { documentId: string; userId: string; origin: RequestOrigin },
) {
  const { document } = await getDocument(deps, input);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, {
      tenantId: document.tenant_id,
      userId: input.userId,
      action: 'document.manage',
    });
    if (
      !(await reopenSeal(trx, document, { actor: `user:${input.userId}`, origin: input.origin }))
    ) {
      throw new AppError(
        'invalid_status',
        document.status === 'pending_seal'
          ? 'The document is being sealed already.'
          : 'Only a document whose seal failed can be sealed again.',
      );
    }
  });
  deps.wakeJobs();
  return getDocument(deps, input);
}

/** retrySeal's move, for the operator's CLI too: false when the document is not `seal_failed`. */
export function reopenSeal(trx: DbOrTrx, document: EventDocument, by: ChangeBy): Promise<boolean> {
  return moveDocument(trx, {
    document,
    move: 'retrySeal',
    at: nowIso(),
    set: { seal_failure: null },
    by,
  });
}

/** A document's row, for a member who may read it; 404 for anyone else, as for no document. */
export async function readableDocument(db: Db, input: { documentId: string; userId: string }) {
  const document = await repo.findDocument(db.kysely, input.documentId);
  if (!document) throw new AppError('not_found', 'No such document.');
  await requireMembership(db.kysely, {
    tenantId: document.tenant_id,
    userId: input.userId,
    action: 'document.read',
    notFound: 'No such document.',
  });
  return document;
}

/**
 * Deletes a document that is not being signed or sealed, and the files it owns. A file it
 * shares with its template (decisions §11) goes only when nothing else needs it.
 */
export async function deleteDocument(
  deps: DocumentDeps,
  input: { documentId: string; userId: string },
) {
  const { document } = await getDocument(deps, input);
  const files = await deps.db.kysely.transaction().execute(async (trx) => {
    const current = await repo.findDocument(trx, document.id);
    if (!current) throw new AppError('not_found', 'No such document.');
    if (!isDeletable(current.status)) {
      throw new AppError(
        'invalid_status',
        'A document in process or being sealed cannot be deleted; cancel it first.',
      );
    }
    const signatureFiles = (await repo.listSignees(trx, document.id))
      .flatMap((s) => [s.signature_file, s.initials_file])
      .filter((f): f is string => f !== null);
    // Signees' attachments (decisions §15) go with the document.
    const attachmentFiles = (await listAttachments(trx, document.id)).map((a) => a.file);
    await repo.deleteDocument(trx, document.id);
    return [current.file, current.sealed_file, ...signatureFiles, ...attachmentFiles].filter(
      (f): f is string => f !== null && documentIdOfKey(f) === document.id,
    );
  });
  // Rows first, files after: a crash in between leaves orphan files, which cleanup removes,
  // never a row pointing at a missing file.
  for (const key of files) await deps.storage.delete(key);
  if (document.template_id) await releaseTemplateFile(deps, document.template_id);
}

/** The audit trail of a document the caller may read. */
export async function getAuditTrail(
  deps: DocumentDeps,
  input: { documentId: string; userId: string },
) {
  const { document } = await getDocument(deps, input);
  return listAudit(deps.db.kysely, document.id);
}
