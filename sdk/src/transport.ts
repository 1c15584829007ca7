// The client's one way to the service: builds each URL from SIGNET_API_ENDPOINTS, sends the
// API key, and turns every error answer into a SignetApiError with the problem+json fields.
// Request and answer types come from openapi-types.ts (generated from
// docs/openapi/openapi.json by `npm run openapi`), keyed by operationId, so tsc checks every
// call against the API and the client cannot drift from the service.
import type { Problem } from './client-types.js';
import { SIGNET_API_ENDPOINTS } from './endpoints.js';
import type { operations } from './openapi-types.js';

/** An operation the client calls: its operationId in the OpenAPI document. */
export type SignetEndpoint = keyof typeof SIGNET_API_ENDPOINTS;

type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON answer of an operation that succeeded (void for 204), from the OpenAPI document. */
export type SignetAnswer<E extends SignetEndpoint> = operations[E] extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201 | 202 ? JsonOf<R[S]> : S extends 204 ? void : never;
    }[keyof R]
  : never;

/** The JSON request body of an operation, from the OpenAPI document. */
export type SignetRequest<E extends SignetEndpoint> = operations[E] extends {
  requestBody?: infer B;
}
  ? JsonOf<NonNullable<B>>
  : never;

/** The query parameters of an operation, from the OpenAPI document. */
export type SignetQuery<E extends SignetEndpoint> = operations[E]['parameters'] extends {
  query?: infer Q;
}
  ? NonNullable<Q>
  : never;

/** An error answer of the API, with its problem+json fields. */
export class SignetApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string | null;
  readonly errors: Array<{ path: string; message: string }>;

  constructor(status: number, problem: Partial<Problem>) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.name = 'SignetApiError';
    this.status = status;
    this.code = problem.code ?? 'unknown';
    this.title = problem.title ?? `HTTP ${status}`;
    this.detail = problem.detail ?? '';
    this.requestId = problem.requestId ?? null;
    this.errors = problem.errors ?? [];
  }
}

export type SignetClientOptions = {
  /** The service's {base_url}, e.g. https://sandbox.example.com */
  baseUrl: string;
  /** Sent as X-Api-Key; optional for the public operations alone (signing, verify, …). */
  apiKey?: string;
  /** Replaceable for tests or other runtimes; defaults to the global fetch. */
  fetch?: typeof fetch;
};

type Params = Record<string, string>;
type Query = Record<string, string | number | boolean | undefined>;

/** A request's body and extra headers. */
export type Body = {
  json?: unknown;
  form?: FormData;
  bytes?: { data: Blob; type: string };
  idempotencyKey?: string;
  headers?: Record<string, string>;
};

/** What the client's resource groups call. */
export type Transport = ReturnType<typeof createTransport>;

/** Binds the request helpers to one service, key and fetch. */
export function createTransport(options: SignetClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  // The answer of a call that succeeded; an error answer throws SignetApiError.
  async function send(
    endpoint: SignetEndpoint,
    params: Params,
    query: Query,
    body: Body,
    accept: string,
  ): Promise<Response> {
    const [method, template] = SIGNET_API_ENDPOINTS[endpoint];
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new TypeError(`${endpoint}: missing ${name}`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) search.set(k, String(v));
    const headers: Record<string, string> = { accept, ...body.headers };
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    if (body.idempotencyKey) headers['idempotency-key'] = body.idempotencyKey;
    if (body.json !== undefined) headers['content-type'] = 'application/json';
    if (body.bytes) headers['content-type'] = body.bytes.type;
    const res = await doFetch(`${base}${path}${search.size ? `?${search}` : ''}`, {
      method,
      headers,
      body:
        body.form ??
        body.bytes?.data ??
        (body.json === undefined ? undefined : JSON.stringify(body.json)),
    });
    if (!res.ok) throw await apiError(res);
    return res;
  }

  return {
    send,
    /** A JSON operation's answer, typed from the OpenAPI document. */
    async call<E extends SignetEndpoint>(
      endpoint: E,
      params: Params = {},
      query: Query = {},
      body: Omit<Body, 'json'> & { json?: SignetRequest<E> } = {},
    ): Promise<SignetAnswer<E>> {
      const text = await (await send(endpoint, params, query, body, 'application/json')).text();
      return (text ? JSON.parse(text) : undefined) as SignetAnswer<E>;
    },
    /** An operation that answers a file (a PDF): its bytes. */
    async bytes(endpoint: SignetEndpoint, params: Params, query: Query = {}, body: Body = {}) {
      const res = await send(endpoint, params, query, body, '*/*');
      return new Uint8Array(await res.arrayBuffer());
    },
    /** An operation that answers text (HTML, the metrics exposition). */
    async text(endpoint: SignetEndpoint, params: Params = {}, query: Query = {}) {
      return (await send(endpoint, params, query, {}, 'text/plain, text/html')).text();
    },
    /** GET of a URL the service handed out (a downloadUrl), with the same error handling. */
    async fetchUrl(url: string): Promise<Uint8Array> {
      const res = await doFetch(url, { headers: { accept: '*/*' } });
      if (!res.ok) throw await apiError(res);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}

async function apiError(res: Response): Promise<SignetApiError> {
  const text = await res.text();
  let problem: Partial<Problem> = {};
  try {
    problem = JSON.parse(text) as Partial<Problem>;
  } catch {
    problem = { detail: text.slice(0, 500) };
  }
  return new SignetApiError(res.status, problem);
}

/** A file for a multipart part: bytes become a Blob of the given type. */
export function toBlob(file: Blob | Uint8Array | ArrayBuffer, type = 'application/pdf'): Blob {
  if (file instanceof Blob) return file;
  return new Blob([file instanceof ArrayBuffer ? new Uint8Array(file) : new Uint8Array(file)], {
    type,
  });
}
