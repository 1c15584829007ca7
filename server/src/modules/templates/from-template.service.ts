import type { DbOrTrx } from '../../db/handle.js';
import type { ReminderPolicy } from '../documents/reminder-policy.js';
import { validationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import type { RequestOrigin } from '../documents/audit.repo.js';
import { getDocument, insertDraft, newDocumentRow } from '../documents/documents.service.js';
import {
  deliveriesInOrder,
  reportDeliveries,
  sendDraft,
  type SendingDeps,
} from '../documents/sending.service.js';
import { decodeFields } from '../fields/fields.repo.js';
import { assertMemberCan } from '../tenants/tenants.service.js';
import { prefillValues, type PrefillValue } from './prefill.js';
import { checkTemplateSignees, type RoleSignee } from './template-signees.js';
import * as repo from './templates.repo.js';
import { templateSigneeAuths, type SigneeAuthRow } from '../signing/signee-auth-input.js';

/** What a document is made of: a template's row, or a bulk send's snapshot of it. */
export type TemplateSource = Pick<
  repo.TemplateRow,
  | 'id'
  | 'tenant_id'
  | 'name'
  | 'roles'
  | 'fields'
  | 'signing_message'
  | 'email_language'
  | 'signing_order_enabled'
  | 'file'
  | 'original_file'
  | 'size_bytes'
  | 'original_sha256'
  | 'page_sizes'
>;

/** How a document came from its template (the document's `source`). */
export type TemplateUse = 'template' | 'direct_link' | 'bulk_send';

/**
 * Creates a draft from a template inside the caller's transaction: the template's file (shared,
 * not copied), settings and fields, each field for the signee of its role, prefilled `values`
 * by field id. No storage and no PDF is read: the template holds its pages' sizes.
 */
export async function createFromTemplateInTrx(
  trx: DbOrTrx,
  input: {
    template: TemplateSource;
    userId: string;
    /** One per role, in the roles' order (checkTemplateSignees sorts them so). */
    signees: Array<RoleSignee & Partial<SigneeAuthRow>>;
    values: Map<string, PrefillValue>;
    source: TemplateUse;
    name?: string;
    externalId?: string | null;
    metadata?: Record<string, string> | null;
    expiresAt?: string;
    redirectUrl?: string | null;
    reminders?: ReminderPolicy | null;
    actor: string;
    origin?: RequestOrigin;
    /** More details for the `created` audit entry. */
    details?: Record<string, unknown>;
  },
) {
  const { template } = input;
  const roles = repo.rolesOf(template);
  const signees = input.signees.map((s) => ({
    email: s.email,
    name: s.name,
    language: s.language,
    signingOrder: roles[s.roleIndex].signingOrder ?? undefined,
    // The template role's recipient role: signer, approver or cc.
    role: roles[s.roleIndex].role,
    auth: s.auth,
    accessCodeHash: s.accessCodeHash,
  }));
  const position = new Map(input.signees.map((s, i) => [roles[s.roleIndex].id, i]));
  const document = newDocumentRow({
    tenantId: template.tenant_id,
    userId: input.userId,
    name: input.name ?? template.name,
    source: input.source,
    file: {
      key: template.file,
      originalFile: template.original_file,
      sizeBytes: template.size_bytes,
      sha256: template.original_sha256,
      pageSizes: template.page_sizes,
    },
    signingMessage: template.signing_message,
    signingOrderEnabled:
      template.signing_order_enabled === null ? null : template.signing_order_enabled === 1,
    emailLanguage: template.email_language,
    signees,
    templateId: template.id,
    externalId: input.externalId,
    metadata: input.metadata,
    expiresAt: input.expiresAt,
    redirectUrl: input.redirectUrl,
    reminders: input.reminders,
    at: nowIso(),
  });
  const fields = decodeFields(template.fields).map(({ id, signee_id, tag_box, show_if, ...f }) => ({
    ...f,
    tagBox: tag_box,
    showIf: show_if,
    value: input.values.get(id) ?? f.value,
    signee: position.get(signee_id)!,
  }));
  return insertDraft(trx, {
    document,
    signees,
    fields,
    actor: input.actor,
    origin: input.origin,
    details: { templateId: template.id, via: input.source, ...input.details },
  });
}

/**
 * POST /api/templates/{id}/documents: a draft from a template, its roles filled by `signees`,
 * its fields prefilled by label; with `send`, sent for signing in the same transaction (the
 * same checks, credits and errors as send-for-signing; a refusal creates nothing).
 */
export async function createDocumentFromTemplate(
  deps: SendingDeps,
  input: {
    templateId: string;
    userId: string;
    senderName: string;
    signees: unknown;
    prefill?: Record<string, PrefillValue>;
    name?: string;
    externalId?: string;
    metadata?: Record<string, string>;
    expiresAt?: string;
    redirectUrl?: string;
    reminders?: ReminderPolicy | null;
    send?: boolean;
    origin: RequestOrigin;
  },
) {
  const actor = `user:${input.userId}`;
  // Access codes hashed before the transaction (about 10 ms each); their errors join the others.
  const auths = await templateSigneeAuths(input.signees);
  const made = await deps.db.kysely.transaction().execute(async (trx) => {
    // Held until the commit (PostgreSQL): a delete of the template waits, then sees this
    // document and keeps the file; a delete that came first makes this a 404. The caller's
    // role comes in the same read.
    const found = await repo.findTemplateForUser(trx, input.templateId, input.userId);
    assertMemberCan(found?.member_role, {
      action: input.send ? 'document.send' : 'document.create',
      notFound: 'No such template.',
    });
    const current = found!;
    const checked = checkTemplateSignees(repo.rolesOf(current), input.signees);
    const prefill = prefillValues(decodeFields(current.fields), input.prefill ?? {});
    const errors = [...checked.errors, ...auths.errors, ...prefill.errors];
    if (errors.length > 0) throw validationError(errors);
    const created = await createFromTemplateInTrx(trx, {
      template: current,
      userId: input.userId,
      signees: checked.signees.map((s) => ({ ...s, ...auths.byEmail.get(s.email.toLowerCase()) })),
      values: prefill.values,
      source: 'template',
      name: input.name,
      externalId: input.externalId,
      metadata: input.metadata,
      expiresAt: input.expiresAt,
      redirectUrl: input.redirectUrl,
      reminders: input.reminders,
      actor,
      origin: input.origin,
    });
    if (!input.send) return { created, sending: null };
    const sending = await sendDraft(trx, deps, {
      document: created.document,
      signees: created.signees,
      senderName: input.senderName,
      actor,
      origin: input.origin,
      deliverInRequest: true,
    });
    return { created, sending };
  });
  if (!made.sending) return made.created;
  deps.wakeJobs();
  const { sent, invites, waiting } = made.sending;
  const deliveries = await reportDeliveries(deps, sent, invites, waiting);
  const result = await getDocument(deps, { documentId: sent.id, userId: input.userId });
  return { ...result, deliveries: deliveriesInOrder(result.signees, deliveries) };
}
