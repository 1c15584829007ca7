import { z } from 'zod';
import { problemOf, type ErrorCode } from '../lib/errors.js';

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
      .describe(
        "a signing link's 410 and 401 signee_auth_required: the signee's language, for the page to speak it",
      ),
    method: z
      .enum(['access_code', 'email_otp'])
      .optional()
      .describe('401 signee_auth_required: what the link asks for before it opens'),
    remainingAttempts: z
      .number()
      .int()
      .optional()
      .describe('401 signee_auth_invalid: wrong codes left before the link locks for 15 minutes'),
  })
  .meta({
    id: 'Problem',
    description: 'RFC 9457 problem details (application/problem+json); branch on `code`.',
    examples: [
      {
        type: 'urn:signet:problem:validation_failed',
        title: 'Invalid fields',
        status: 422,
        detail: 'Some fields are invalid.',
        code: 'validation_failed',
        requestId: 'e6448c96-c0f4-4823-9c9a-57ee36e631c9',
        errors: [{ path: 'body.email', message: 'Invalid email address' }],
      },
    ],
  });

// The codes a status means when a route names only the status.
const USUAL: Partial<Record<number, ErrorCode[]>> = {
  400: ['malformed_request'],
  401: ['unauthenticated', 'invalid_api_key', 'api_key_revoked', 'wrong_environment'],
  403: ['forbidden', 'email_not_verified', 'cross_origin_rejected'],
  404: ['not_found'],
  409: ['invalid_status'],
  410: ['link_expired'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  422: ['validation_failed'],
  429: ['rate_limited'],
};

/**
 * The error responses of a route, as problem+json: each status with the codes it can carry.
 * A number stands for its usual codes; a code adds itself under its own status.
 */
export function errorResponses(...answers: Array<number | ErrorCode>) {
  const byStatus = new Map<number, Set<string>>();
  for (const answer of answers) {
    const status = typeof answer === 'number' ? answer : problemOf(answer).status;
    const codes = byStatus.get(status) ?? new Set<string>();
    for (const code of typeof answer === 'number' ? (USUAL[answer] ?? []) : [answer]) {
      codes.add(code);
    }
    byStatus.set(status, codes);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      status,
      problemSchema.describe(
        codes.size > 0
          ? `problem+json with code ${[...codes].map((c) => `\`${c}\``).join(', ')}`
          : 'problem+json',
      ),
    ]),
  );
}
