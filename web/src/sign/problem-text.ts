import type { ApiError } from '../shared/http.js';
import { format, type Words } from './i18n.js';

/**
 * What the signee reads when a request failed for a reason they cannot fix in the form: the
 * service unreachable, or anything else with its code (the service's own wording is English).
 */
export function problemText(t: Words, err: ApiError | null): string {
  if (err?.status === 0) return t.network;
  return format(t.failed, { code: err?.code ?? 'unexpected' });
}
