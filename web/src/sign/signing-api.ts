import type * as Api from '../../../server/src/api-types.js';
import { requestJson } from '../shared/http.js';

/** `GET /api/signing/{token}`, as the server's schema answers it. */
export type SigningSession = Api.SigningView;

/** Why a signee cannot sign right now. */
export type CannotSignReason = NonNullable<SigningSession['reason']>;

/** The signee as the signing API shows them to themselves. */
export type Signee = SigningSession['signee'];

/** The document as the signing API shows it to a signee. */
export type SigningDocument = SigningSession['document'];

/** A typed name or a drawn PNG, as `POST /api/signing/{token}/sign` takes it. */
export type SignatureInput = { type: 'typed'; text: string } | { type: 'drawn'; image: string };

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

/** Loads what the signee needs to see: document, signee, whether they can sign. */
export function fetchSigningSession(token: string, signal?: AbortSignal) {
  return requestJson<SigningSession>(base(token), { signal });
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

/** Declines to sign, with the signee's reason. */
export function declineDocument(token: string, reason: string) {
  return requestJson<SigningOutcome>(`${base(token)}/decline`, {
    method: 'POST',
    body: { reason },
  });
}
