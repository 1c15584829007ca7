import type { DbOrTrx } from '../../db/handle.js';
import { decodeFields } from '../fields/fields.repo.js';
import { changesBetween, recordActivity, type ActivityBy } from '../tenants/activity.js';
import { rolesOf, type TemplateRow } from './templates.repo.js';

// What the activity log compares of a template: its settings, its roles by name, its direct
// link's state and its number of fields. Never the direct link's token, which is a secret.
function summaryOf(t: TemplateRow) {
  return {
    name: t.name,
    signingMessage: t.signing_message,
    emailLanguage: t.email_language,
    signingOrderEnabled: t.signing_order_enabled === null ? null : t.signing_order_enabled === 1,
    roles: rolesOf(t).map((r) => r.name),
    directLinkEnabled: t.direct_link_enabled === 1,
    fields: decodeFields(t.fields).length,
  };
}

/** Records a template made (`documentId` when saved from a draft). */
export function recordTemplateCreated(
  trx: DbOrTrx,
  input: { row: TemplateRow; by: ActivityBy; documentId?: string },
) {
  const { row } = input;
  return recordActivity(trx, {
    tenantId: row.tenant_id,
    action: 'template.created',
    by: input.by,
    details: {
      templateId: row.id,
      name: row.name,
      roles: rolesOf(row).map((r) => r.name),
      ...(input.documentId && { documentId: input.documentId }),
    },
  });
}

/**
 * Records what an edit changed, `{from, to}` per changed part. `always`: the request replaced
 * something the summary does not show (fields moved in place), so it is an entry even when
 * the summary is the same.
 */
export async function recordTemplateUpdated(
  trx: DbOrTrx,
  input: { before: TemplateRow; after: TemplateRow; by: ActivityBy; always?: boolean },
) {
  const changes = changesBetween(summaryOf(input.before), summaryOf(input.after));
  if (!changes && !input.always) return;
  await recordActivity(trx, {
    tenantId: input.after.tenant_id,
    action: 'template.updated',
    by: input.by,
    details: { templateId: input.after.id, name: input.after.name, changes: changes ?? {} },
  });
}

/** Records a template deleted. */
export function recordTemplateDeleted(trx: DbOrTrx, input: { row: TemplateRow; by: ActivityBy }) {
  return recordActivity(trx, {
    tenantId: input.row.tenant_id,
    action: 'template.deleted',
    by: input.by,
    details: { templateId: input.row.id, name: input.row.name },
  });
}
