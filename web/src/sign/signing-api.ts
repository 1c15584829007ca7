import type * as Api from '../../../server/src/api-types.js';
import { ApiError, readJsonResponse, requestJson } from '../shared/http.js';

/** `GET /api/signing/{token}`, as the server's schema answers it. */
export type SigningSession = Api.SigningView;

/** Why a signee cannot sign right now. */
export type CannotSignReason = NonNullable<SigningSession['reason']>;

/** The signee as the signing API shows them to themselves. */
export type Signee = SigningSession['signee'];

/** The document as the signing API shows it to a signee. */
export type SigningDocument = SigningSession['document'];

/** A typed name, a drawn PNG or an uploaded picture, as `POST /api/signing/{token}/sign` takes it. */
export type SignatureInput =
  | { type: 'typed'; text: string }
  | { type: 'drawn'; image: string }
  | { type: 'uploaded'; image: string };

/** The answer to sign and decline. */
export type SigningOutcome = Api.SigningStep;

const base = (token: string) => `/api/signing/${encodeURIComponent(token)}`;

/** Reads the signing token from a `/sign/{token}` path; null when the path has none. */
export function tokenFromPath(pathname: string): string | null {
  const match = /^\/sign\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** Reads a direct link's token from a `/t/{token}` path; null when the path is not one. */
export function directTokenFromPath(pathname: string): string | null {
  const match = /^\/t\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** `GET /api/direct-links/{token}`: the template's name, message, language and sender. */
export type DirectLinkView = Api.DirectLinkView['template'];

const directBase = (token: string) => `/api/direct-links/${encodeURIComponent(token)}`;

/** Loads what a direct link's page shows before the visitor gives their name. */
export async function fetchDirectLink(token: string, signal?: AbortSignal) {
  return (await requestJson<Api.DirectLinkView>(directBase(token), { signal })).template;
}

/** A refusal that says when to come back (429 with `Retry-After`). */
export class RetryLaterError extends ApiError {
  readonly retryAfterSeconds: number;

  constructor(from: ApiError, retryAfterSeconds: number) {
    super(from.status, from.code, from.message, from.fieldErrors, from.language);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Uses a direct link as the visitor `{name, email}`: answers their own signing URL. A 429 is
 * thrown as a RetryLaterError carrying its `Retry-After`, which requestJson does not keep.
 */
export async function submitDirectLink(token: string, visitor: { name: string; email: string }) {
  let response: Response;
  try {
    response = await fetch(`${directBase(token)}/documents`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(visitor),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the signing service.');
  }
  try {
    return await readJsonResponse<{ signingUrl: string }>(response, null);
  } catch (err) {
    const wait = Number(response.headers.get('retry-after'));
    if (err instanceof ApiError && err.status === 429) {
      throw new RetryLaterError(err, Number.isFinite(wait) && wait > 0 ? wait : 60);
    }
    throw err;
  }
}

/** Loads what the signee needs to see: document, signee, whether they can sign. */
export function fetchSigningSession(token: string, signal?: AbortSignal) {
  return requestJson<SigningSession>(base(token), { signal });
}

/** `GET /api/signing/{token}/status`: what became of the link's document, and the signed copy. */
export type LinkStatus = Api.SigningLinkStatus;

/** Loads what became of a link's document; answered in every state, even once it is closed. */
export function fetchLinkStatus(token: string, signal?: AbortSignal) {
  return requestJson<LinkStatus>(`${base(token)}/status`, { signal });
}

/** What a signee signs with: their signature, initials for initials fields, their fields' values. */
export type SignInput = {
  signature: SignatureInput;
  initials?: SignatureInput;
  fields?: { id: string; value: string | boolean }[];
};

/** Signs as this signee with their consent, signature and the values of their fields. */
export function signDocument(token: string, input: SignInput) {
  return requestJson<SigningOutcome>(`${base(token)}/sign`, {
    method: 'POST',
    body: { consent: true, ...input },
  });
}

/** Approves as this approver: no body, no signature. */
export function approveDocument(token: string) {
  return requestJson<SigningOutcome>(`${base(token)}/approve`, { method: 'POST', body: {} });
}

/** Declines to sign (or, for an approver, rejects), with the signee's reason. */
export function declineDocument(token: string, reason: string) {
  return requestJson<SigningOutcome>(`${base(token)}/decline`, {
    method: 'POST',
    body: { reason },
  });
}

/** `POST /api/signing/{token}/attachments`: a file for an attachment field; answers its id. */
export async function uploadAttachment(
  token: string,
  file: File,
  fieldId: string,
): Promise<{ attachmentId: string }> {
  const form = new FormData();
  form.append('fieldId', fieldId);
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(`${base(token)}/attachments`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: form,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the signing service.');
  }
  return readJsonResponse<{ attachmentId: string }>(response, null);
}
