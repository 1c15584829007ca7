// One table from error code to HTTP status and title: the only place a status is chosen.
const problems = {
  malformed_request: [400, 'Malformed request'],
  unauthenticated: [401, 'Authentication required'],
  invalid_api_key: [401, 'Unknown API key'],
  api_key_revoked: [401, 'API key revoked'],
  wrong_environment: [401, 'API key belongs to the other environment'],
  invalid_credentials: [401, 'Wrong e-mail or password'],
  session_required: [401, 'A browser session is required'],
  insufficient_credits: [402, 'Not enough signature credits'],
  forbidden: [403, 'Not allowed'],
  email_not_verified: [403, 'E-mail address not verified'],
  cross_origin_rejected: [403, 'Cross-origin request rejected'],
  url_expired: [403, 'URL expired'],
  invalid_token: [400, 'Invalid or expired link'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'Method not allowed'],
  invalid_status: [409, 'Not allowed in the current status'],
  conflict: [409, 'Conflict'],
  document_not_sent: [409, 'Document not sent for signing'],
  not_your_turn: [409, 'Not your turn to sign'],
  folder_not_empty: [409, 'Folder not empty'],
  api_key_limit_reached: [409, 'Too many API keys'],
  folder_limit_reached: [409, 'Too many folders'],
  link_expired: [410, 'Signing link no longer valid'],
  direct_link_disabled: [410, 'Direct link disabled'],
  payload_too_large: [413, 'Payload too large'],
  uri_too_long: [414, 'URI too long'],
  unsupported_media_type: [415, 'Unsupported media type'],
  validation_failed: [422, 'Invalid fields'],
  pdf_encrypted: [422, 'PDF needs a password'],
  pdf_unreadable: [422, 'PDF cannot be opened'],
  idempotency_key_reused: [422, 'Idempotency-Key reused with another request'],
  signature_field_missing: [422, 'A signee has no signature field'],
  rate_limited: [429, 'Too many requests'],
  reminder_cooldown: [429, 'Reminder cooldown in effect'],
  reminder_limit_reached: [429, 'Reminder limit reached'],
  mail_quota_exceeded: [429, 'Daily e-mail quota exceeded'],
  internal_error: [500, 'Internal error'],
  service_unavailable: [503, 'Service unavailable'],
  invitation_expired: [410, 'Invitation no longer valid'],
  invitation_limit_reached: [429, 'Too many invitations'],
  // Signer verification (decisions §13, docs/signing.md): a link that asks for more than itself.
  signee_auth_required: [401, 'Verification required'],
  signee_auth_invalid: [401, 'Wrong or expired code'],
  signee_auth_locked: [429, 'Too many wrong codes'],
  // An identity token (decisions §13) refused, each for one reason.
  identity_invalid: [401, 'Identity token not readable'],
  identity_signature: [401, 'Identity token signature refused'],
  identity_expired: [401, 'Identity token expired'],
  identity_lifetime: [401, 'Identity token lives too long'],
  identity_audience: [401, 'Identity token for another signee'],
  identity_email: [401, 'Identity token for another e-mail address'],
  identity_replayed: [401, 'Identity token already used'],
} as const satisfies Record<string, readonly [number, string]>;

/** A machine-readable error code, part of the public interface. */
export type ErrorCode = keyof typeof problems;

/**
 * Extension members a problem may carry: a signing link's `language`; a verification's `method`
 * and the `remainingAttempts` before its lock.
 */
export type ProblemExtensions = { language?: string; method?: string; remainingAttempts?: number };

/** One field-level problem in a 422 answer. */
export type FieldError = { path: string; message: string };

/** The one error type services throw; the handler turns it into problem+json. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  /** Extension members of the problem body (RFC 9457 §3.2), such as `language`. */
  readonly extensions?: ProblemExtensions;

  constructor(
    code: ErrorCode,
    detail?: string,
    extra: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      extensions?: ProblemExtensions;
    } = {},
  ) {
    // An AppError is described by its code and detail: its stack is never shown nor logged, and
    // capturing one cost 5–10 µs of every 4xx answer, most of what a flood of unknown keys or
    // unknown paths costs us.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail ?? problems[code][1]);
    Error.stackTraceLimit = stackTraceLimit;
    this.code = code;
    this.errors = extra.errors;
    this.headers = extra.headers;
    this.extensions = extra.extensions;
  }

  /** HTTP status of this error's code. */
  get status(): number {
    return problems[this.code][0];
  }
}

/**
 * An Error that captures no stack trace, for one whose details travel beside it (a failed
 * schema validation's issues): capturing one costs 5–10 µs that nobody reads.
 */
export function errorWithoutStack(message: string): Error {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const error = new Error(message);
  Error.stackTraceLimit = stackTraceLimit;
  return error;
}

/** Shorthand for a 422 with field errors. */
export function validationError(errors: FieldError[], detail = 'Some fields are invalid.') {
  if (errors.length <= MAX_LISTED_ERRORS)
    return new AppError('validation_failed', detail, { errors });
  // A body of 50,000 unknown keys is not answered with 50,000 problems (megabytes).
  const more = `The first ${MAX_LISTED_ERRORS} of ${errors.length.toLocaleString('en')} problems are listed.`;
  return new AppError('validation_failed', `${detail} ${more}`, {
    errors: errors.slice(0, MAX_LISTED_ERRORS),
  });
}

/** At most this many problems in one 422's `errors`. */
export const MAX_LISTED_ERRORS = 100;

/** The HTTP status and title of an error code. */
export function problemOf(code: ErrorCode): { status: number; title: string } {
  const [status, title] = problems[code];
  return { status, title };
}
