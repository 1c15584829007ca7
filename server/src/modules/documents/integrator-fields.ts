import { z } from 'zod';

/**
 * What an integrator attaches to a document for its own use (decisions §12): `externalId`,
 * `metadata` and `redirectUrl`. One set of rules for every way in: quick-create, create from a
 * template, PATCH.
 */

/** The longest `externalId`. */
export const MAX_EXTERNAL_ID = 255;
/** The most `metadata` may weigh as JSON (UTF-8 bytes). */
export const MAX_METADATA_BYTES = 4096;
/** The longest `redirectUrl`, the length browsers and proxies reliably pass on. */
export const MAX_REDIRECT_URL = 2048;

/** The integrator's own id for a document: trimmed, 1 to 255 characters. */
export const externalIdSchema = z.string().trim().min(1, 'must not be empty').max(MAX_EXTERNAL_ID);

/** A flat object of strings, at most 4 KiB as JSON: a nested value is refused at its key. */
export const metadataSchema = z
  .record(z.string().max(255), z.string().max(MAX_METADATA_BYTES))
  .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= MAX_METADATA_BYTES, {
    message: `must be at most ${MAX_METADATA_BYTES} bytes as JSON`,
  });

/**
 * Loopback hosts: a URL there reaches only the signee's own machine, which is where an
 * integrator's development server runs; anywhere else plain http would expose the query.
 */
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why `value` cannot be a redirect URL, or null when it can. */
export function redirectUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) {
      return 'must be an https URL (http only for localhost, 127.0.0.1 or [::1])';
    }
  } else if (url.protocol !== 'https:') {
    return 'must be an https URL';
  }
  // https://bank.example@evil.example reads as the bank and goes elsewhere.
  if (url.username || url.password) return 'must not contain a user name or password';
  return null;
}

/**
 * Where the signing page sends the signee after they sign or decline: https (http to loopback
 * only), at most 2,048 characters, no credentials; kept as given, its query included.
 */
export const redirectUrlSchema = z
  .string()
  .trim()
  .max(MAX_REDIRECT_URL)
  .superRefine((value, ctx) => {
    const problem = redirectUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  })
  .meta({
    format: 'uri',
    description: 'https URL (http only to localhost, 127.0.0.1, [::1]), at most 2,048 characters',
  });

/** `metadata` as a column holds it: JSON text, or null. */
export function encodeMetadata(metadata: Record<string, string> | null | undefined) {
  return metadata ? JSON.stringify(metadata) : null;
}

/** `metadata` as the API answers it, from its column. */
export function decodeMetadata(column: string | null): Record<string, string> | null {
  return column ? (JSON.parse(column) as Record<string, string>) : null;
}
