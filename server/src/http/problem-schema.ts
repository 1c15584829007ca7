import { z } from 'zod';

/** The problem+json body every error answers with, for the OpenAPI document. */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    requestId: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    language: z
      .string()
      .optional()
      .describe("a signing link's 410: the document's language, for the page to speak it"),
  })
  .describe('RFC 9457 problem details (application/problem+json)');

/** Response schemas for the usual error statuses of an authenticated route. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, problemSchema]));
}
