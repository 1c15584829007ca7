import type { Db } from '../../db/handle.js';
import { templateFileKey } from '../storage/keys.js';
import type { Storage } from '../storage/storage.js';
import { referencedTemplateIds } from './templates.repo.js';

/**
 * Deletes a template's file once nothing needs it: not the template, no document made from it,
 * no bulk send of it with rows left. Called after the commit that removed such a reference; a
 * crash before it leaves the file to orphan cleanup, which applies the same rule.
 */
export async function releaseTemplateFile(deps: { db: Db; storage: Storage }, templateId: string) {
  const referenced = await referencedTemplateIds(deps.db.kysely, [templateId]);
  if (!referenced.has(templateId)) await deps.storage.delete(templateFileKey(templateId));
}
