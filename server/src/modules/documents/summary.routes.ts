import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { listQuery } from './documents.schemas.js';
import { getDocumentSummary } from './summary.js';

const count = (what: string) => z.number().int().min(0).describe(what);

/** The home counts as answered. */
export const documentSummarySchema = z
  .object({
    inProcess: count('Documents sent and waiting for signees (status=in_process)'),
    draft: count('Drafts waiting to be prepared and sent (status=draft)'),
    completed: count('Documents that became signed at or after completedSince'),
    completedSince: z
      .string()
      .describe('The start of "completed": the query’s completedSince, else 7 days ago'),
    emailFailed: count(
      'Documents in process where a pending signee’s invitation or reminder was refused for good and no later one went out (emailFailed=true)',
    ),
  })
  .meta({ id: 'DocumentSummary' });

/** GET /api/documents/summary: the dashboard's home counts in one call. */
export function registerDocumentSummaryRoutes(app: App, deps: AppDeps) {
  app.get(
    '/api/documents/summary',
    {
      onRequest: deps.auth.requireVerifiedUser,
      schema: {
        operationId: 'getDocumentSummary',
        summary: "Count a tenant's documents that need attention",
        description:
          'Four counts, each the size of a listing: inProcess (GET /api/documents?status=in_process), draft (status=draft), completed (completedSince=…) and emailFailed (emailFailed=true). Counted by the database, not by reading the documents.',
        tags: ['documents'],
        querystring: listQuery.pick({ tenantId: true, completedSince: true }),
        response: {
          200: z.object({ summary: documentSummarySchema }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) => ({
      summary: await getDocumentSummary(deps, {
        ...request.query,
        userId: principalOf(request).userId,
      }),
    }),
  );
}
