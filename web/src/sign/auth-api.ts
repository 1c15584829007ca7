import { ApiError, readJsonResponse } from '../shared/http.js';
import type { SigningSession } from './signing-api.js';

/** What a signing link asks for before it opens (decisions §13). */
export type AuthMethod = 'access_code' | 'email_otp';

/** A link that answered 401 signee_auth_required: its method and the signee's language. */
export type AuthRequired = {
  authRequired: true;
  method: AuthMethod;
  language: string | null;
  /** Why the URL's identity token (if any) did not open the link: its refusal code. */
  identityRefused: string | null;
};

/** A refused verification, with what the answer says besides its code. */
export class AuthError extends ApiError {
  readonly remainingAttempts: number | null;
  readonly retryAfterSeconds: number | null;

  constructor(from: ApiError, remainingAttempts: number | null, retryAfterSeconds: number | null) {
    super(from.status, from.code, from.message, from.fieldErrors, from.language);
    this.remainingAttempts = remainingAttempts;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const base = (token: string) => `/api/signing/${encodeURIComponent(token)}`;

// One POST with a JSON body (or none); a refusal thrown as an AuthError.
async function post<T>(url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the signing service.');
  }
  const copy = response.clone();
  try {
    return await readJsonResponse<T>(response, null);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const problem = (await copy.json().catch(() => ({}))) as { remainingAttempts?: unknown };
    const wait = Number(response.headers.get('retry-after'));
    throw new AuthError(
      err,
      typeof problem.remainingAttempts === 'number' ? problem.remainingAttempts : null,
      Number.isFinite(wait) && wait > 0 ? wait : null,
    );
  }
}

/** `POST …/auth {code}`: the access code or the e-mailed code. */
export function submitCode(token: string, code: string) {
  return post<{ method: string; expiresAt: string }>(`${base(token)}/auth`, { code });
}

/** `POST …/auth/send`: e-mails a new 6-digit code to the signee. */
export function requestCode(token: string) {
  return post<{ expiresAt: string; resendAfter: string }>(`${base(token)}/auth/send`);
}

// The URL's `?identity=` token, read once and taken out of the address bar at once (it must not
// stay in the history, nor be bookmarked or shared), then presented once: every load waits for it.
let presented: Promise<string | null> | null = null;
function presentIdentity(token: string): Promise<string | null> {
  presented ??= (async () => {
    const url = new URL(window.location.href);
    const identity = url.searchParams.get('identity');
    if (identity === null) return null;
    url.searchParams.delete('identity');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    try {
      await post(`${base(token)}/auth`, { identity });
      return null;
    } catch (err) {
      return err instanceof ApiError ? err.code : 'network_error';
    }
  })();
  return presented;
}

/**
 * Loads the signing session, after presenting the URL's identity token if it has one: the
 * session, or what the link asks for when it answers 401 signee_auth_required.
 */
export async function fetchSessionOrGate(
  token: string,
  signal?: AbortSignal,
): Promise<SigningSession | AuthRequired> {
  const identityRefused = await presentIdentity(token);
  let response: Response;
  try {
    response = await fetch(base(token), {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'Could not reach the signing service.');
  }
  if (response.status === 401) {
    const problem = (await response
      .clone()
      .json()
      .catch(() => ({}))) as { code?: unknown; method?: unknown; language?: unknown };
    if (problem.code === 'signee_auth_required') {
      return {
        authRequired: true,
        method: problem.method === 'email_otp' ? 'email_otp' : 'access_code',
        language: typeof problem.language === 'string' ? problem.language : null,
        identityRefused,
      };
    }
  }
  return readJsonResponse<SigningSession>(response, null);
}

/** True for a link that asks for verification first. */
export function isAuthRequired(value: SigningSession | AuthRequired): value is AuthRequired {
  return 'authRequired' in value;
}
