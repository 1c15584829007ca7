import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/handle.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError, validationError, type FieldError } from '../../lib/errors.js';
import { hashSecret, newId, nowIso } from '../../lib/ids.js';
import type { StoredUpload } from '../documents/documents.service.js';
import { readableDocument } from '../documents/documents.service.js';
import * as documentsRepo from '../documents/documents.repo.js';
import { createDownloadUrl } from '../documents/download-url.js';
import { searchTerm, searchTextOf } from '../documents/search-text.js';
import type { PageSize } from '../fields/field-types.js';
import { decodeFields, encodeFields, listFields, type FieldRow } from '../fields/fields.repo.js';
import type { FieldDraft } from '../fields/fields.schemas.js';
import {
  documentPageSizes,
  fieldRows,
  presentField,
  replacementFields,
} from '../fields/fields.service.js';
import { templateFileKey } from '../storage/keys.js';
import type { Storage } from '../storage/storage.js';
import { findTenant } from '../tenants/tenants.repo.js';
import { requireMembership } from '../tenants/tenants.service.js';
import { releaseTemplateFile } from './template-files.js';
import { requireRoleFields } from './template-roles.js';
import { requireSomeoneActs, type SigneeRole } from '../documents/signee-roles.js';
import * as repo from './templates.repo.js';
import {
  recordTemplateCreated,
  recordTemplateDeleted,
  recordTemplateUpdated,
} from './template-activity.js';
import type { ActivityBy } from '../tenants/activity.js';

/** What template services need. */
export type TemplateDeps = {
  db: Db;
  storage: Storage;
  config: Pick<Config, 'publicUrl' | 'secretKey' | 'downloadUrlTtlSeconds'>;
};

type RoleInput = { id?: string; name: string; signingOrder?: number; role?: SigneeRole };
type Settings = {
  signingMessage?: string | null;
  emailLanguage?: string;
  signingOrderEnabled?: boolean | null;
};

/**
 * The token of a template's direct link: an HMAC of its id and nonce under the service secret,
 * so the URL can be shown again while only its hash is stored; a new nonce would make a new URL.
 */
export function directLinkTokenFor(secretKey: string, templateId: string, nonce: string) {
  const mac = createHmac('sha256', secretKey).update(`direct-link:${templateId}:${nonce}`);
  return `dl_${mac.digest('base64url')}`;
}

/** The API form of a template, with a fresh download URL and its direct link. */
export function presentTemplate(deps: TemplateDeps, t: repo.TemplateRow) {
  const enabled = t.direct_link_enabled === 1 && t.direct_link_nonce !== null;
  return {
    id: t.id,
    tenantId: t.tenant_id,
    name: t.name,
    roles: repo.rolesOf(t),
    signingMessage: t.signing_message,
    emailLanguage: t.email_language as 'en',
    signingOrderEnabled: t.signing_order_enabled === null ? null : t.signing_order_enabled === 1,
    directLink: {
      enabled,
      url: enabled
        ? `${deps.config.publicUrl}/t/${directLinkTokenFor(deps.config.secretKey, t.id, t.direct_link_nonce!)}`
        : null,
    },
    createdAt: t.created_at,
    updatedAt: t.updated_at,
    originalFile: t.original_file,
    pageCount: (JSON.parse(t.page_sizes) as PageSize[]).length,
    downloadUrl: createDownloadUrl({
      publicUrl: deps.config.publicUrl,
      secretKey: deps.config.secretKey,
      ttlSeconds: deps.config.downloadUrlTtlSeconds,
      documentId: t.id,
      kind: 'template',
    }),
  };
}

/** The API form of a template's field: the Field resource with its role for a signee. */
export function presentTemplateField(f: FieldRow) {
  const { signeeId: _signee, filledAt: _filled, ...field } = presentField(f);
  return { ...field, roleId: f.signee_id };
}

/** A template with its fields, in the API's form. */
export function presentTemplateWithFields(deps: TemplateDeps, t: repo.TemplateRow) {
  return {
    template: presentTemplate(deps, t),
    fields: decodeFields(t.fields).map(presentTemplateField),
  };
}

// New roles from their inputs, keeping the id of each that names one of `current`; 422 when two
// share a name (any case) or an id is not a role of the template.
function checkedRoles(inputs: RoleInput[], current: repo.TemplateRole[], path: string) {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const known = new Map(current.map((r) => [r.id, r]));
  const roles = inputs.map((input, i): repo.TemplateRole => {
    const folded = input.name.trim().toLowerCase();
    if (names.has(folded)) {
      errors.push({ path: `${path}[${i}].name`, message: 'another role has this name' });
    }
    names.add(folded);
    if (input.id !== undefined && !known.has(input.id)) {
      errors.push({ path: `${path}[${i}].id`, message: 'is not a role of this template' });
    }
    return {
      id: input.id ?? newId(),
      name: input.name.trim(),
      signingOrder: input.signingOrder ?? null,
      // A role kept by its id keeps its recipient role unless the input gives one.
      role:
        input.role ?? (input.id === undefined ? undefined : known.get(input.id)?.role) ?? 'signer',
    };
  });
  if (errors.length > 0) throw validationError(errors);
  requireSomeoneActs(roles, path);
  return roles;
}

// The row of a new template; the caller inserts it with its fields.
async function newTemplateRow(
  db: Db,
  input: {
    id: string;
    tenantId: string;
    userId: string;
    name: string;
    roles: repo.TemplateRole[];
    settings: Settings;
    file: { key: string; originalFile: string; sizeBytes: number; sha256: string };
    pageSizes: PageSize[];
    fields: FieldRow[];
  },
): Promise<repo.TemplateRow> {
  const tenant = await findTenant(db.kysely, input.tenantId);
  if (!tenant) throw new AppError('not_found', 'No such tenant.');
  const now = nowIso();
  return {
    id: input.id,
    tenant_id: input.tenantId,
    user_id: input.userId,
    name: input.name,
    roles: JSON.stringify(input.roles),
    signing_message: input.settings.signingMessage ?? null,
    email_language: input.settings.emailLanguage ?? tenant.email_language,
    signing_order_enabled:
      input.settings.signingOrderEnabled == null
        ? null
        : input.settings.signingOrderEnabled
          ? 1
          : 0,
    file: input.file.key,
    original_file: input.file.originalFile,
    size_bytes: input.file.sizeBytes,
    original_sha256: input.file.sha256,
    page_sizes: JSON.stringify(input.pageSizes),
    fields: encodeFields(input.fields),
    search_text: searchTextOf(input.name, []),
    direct_link_enabled: 0,
    direct_link_nonce: null,
    direct_link_token_hash: null,
    created_at: now,
    updated_at: now,
  };
}

/** Creates a template from an upload already stored under its template key (POST /api/templates). */
export async function createTemplate(
  deps: TemplateDeps,
  input: {
    userId: string;
    by: ActivityBy;
    tenantId: string;
    upload: StoredUpload;
    template: Settings & { name: string; roles: RoleInput[] };
    /** Fields, each naming its role by position; already checked. */
    fields: Array<Omit<FieldDraft, 'signeeId'> & { signee: number }>;
    pageSizes: PageSize[];
  },
) {
  await requireMembership(deps.db.kysely, { ...input, action: 'template.manage' });
  const roles = checkedRoles(input.template.roles, [], 'template.roles');
  const row = await newTemplateRow(deps.db, {
    id: input.upload.documentId,
    tenantId: input.tenantId,
    userId: input.userId,
    name: input.template.name,
    roles,
    settings: input.template,
    file: {
      key: input.upload.key,
      originalFile: input.upload.filename,
      sizeBytes: input.upload.size,
      sha256: input.upload.sha256,
    },
    pageSizes: input.pageSizes,
    fields: fieldRows(input.fields, (f) => roles[f.signee].id),
  });
  await deps.db.kysely.transaction().execute(async (trx) => {
    await repo.insertTemplate(trx, row);
    await recordTemplateCreated(trx, { row, by: input.by });
  });
  return row;
}

/**
 * Makes a template of a draft: its signees become roles (named by their names unless `roles`
 * names them), its fields are placed for those roles, its file is copied once under the
 * template's own key, so deleting the draft later cannot take the template's file.
 */
export async function saveAsTemplate(
  deps: TemplateDeps,
  input: {
    documentId: string;
    userId: string;
    by: ActivityBy;
    name: string;
    roles?: Array<string | { name: string; signingOrder?: number; role?: SigneeRole }>;
  },
) {
  const document = await readableDocument(deps.db, input);
  await requireMembership(deps.db.kysely, {
    tenantId: document.tenant_id,
    userId: input.userId,
    action: 'template.manage',
  });
  if (document.status !== 'draft') {
    throw new AppError('invalid_status', 'Only a draft can be saved as a template.');
  }
  const signees = await documentsRepo.listSignees(deps.db.kysely, document.id);
  if (input.roles && input.roles.length !== signees.length) {
    throw validationError([
      {
        path: 'roles',
        message: `give one role per signee, in their order: the draft has ${signees.length}`,
      },
    ]);
  }
  const roles = checkedRoles(
    signees.map((s, i) => {
      // Each role keeps its signee's recipient role unless `roles` gives another.
      const given = input.roles?.[i];
      if (given === undefined) {
        return { name: s.name, signingOrder: s.signing_order ?? undefined, role: s.role };
      }
      return typeof given === 'string' ? { name: given, role: s.role } : { role: s.role, ...given };
    }),
    [],
    'roles',
  );
  const roleOf = new Map(signees.map((s, i) => [s.id, roles[i].id]));
  const pageSizes = await documentPageSizes(deps, document);
  const fields = (await listFields(deps.db.kysely, document.id)).map((f) => ({
    ...f,
    id: newId(),
    signee_id: roleOf.get(f.signee_id)!,
    filled_at: null,
  }));
  // A `roles` entry may make a signer with fields an approver or a cc.
  requireRoleFields(roles, fields);
  const id = newId();
  const key = templateFileKey(id);
  const stored = await deps.storage.put(
    key,
    await deps.storage.get(document.file),
    'application/pdf',
  );
  try {
    const row = await newTemplateRow(deps.db, {
      id,
      tenantId: document.tenant_id,
      userId: input.userId,
      name: input.name,
      roles,
      settings: {
        signingMessage: document.signing_message,
        emailLanguage: document.email_language,
        signingOrderEnabled:
          document.signing_order_enabled === null ? null : document.signing_order_enabled === 1,
      },
      file: {
        key,
        originalFile: document.original_file,
        sizeBytes: stored.size,
        sha256: stored.sha256,
      },
      pageSizes,
      fields,
    });
    await deps.db.kysely.transaction().execute(async (trx) => {
      await repo.insertTemplate(trx, row);
      await recordTemplateCreated(trx, { row, by: input.by, documentId: document.id });
    });
    return row;
  } catch (err) {
    await deps.storage.delete(key);
    throw err;
  }
}

/** A template the caller may use (404 for anyone else, as for no template). */
export async function readableTemplate(
  db: Db,
  input: { templateId: string; userId: string; action?: 'template.read' | 'template.manage' },
) {
  const template = await repo.findTemplate(db.kysely, input.templateId);
  if (!template) throw new AppError('not_found', 'No such template.');
  await requireMembership(db.kysely, {
    tenantId: template.tenant_id,
    userId: input.userId,
    action: input.action ?? 'template.read',
    notFound: 'No such template.',
  });
  return template;
}

/** A page of a tenant's templates, newest first, keyset-paginated, `q` in the name. */
export async function listTemplates(
  deps: TemplateDeps,
  input: { userId: string; tenantId: string; q?: string; limit: number; cursor?: string },
) {
  await requireMembership(deps.db.kysely, { ...input, action: 'template.read' });
  const rows = await repo.listTemplates(deps.db.kysely, {
    tenantId: input.tenantId,
    term: input.q === undefined ? undefined : searchTerm(input.q) || undefined,
    limit: input.limit + 1,
    after: input.cursor ? decodeCursor(input.cursor) : undefined,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    templates: page,
    nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null,
  };
}

/**
 * Changes a template: its name and settings; its roles (the whole list: a role left out goes
 * with its fields); its direct link (owner or admin; only for a template with one role).
 * Documents already made from it keep what they were made with.
 */
export async function updateTemplate(
  deps: TemplateDeps,
  input: Settings & {
    templateId: string;
    userId: string;
    by: ActivityBy;
    name?: string;
    roles?: RoleInput[];
    directLink?: { enabled: boolean };
  },
) {
  const template = await readableTemplate(deps.db, { ...input, action: 'template.manage' });
  if (input.directLink) {
    await requireMembership(deps.db.kysely, {
      tenantId: template.tenant_id,
      userId: input.userId,
      action: 'template.publish',
    });
  }
  return deps.db.kysely.transaction().execute(async (trx) => {
    const current = await repo.findTemplate(trx, template.id, {
      engine: deps.db.engine,
      mode: 'update',
    });
    if (!current) throw new AppError('not_found', 'No such template.');
    const set: Partial<repo.TemplateRow> = { updated_at: nowIso() };
    if (input.name !== undefined) {
      set.name = input.name;
      set.search_text = searchTextOf(input.name, []);
    }
    if (input.signingMessage !== undefined) set.signing_message = input.signingMessage;
    if (input.emailLanguage !== undefined) set.email_language = input.emailLanguage;
    if (input.signingOrderEnabled !== undefined) {
      set.signing_order_enabled =
        input.signingOrderEnabled === null ? null : input.signingOrderEnabled ? 1 : 0;
    }
    let roles = repo.rolesOf(current);
    if (input.roles) {
      roles = checkedRoles(input.roles, roles, 'roles');
      const kept = new Set(roles.map((r) => r.id));
      const fields = decodeFields(current.fields).filter((f) => kept.has(f.signee_id));
      requireRoleFields(roles, fields);
      set.roles = JSON.stringify(roles);
      set.fields = encodeFields(fields);
    }
    const linkOn = input.directLink?.enabled ?? current.direct_link_enabled === 1;
    if (linkOn) requireDirectLinkable(roles, decodeFields(set.fields ?? current.fields));
    if (input.directLink?.enabled && current.direct_link_enabled !== 1) {
      const nonce = current.direct_link_nonce ?? randomBytes(16).toString('base64url');
      set.direct_link_enabled = 1;
      set.direct_link_nonce = nonce;
      set.direct_link_token_hash = hashSecret(
        directLinkTokenFor(deps.config.secretKey, current.id, nonce),
      );
    } else if (input.directLink && !input.directLink.enabled) {
      set.direct_link_enabled = 0;
    }
    await repo.updateTemplate(trx, current.id, set);
    const updated = { ...current, ...set };
    await recordTemplateUpdated(trx, { before: current, after: updated, by: input.by });
    return updated;
  });
}

// A direct link fills role 0 with whoever opens it: the template needs exactly one role, and
// (when it has fields) a signature field for it.
function requireDirectLinkable(roles: repo.TemplateRole[], fields: FieldRow[]) {
  if (roles.length !== 1) {
    throw validationError(
      [
        {
          path: 'directLink.enabled',
          message: `a direct link needs a template with exactly one role; this one has ${roles.length}`,
        },
      ],
      'A direct link is for a template with one role: whoever opens it fills that role.',
    );
  }
  if (fields.length > 0 && !fields.some((f) => f.type === 'signature')) {
    throw new AppError(
      'signature_field_missing',
      'The template has fields but no signature field for its role.',
    );
  }
}

/** Replaces a template's fields (422 pointing at a bad one); checked before anything is written. */
export async function putTemplateFields(
  deps: TemplateDeps,
  input: {
    templateId: string;
    userId: string;
    by: ActivityBy;
    fields: Array<Omit<FieldDraft, 'signeeId' | 'tagBox'> & { roleId: string }>;
  },
) {
  const template = await readableTemplate(deps.db, { ...input, action: 'template.manage' });
  return deps.db.kysely.transaction().execute(async (trx) => {
    const current = await repo.findTemplate(trx, template.id, {
      engine: deps.db.engine,
      mode: 'update',
    });
    if (!current) throw new AppError('not_found', 'No such template.');
    const roles = repo.rolesOf(current);
    const rows = replacementFields({
      fields: input.fields.map(({ roleId, ...f }) => ({ ...f, ownerId: roleId })),
      owners: new Set(roles.map((r) => r.id)),
      participant: 'role',
      existing: new Map(decodeFields(current.fields).map((f) => [f.id, f])),
      pages: JSON.parse(current.page_sizes) as PageSize[],
      roleOf: new Map(roles.map((r) => [r.id, r.role])),
    });
    if (current.direct_link_enabled === 1) requireDirectLinkable(roles, rows);
    const set = { fields: encodeFields(rows), updated_at: nowIso() };
    await repo.updateTemplate(trx, current.id, set);
    await recordTemplateUpdated(trx, {
      before: current,
      after: { ...current, ...set },
      by: input.by,
      always: true,
    });
    return rows;
  });
}

/** Deletes a template; documents made from it stay, and so does the file while they need it. */
export async function deleteTemplate(
  deps: TemplateDeps,
  input: { templateId: string; userId: string; by: ActivityBy },
) {
  const template = await readableTemplate(deps.db, { ...input, action: 'template.manage' });
  await deps.db.kysely.transaction().execute(async (trx) => {
    // Two deletes at once: only the one that removed the row writes an entry.
    if (await repo.deleteTemplate(trx, template.id)) {
      await recordTemplateDeleted(trx, { row: template, by: input.by });
    }
  });
  await releaseTemplateFile(deps, template.id);
}
