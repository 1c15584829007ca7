// Which secret verifies a delivery. Every webhook of every tenant has its own secret, so a
// receiver serving many tenants passes a function instead of one secret: it is given the
// tenantId the (not yet verified) payload names, and returns that tenant's secret, which then
// verifies the signature. A forged payload naming another tenant gains nothing: its signature
// must still match that tenant's secret, which the forger does not have.
import { toBytes, type WebhookRawBody } from './webhook-signature.js';

/** Node's `req.headers` (any key case) or a fetch `Headers`. */
export type WebhookHeaders =
  Record<string, string | string[] | undefined> | { get(name: string): string | null };

/** One secret, or several during a rotation (any one may match). */
export type WebhookSecrets = string | readonly string[];

/**
 * Finds the secret(s) of the tenant a delivery names (`tenantId` of the payload, unverified
 * until the signature checks out with what this returns). Return null or undefined for a
 * tenant you do not know (the delivery is refused with 401 `unknown_tenant`); throw for a
 * temporary failure (the receiver answers 500 and the service retries).
 */
export type WebhookSecretResolver = (
  tenantId: string,
  headers: WebhookHeaders,
) => WebhookSecrets | null | undefined | Promise<WebhookSecrets | null | undefined>;

/** A fixed secret (or several), or a function finding the secret of each event's tenant. */
export type WebhookSecretOption = WebhookSecrets | WebhookSecretResolver;

/** The payload's `tenantId` before anything is verified; null when there is none to read. */
export function unverifiedTenantId(rawBody: WebhookRawBody): string | null {
  try {
    const payload: unknown = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(toBytes(rawBody)),
    );
    const tenantId = (payload as { tenantId?: unknown } | null)?.tenantId;
    return typeof tenantId === 'string' && tenantId.length > 0 ? tenantId : null;
  } catch {
    return null;
  }
}

/**
 * The secrets to verify a delivery with: the fixed ones, or the resolver's for the payload's
 * tenant; null when the payload names no tenant or the resolver knows none.
 */
export async function resolveWebhookSecrets(
  secret: WebhookSecretOption,
  rawBody: WebhookRawBody,
  headers: WebhookHeaders,
): Promise<readonly string[] | null> {
  if (typeof secret !== 'function') return toList(secret);
  const tenantId = unverifiedTenantId(rawBody);
  if (tenantId === null) return null;
  const found = await secret(tenantId, headers);
  if (found === null || found === undefined) return null;
  const list = toList(found);
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError(`the webhook secret resolver gave no usable secret for ${tenantId}`);
  }
  return list;
}

function toList(secrets: WebhookSecrets): readonly string[] {
  return typeof secrets === 'string' ? [secrets] : secrets;
}

/** Checks a secret option at setup time: a function, or non-empty string(s). */
export function isWebhookSecretOption(secret: unknown): secret is WebhookSecretOption {
  if (typeof secret === 'function') return true;
  const list = typeof secret === 'string' ? [secret] : secret;
  return (
    Array.isArray(list) &&
    list.length > 0 &&
    list.every((s) => typeof s === 'string' && s.length > 0)
  );
}

// Case-insensitive; repeated values are joined the way Node joins them, so that two
// signature headers read as one malformed header instead of one of them being picked.
/** A header's value from either kind of headers. */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(lower) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[lower];
  if (value === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === lower);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) return value.join(', ');
  return value;
}
