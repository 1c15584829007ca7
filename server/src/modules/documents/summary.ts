import type { Db } from '../../db/handle.js';
import { requireMembership } from '../tenants/tenants.service.js';
import { countSummary } from './summary.repo.js';

/** "Completed recently", unless the caller names its own start: the last 7 days. */
export const COMPLETED_WINDOW_MS = 7 * 24 * 3600_000;

/**
 * The counts of the dashboard's home for one tenant (any member): documents in process, drafts,
 * documents completed since `completedSince` (default 7 days ago), and documents in process
 * with a failed e-mail. Each matches a listing filter (docs/api.md, "Home counts").
 */
export async function getDocumentSummary(
  deps: { db: Db },
  input: { tenantId: string; userId: string; completedSince?: string },
) {
  await requireMembership(deps.db.kysely, { ...input, action: 'document.read' });
  const completedSince =
    input.completedSince ?? new Date(Date.now() - COMPLETED_WINDOW_MS).toISOString();
  const counts = await countSummary(deps.db.kysely, { tenantId: input.tenantId, completedSince });
  return { ...counts, completedSince };
}
