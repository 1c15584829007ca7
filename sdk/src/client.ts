// A small typed client for the Signet API: fetch-based, authenticated with X-Api-Key, every
// error surfaced as a SignetApiError carrying the problem+json fields.
import type {
  DocumentPage,
  DocumentStatus,
  DocumentDetail,
  DocumentEdit,
  EventPage,
  Field,
  FieldInput,
  Folder,
  Membership,
  Problem,
  QuickCreateInput,
  QuickCreateResult,
  SendForSigningResult,
  SigneeChange,
  SigneeEdit,
  SigneeInput,
  Tenant,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookWithSecret,
} from './client-types.js';
import type { WebhookEvent } from './verify-webhook.js';

/**
 * Every endpoint the client calls, as method and OpenAPI path template. The client builds its
 * URLs from these, and a test checks each one against the service's /api/openapi.json.
 */
export const SIGNET_API_ENDPOINTS = {
  listTenants: ['GET', '/api/tenants'],
  getMembership: ['GET', '/api/tenants/{tenantId}'],
  createWebhook: ['POST', '/api/tenants/{tenantId}/webhooks'],
  listWebhooks: ['GET', '/api/tenants/{tenantId}/webhooks'],
  getWebhook: ['GET', '/api/tenants/{tenantId}/webhooks/{webhookId}'],
  updateWebhook: ['PATCH', '/api/tenants/{tenantId}/webhooks/{webhookId}'],
  deleteWebhook: ['DELETE', '/api/tenants/{tenantId}/webhooks/{webhookId}'],
  rotateWebhookSecret: ['POST', '/api/tenants/{tenantId}/webhooks/{webhookId}/rotate-secret'],
  listWebhookDeliveries: ['GET', '/api/tenants/{tenantId}/webhooks/{webhookId}/deliveries'],
  redeliverEvent: [
    'POST',
    '/api/tenants/{tenantId}/webhooks/{webhookId}/deliveries/{eventId}/redeliver',
  ],
  listEvents: ['GET', '/api/events'],
  quickCreate: ['POST', '/api/documents/quick-create'],
  getDocument: ['GET', '/api/documents/{documentId}'],
  getFields: ['GET', '/api/documents/{documentId}/fields'],
  putFields: ['PUT', '/api/documents/{documentId}/fields'],
  listDocuments: ['GET', '/api/documents'],
  sendForSigning: ['POST', '/api/documents/{documentId}/send-for-signing'],
  updateDocument: ['PATCH', '/api/documents/{documentId}'],
  addSignee: ['POST', '/api/documents/{documentId}/signees'],
  updateSignee: ['PATCH', '/api/documents/{documentId}/signees/{signeeId}'],
  removeSignee: ['DELETE', '/api/documents/{documentId}/signees/{signeeId}'],
  createFolder: ['POST', '/api/tenants/{tenantId}/folders'],
  listFolders: ['GET', '/api/tenants/{tenantId}/folders'],
  getFolder: ['GET', '/api/tenants/{tenantId}/folders/{folderId}'],
  updateFolder: ['PATCH', '/api/tenants/{tenantId}/folders/{folderId}'],
  deleteFolder: ['DELETE', '/api/tenants/{tenantId}/folders/{folderId}'],
} as const satisfies Record<string, readonly [string, string]>;

/** Name of an endpoint the client knows. */
export type SignetEndpoint = keyof typeof SIGNET_API_ENDPOINTS;

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
  apiKey: string;
  /** Replaceable for tests or other runtimes; defaults to the global fetch. */
  fetch?: typeof fetch;
};

type Params = Record<string, string>;
type Query = Record<string, string | number | undefined>;
type Body = { json?: unknown; form?: FormData; idempotencyKey?: string };

/** Creates a client bound to one service and API key. */
export function createSignetClient(options: SignetClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function call<T>(
    endpoint: SignetEndpoint,
    params: Params = {},
    query: Query = {},
    body: Body = {},
  ): Promise<T> {
    const [method, template] = SIGNET_API_ENDPOINTS[endpoint];
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new TypeError(`${endpoint}: missing ${name}`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) search.set(k, String(v));
    const headers: Record<string, string> = {
      'x-api-key': options.apiKey,
      accept: 'application/json',
    };
    if (body.idempotencyKey) headers['idempotency-key'] = body.idempotencyKey;
    if (body.json !== undefined) headers['content-type'] = 'application/json';
    const res = await doFetch(`${base}${path}${search.size ? `?${search}` : ''}`, {
      method,
      headers,
      body: body.form ?? (body.json === undefined ? undefined : JSON.stringify(body.json)),
    });
    const text = await res.text();
    if (!res.ok) {
      let problem: Partial<Problem> = {};
      try {
        problem = JSON.parse(text) as Partial<Problem>;
      } catch {
        problem = { detail: text.slice(0, 500) };
      }
      throw new SignetApiError(res.status, problem);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    tenants: {
      /** Tenants the key's user belongs to. */
      list: async () => (await call<{ tenants: Tenant[] }>('listTenants')).tenants,
      /** The caller's membership and role in a tenant. */
      membership: async (tenantId: string) =>
        (await call<{ membership: Membership }>('getMembership', { tenantId })).membership,
    },
    webhooks: {
      /** Adds a callback URL; keep the returned secret, it is shown only here. */
      create: (tenantId: string, input: { url: string; active?: boolean }) =>
        call<WebhookWithSecret>('createWebhook', { tenantId }, {}, { json: input }),
      /** The tenant's webhooks (without secrets). */
      list: async (tenantId: string) =>
        (await call<{ webhooks: Webhook[] }>('listWebhooks', { tenantId })).webhooks,
      /** One webhook. */
      get: async (tenantId: string, webhookId: string) =>
        (await call<{ webhook: Webhook }>('getWebhook', { tenantId, webhookId })).webhook,
      /** Changes url and/or active. */
      update: async (
        tenantId: string,
        webhookId: string,
        patch: { url?: string; active?: boolean },
      ) =>
        (
          await call<{ webhook: Webhook }>(
            'updateWebhook',
            { tenantId, webhookId },
            {},
            { json: patch },
          )
        ).webhook,
      /** Deletes a webhook and its delivery log. */
      delete: (tenantId: string, webhookId: string) =>
        call<void>('deleteWebhook', { tenantId, webhookId }),
      /** Replaces the signing secret at once; update your verifier with the returned one. */
      rotateSecret: (tenantId: string, webhookId: string) =>
        call<WebhookWithSecret>('rotateWebhookSecret', { tenantId, webhookId }),
      /** A page of deliveries, newest first, each with every attempt. */
      deliveries: (
        tenantId: string,
        webhookId: string,
        page: { limit?: number; cursor?: string } = {},
      ) => call<WebhookDeliveryPage>('listWebhookDeliveries', { tenantId, webhookId }, page),
      /** Starts a fresh series of attempts for an event (same id, same body). */
      redeliver: async (tenantId: string, webhookId: string, eventId: string) =>
        (
          await call<{ delivery: WebhookDelivery }>('redeliverEvent', {
            tenantId,
            webhookId,
            eventId,
          })
        ).delivery,
    },
    folders: {
      /** Creates a folder, at the top or inside `parentId`. */
      create: async (tenantId: string, input: { name: string; parentId?: string | null }) =>
        (await call<{ folder: Folder }>('createFolder', { tenantId }, {}, { json: input })).folder,
      /** Every folder of the tenant; each names its parent. */
      list: async (tenantId: string) =>
        (await call<{ folders: Folder[] }>('listFolders', { tenantId })).folders,
      /** One folder. */
      get: async (tenantId: string, folderId: string) =>
        (await call<{ folder: Folder }>('getFolder', { tenantId, folderId })).folder,
      /** Renames and/or moves a folder (parentId null: to the top). */
      update: async (
        tenantId: string,
        folderId: string,
        patch: { name?: string; parentId?: string | null },
      ) =>
        (
          await call<{ folder: Folder }>(
            'updateFolder',
            { tenantId, folderId },
            {},
            { json: patch },
          )
        ).folder,
      /** Deletes an empty folder. */
      delete: (tenantId: string, folderId: string) =>
        call<void>('deleteFolder', { tenantId, folderId }),
    },
    events: {
      /** One page of a tenant's events, in order, after an event id. */
      list: (query: { tenantId: string; after?: string; limit?: number }) =>
        call<EventPage>('listEvents', {}, query),
      /** Every event after `after` (all when omitted), page by page: for reconciliation. */
      async *iterate(query: { tenantId: string; after?: string }): AsyncGenerator<WebhookEvent> {
        let after = query.after;
        for (;;) {
          const page = await call<EventPage>('listEvents', {}, { tenantId: query.tenantId, after });
          yield* page.events;
          if (!page.hasMore || page.events.length === 0) return;
          after = page.events[page.events.length - 1].id;
        }
      },
    },
    documents: {
      /** Uploads a PDF with its signees; the document starts in draft. */
      quickCreate: (input: QuickCreateInput) => {
        const form = new FormData();
        form.append('tenantId', input.tenantId);
        form.append('signees', JSON.stringify(input.signees));
        if (input.name !== undefined) form.append('name', input.name);
        if (input.signingMessage !== undefined) form.append('signingMessage', input.signingMessage);
        if (input.signingOrderEnabled !== undefined) {
          form.append('signingOrderEnabled', String(input.signingOrderEnabled));
        }
        if (input.fields !== undefined) form.append('fields', JSON.stringify(input.fields));
        if (input.textTags !== undefined) form.append('textTags', String(input.textTags));
        const file =
          input.file instanceof Blob
            ? input.file
            : new Blob([new Uint8Array(input.file)], { type: 'application/pdf' });
        form.append('file', file, input.fileName ?? 'document.pdf');
        return call<QuickCreateResult>(
          'quickCreate',
          {},
          {},
          { form, idempotencyKey: input.idempotencyKey },
        );
      },
      /** A document with its signees, its fields and a fresh download URL. */
      get: (documentId: string) => call<DocumentDetail>('getDocument', { documentId }),
      /** A document's fields. */
      getFields: (documentId: string) => call<{ fields: Field[] }>('getFields', { documentId }),
      /** Replaces a draft's fields. */
      putFields: (documentId: string, fields: FieldInput[]) =>
        call<{ fields: Field[] }>('putFields', { documentId }, {}, { json: { fields } }),
      /**
       * A page of a tenant's documents, newest first: by status, folder (its own documents),
       * pinned or not, and `q` (in the name or a signee's name or e-mail, any case).
       */
      list: ({
        pinned,
        ...query
      }: {
        tenantId: string;
        status?: DocumentStatus;
        folderId?: string;
        pinned?: boolean;
        q?: string;
        limit?: number;
        cursor?: string;
      }) =>
        call<DocumentPage>(
          'listDocuments',
          {},
          { ...query, pinned: pinned === undefined ? undefined : String(pinned) },
        ),
      /** Changes a draft's settings, or pins and files a document in any status. */
      update: (documentId: string, patch: DocumentEdit) =>
        call<DocumentDetail>('updateDocument', { documentId }, {}, { json: patch }),
      /** Adds a signee to a draft. */
      addSignee: (documentId: string, signee: SigneeInput) =>
        call<SigneeChange>('addSignee', { documentId }, {}, { json: signee }),
      /** Changes a draft's signee. */
      updateSignee: (documentId: string, signeeId: string, patch: SigneeEdit) =>
        call<SigneeChange>('updateSignee', { documentId, signeeId }, {}, { json: patch }),
      /** Removes a draft's signee and their fields. */
      removeSignee: (documentId: string, signeeId: string) =>
        call<void>('removeSignee', { documentId, signeeId }),
      /** Sends a draft for signing; check `deliveries` as well as the status. */
      sendForSigning: (documentId: string, options: { idempotencyKey?: string } = {}) =>
        call<SendForSigningResult>('sendForSigning', { documentId }, {}, options),
    },
  };
}

/** The client returned by createSignetClient. */
export type SignetClient = ReturnType<typeof createSignetClient>;
