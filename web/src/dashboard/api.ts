import { ApiError, readJsonResponse, type FieldError } from '../shared/http.js';
import { labelOfPath, readableFieldMessage } from './field-messages.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Calls the service with the session cookie: a JSON body, a multipart form, or nothing.
 * Returns the parsed JSON (undefined for 204) or throws the shared ApiError. The shared
 * requestJson only speaks GET and POST with JSON, which the signing page needs; the dashboard
 * also puts, patches, deletes and uploads.
 */
export async function api<T>(
  url: string,
  options: { method?: Method; json?: unknown; form?: FormData } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach Signet. Check your connection.');
  }
  return readJsonResponse<T>(response, undefined);
}

/** The error as an ApiError, so callers can read status and field errors of anything thrown. */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError(0, 'unexpected', err instanceof Error ? err.message : String(err));
}

// A 422 path belongs to a form field when it is the field's own path, bare (multipart forms:
// `signees.2.email`) or under `body.` (JSON bodies: `body.email`).
const claims = (path: string, field: string) => path === field || path === `body.${field}`;

/**
 * The message for one form field from a 422 answer, as a sentence with the field's label (see
 * field-messages.ts): "E-mail must be a valid address like name@example.com." Without a label,
 * the field's name stands in.
 */
export function fieldError(
  errors: FieldError[],
  field: string,
  label: string = labelOfPath(field),
): string | undefined {
  const found = errors.find((e) => claims(e.path, field));
  return found && readableFieldMessage(label, found.message);
}

/**
 * Field errors no form field claims, their messages made readable with a label taken from the
 * path: shown above the form so none is lost.
 */
export function otherErrors(errors: FieldError[], fields: string[]): FieldError[] {
  return errors
    .filter((e) => !fields.some((f) => claims(e.path, f)))
    .map((e) => ({ path: e.path, message: readableFieldMessage(labelOfPath(e.path), e.message) }));
}

/** How far an upload is: bytes sent of the request body's total. */
export type UploadProgress = { loaded: number; total: number };

/**
 * Posts a multipart form with XMLHttpRequest, whose upload events (unlike fetch's) report the
 * bytes sent, so a large PDF shows real progress. `signal` aborts it: the request is cut off
 * before its body is complete, so the service stores nothing. Answers as `api` does; an abort
 * rejects with the DOMException `AbortError`.
 */
export function uploadWithProgress<T>(
  url: string,
  form: FormData,
  options: { onProgress: (progress: UploadProgress) => void; signal: AbortSignal },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const aborted = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    if (options.signal.aborted) return aborted();
    options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress({ loaded: e.loaded, total: e.total });
    };
    xhr.onabort = aborted;
    xhr.onerror = () =>
      reject(new ApiError(0, 'network_error', 'Could not reach Signet. Check your connection.'));
    xhr.onload = () => {
      // The answer read as fetch's would be, so problem answers become the same ApiError.
      const type = xhr.getResponseHeader('content-type') ?? 'application/json';
      const body = xhr.status === 204 ? null : xhr.responseText;
      const response = new Response(body, {
        status: xhr.status,
        headers: { 'content-type': type },
      });
      readJsonResponse<T>(response, undefined).then(resolve, reject);
    };
    xhr.send(form);
  });
}
