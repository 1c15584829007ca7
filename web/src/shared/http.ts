/** One field-level problem from a 422 answer. */
export type FieldError = { path: string; message: string };

/** A failed call: a problem+json answer from the service, or no answer at all (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldError[];
  /** The problem's `language` member (a signing link's 410 names the document's). */
  readonly language: string | null;

  constructor(
    status: number,
    code: string,
    detail: string,
    fieldErrors: FieldError[] = [],
    language: string | null = null,
  ) {
    super(detail);
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
    this.language = language;
  }
}

type ProblemBody = {
  code?: unknown;
  detail?: unknown;
  title?: unknown;
  errors?: unknown;
  language?: unknown;
};

function toFieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (e): e is FieldError =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as FieldError).path === 'string' &&
      typeof (e as FieldError).message === 'string',
  );
}

/** Sends a JSON request to the service and returns the parsed body, or throws an ApiError. */
export async function requestJson<T>(
  url: string,
  options: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(
      0,
      'network_error',
      'Could not reach the signing service. Check your connection and try again.',
    );
  }
  return readJsonResponse<T>(response, null);
}

/**
 * Parses a service answer: the JSON body on success (`empty` when there is none), else the
 * problem+json turned into an ApiError.
 */
export async function readJsonResponse<T>(response: Response, empty: unknown): Promise<T> {
  const text = await response.text();
  let body: unknown = empty;
  try {
    body = text ? JSON.parse(text) : empty;
  } catch {
    body = empty;
  }
  if (response.ok) return body as T;
  const problem = (typeof body === 'object' && body !== null ? body : {}) as ProblemBody;
  const detail =
    typeof problem.detail === 'string'
      ? problem.detail
      : typeof problem.title === 'string'
        ? problem.title
        : `The service answered ${response.status}.`;
  throw new ApiError(
    response.status,
    typeof problem.code === 'string' ? problem.code : `http_${response.status}`,
    detail,
    toFieldErrors(problem.errors),
    typeof problem.language === 'string' ? problem.language : null,
  );
}
