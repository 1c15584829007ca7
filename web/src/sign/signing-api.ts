import { requestJson } from '../shared/http.js';

/** Why a signee cannot sign right now. */
export type CannotSignReason = 'not_your_turn' | 'signed' | 'declined' | 'group_signed';

/** The signee as the signing API shows them to themselves. */
export type Signee = { id: string; name: string; email: string; status: string };

/** The document as the signing API shows it to a signee. */
export type SigningDocument = {
  id: string;
  name: string;
  status: string;
  signingMessage: string | null;
  senderName: string;
};

/** `GET /api/signing/{token}`. */
export type SigningSession = {
  signee: Signee;
  document: SigningDocument;
  canSign: boolean;
  reason: CannotSignReason | null;
  fileUrl: string;
};

/** A typed name or a drawn PNG, as `POST /api/signing/{token}/sign` takes it. */
export type SignatureInput = { type: 'typed'; text: string } | { type: 'drawn'; image: string };

/** The answer to sign and decline. */
export type SigningOutcome = { signee: Signee; document: Omit<SigningDocument, 'senderName'> };

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

/** Signs as this signee with their consent and signature. */
export function signDocument(token: string, signature: SignatureInput) {
  return requestJson<SigningOutcome>(`${base(token)}/sign`, {
    method: 'POST',
    body: { consent: true, signature },
  });
}

/** Declines to sign, with the signee's reason. */
export function declineDocument(token: string, reason: string) {
  return requestJson<SigningOutcome>(`${base(token)}/decline`, {
    method: 'POST',
    body: { reason },
  });
}
