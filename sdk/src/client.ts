// A small typed client for the Signet API: fetch-based, authenticated with X-Api-Key, every
// error surfaced as a SignetApiError carrying the problem+json fields.
import type {
  BulkSend,
  BulkSendRow,
  BulkSendRowInput,
  BulkSendRowsPage,
  FromTemplateInput,
  FromTemplateResult,
  TemplateEdit,
  TemplateField,
  TemplateFieldInput,
  TemplateInput,
  TemplatePage,
  TemplateWithFields,
} from './template-types.js';
import type {
  DocumentPage,
  DocumentStatus,
  DocumentDetail,
  DocumentWithSignees,
  DocumentEdit,
  EventPage,
  Field,
  FieldInput,
  Folder,
  IdentityKey,
  Membership,
  Problem,
  QuickCreateInput,
  QuickCreateResult,
  SendForSigningResult,
  SigneeChange,
  SigneeEdit,
  SigneeInput,
  SigneeRole,
  Tenant,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookWithSecret,
} from './client-types.js';
import type { paths } from './openapi-types.js';
import type { WebhookEvent } from './verify-webhook.js';

import { SIGNET_API_ENDPOINTS } from './endpoints.js';

export { SIGNET_API_ENDPOINTS };

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

// Each call's request and answer types come from the OpenAPI document (openapi-types.ts is
// generated from docs/openapi/openapi.json by `npm run openapi`): the methods below declare
// the SDK's own types, and tsc checks that every answer fits them and every input fits the
// API, so the client cannot drift from the service.
type Endpoints = typeof SIGNET_API_ENDPOINTS;
type OperationOf<E extends SignetEndpoint> = paths[Endpoints[E][1]][Lowercase<Endpoints[E][0]>];
type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type AnswerOf<E extends SignetEndpoint> =
  OperationOf<E> extends { responses: infer R }
    ? {
        [S in keyof R]: S extends 200 | 201 | 202 ? JsonOf<R[S]> : S extends 204 ? void : never;
      }[keyof R]
    : never;
type RequestOf<E extends SignetEndpoint> =
  OperationOf<E> extends { requestBody: infer B } ? JsonOf<B> : never;

type Params = Record<string, string>;
type Query = Record<string, string | number | undefined>;
type Body<E extends SignetEndpoint> = {
  json?: RequestOf<E>;
  form?: FormData;
  idempotencyKey?: string;
};

/** Creates a client bound to one service and API key. */
export function createSignetClient(options: SignetClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  // The answer of a call that succeeded; an error answer throws SignetApiError.
  async function send<E extends SignetEndpoint>(
    endpoint: E,
    params: Params,
    query: Query,
    body: Body<E>,
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
    const headers: Record<string, string> = {
      'x-api-key': options.apiKey,
      accept,
    };
    if (body.idempotencyKey) headers['idempotency-key'] = body.idempotencyKey;
    if (body.json !== undefined) headers['content-type'] = 'application/json';
    const res = await doFetch(`${base}${path}${search.size ? `?${search}` : ''}`, {
      method,
      headers,
      body: body.form ?? (body.json === undefined ? undefined : JSON.stringify(body.json)),
    });
    if (!res.ok) {
      const text = await res.text();
      let problem: Partial<Problem> = {};
      try {
        problem = JSON.parse(text) as Partial<Problem>;
      } catch {
        problem = { detail: text.slice(0, 500) };
      }
      throw new SignetApiError(res.status, problem);
    }
    return res;
  }

  async function call<E extends SignetEndpoint>(
    endpoint: E,
    params: Params = {},
    query: Query = {},
    body: Body<E> = {},
  ): Promise<AnswerOf<E>> {
    const text = await (await send(endpoint, params, query, body, 'application/json')).text();
    return (text ? JSON.parse(text) : undefined) as AnswerOf<E>;
  }

  // An endpoint that answers a PDF: its bytes.
  async function download(endpoint: SignetEndpoint, params: Params): Promise<Uint8Array> {
    const res = await send(endpoint, params, {}, {}, 'application/pdf, application/problem+json');
    return new Uint8Array(await res.arrayBuffer());
  }

  /** `call`'s answer as the SDK's type: tsc checks that the API's answer fits it. */
  const typed = <T>(answer: Promise<T>): Promise<T> => answer;

  return {
    tenants: {
      /** Tenants the key's user belongs to. */
      list: async () => (await typed<{ tenants: Tenant[] }>(call('listTenants'))).tenants,
      /** The caller's membership and role in a tenant. */
      membership: async (tenantId: string) =>
        (await typed<{ membership: Membership }>(call('getMembership', { tenantId }))).membership,
      /** The public keys identity tokens for the tenant's signing links are checked against. */
      identityKeys: async (tenantId: string) =>
        (await typed<{ keys: IdentityKey[] }>(call('getIdentityKeys', { tenantId }))).keys,
      /** Replaces the tenant's identity keys (owners and admins); public JWKs only, at most 10. */
      setIdentityKeys: async (tenantId: string, keys: IdentityKey[]) =>
        (
          await typed<{ keys: IdentityKey[] }>(
            call('putIdentityKeys', { tenantId }, {}, { json: { keys } }),
          )
        ).keys,
    },
    webhooks: {
      /** Adds a callback URL; keep the returned secret, it is shown only here. */
      create: (tenantId: string, input: { url: string; active?: boolean }) =>
        typed<WebhookWithSecret>(call('createWebhook', { tenantId }, {}, { json: input })),
      /** The tenant's webhooks (without secrets). */
      list: async (tenantId: string) =>
        (await typed<{ webhooks: Webhook[] }>(call('listWebhooks', { tenantId }))).webhooks,
      /** One webhook. */
      get: async (tenantId: string, webhookId: string) =>
        (await typed<{ webhook: Webhook }>(call('getWebhook', { tenantId, webhookId }))).webhook,
      /** Changes url and/or active. */
      update: async (
        tenantId: string,
        webhookId: string,
        patch: { url?: string; active?: boolean },
      ) =>
        (
          await typed<{ webhook: Webhook }>(
            call('updateWebhook', { tenantId, webhookId }, {}, { json: patch }),
          )
        ).webhook,
      /** Deletes a webhook and its delivery log. */
      delete: (tenantId: string, webhookId: string) =>
        typed<void>(call('deleteWebhook', { tenantId, webhookId })),
      /** Replaces the signing secret at once; update your verifier with the returned one. */
      rotateSecret: (tenantId: string, webhookId: string) =>
        typed<WebhookWithSecret>(call('rotateWebhookSecret', { tenantId, webhookId })),
      /** A page of deliveries, newest first, each with every attempt. */
      deliveries: (
        tenantId: string,
        webhookId: string,
        page: { limit?: number; cursor?: string } = {},
      ) => typed<WebhookDeliveryPage>(call('listWebhookDeliveries', { tenantId, webhookId }, page)),
      /** Starts a fresh series of attempts for an event (same id, same body). */
      redeliver: async (tenantId: string, webhookId: string, eventId: string) =>
        (
          await typed<{ delivery: WebhookDelivery }>(
            call('redeliverEvent', {
              tenantId,
              webhookId,
              eventId,
            }),
          )
        ).delivery,
    },
    folders: {
      /** Creates a folder, at the top or inside `parentId`. */
      create: async (tenantId: string, input: { name: string; parentId?: string | null }) =>
        (await typed<{ folder: Folder }>(call('createFolder', { tenantId }, {}, { json: input })))
          .folder,
      /** Every folder of the tenant (the listing's pages in turn); each names its parent. */
      list: async (tenantId: string) => {
        const folders: Folder[] = [];
        let cursor: string | undefined;
        do {
          const page = await typed<{ folders: Folder[]; nextCursor: string | null }>(
            call('listFolders', { tenantId }, { limit: 1000, cursor }),
          );
          folders.push(...page.folders);
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        return folders;
      },
      /** One folder. */
      get: async (tenantId: string, folderId: string) =>
        (await typed<{ folder: Folder }>(call('getFolder', { tenantId, folderId }))).folder,
      /** Renames and/or moves a folder (parentId null: to the top). */
      update: async (
        tenantId: string,
        folderId: string,
        patch: { name?: string; parentId?: string | null },
      ) =>
        (
          await typed<{ folder: Folder }>(
            call('updateFolder', { tenantId, folderId }, {}, { json: patch }),
          )
        ).folder,
      /** Deletes an empty folder. */
      delete: (tenantId: string, folderId: string) =>
        typed<void>(call('deleteFolder', { tenantId, folderId })),
    },
    events: {
      /** One page of a tenant's events, in order, after an event id. */
      list: (query: { tenantId: string; after?: string; limit?: number }) =>
        typed<EventPage>(call('listEvents', {}, query)),
      /** Every event after `after` (all when omitted), page by page: for reconciliation. */
      async *iterate(query: { tenantId: string; after?: string }): AsyncGenerator<WebhookEvent> {
        let after = query.after;
        for (;;) {
          const page = await typed<EventPage>(
            call('listEvents', {}, { tenantId: query.tenantId, after }),
          );
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
        if (input.expiresAt !== undefined) form.append('expiresAt', input.expiresAt);
        if (input.reminders !== undefined)
          form.append('reminders', JSON.stringify(input.reminders));
        if (input.fields !== undefined) form.append('fields', JSON.stringify(input.fields));
        if (input.textTags !== undefined) form.append('textTags', String(input.textTags));
        if (input.externalId !== undefined) form.append('externalId', input.externalId);
        if (input.metadata !== undefined) form.append('metadata', JSON.stringify(input.metadata));
        if (input.redirectUrl !== undefined) form.append('redirectUrl', input.redirectUrl);
        const file =
          input.file instanceof Blob
            ? input.file
            : new Blob([new Uint8Array(input.file)], { type: 'application/pdf' });
        form.append('file', file, input.fileName ?? 'document.pdf');
        return typed<QuickCreateResult>(
          call('quickCreate', {}, {}, { form, idempotencyKey: input.idempotencyKey }),
        );
      },
      /** A document with its signees, its fields and a fresh download URL. */
      get: (documentId: string) => typed<DocumentDetail>(call('getDocument', { documentId })),
      /**
       * The audit certificate alone, as a sealed PDF made now: the trail so far, the hashes, in
       * the document's language. Any status but draft (then 409 `document_not_sent`).
       */
      getAuditCertificate: (documentId: string) => download('getAuditCertificate', { documentId }),
      /** A document's fields. */
      getFields: (documentId: string) =>
        typed<{ fields: Field[] }>(call('getFields', { documentId })),
      /** Replaces a draft's fields. */
      putFields: (documentId: string, fields: FieldInput[]) =>
        typed<{ fields: Field[] }>(call('putFields', { documentId }, {}, { json: { fields } })),
      /**
       * A page of a tenant's documents, newest first: by status, folder (its own documents),
       * pinned or not, `externalId` (exactly) and `q` (in the name or a signee's name or
       * e-mail, any case).
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
        /** Only the documents with exactly this externalId. */
        externalId?: string;
        limit?: number;
        cursor?: string;
      }) =>
        typed<DocumentPage>(
          call(
            'listDocuments',
            {},
            { ...query, pinned: pinned === undefined ? undefined : String(pinned) },
          ),
        ),
      /**
       * Changes a draft's settings, its externalId, metadata and redirectUrl (draft or in
       * process), or pins and files a document in any status.
       */
      update: (documentId: string, patch: DocumentEdit) =>
        typed<DocumentDetail>(call('updateDocument', { documentId }, {}, { json: patch })),
      /** Adds a signee to a draft. */
      addSignee: (documentId: string, signee: SigneeInput) =>
        typed<SigneeChange>(call('addSignee', { documentId }, {}, { json: signee })),
      /** Changes a draft's signee. */
      updateSignee: (documentId: string, signeeId: string, patch: SigneeEdit) =>
        typed<SigneeChange>(call('updateSignee', { documentId, signeeId }, {}, { json: patch })),
      /** Removes a draft's signee and their fields. */
      removeSignee: (documentId: string, signeeId: string) =>
        typed<void>(call('removeSignee', { documentId, signeeId })),
      /** Sends a draft for signing; check `deliveries` as well as the status. */
      sendForSigning: (documentId: string, options: { idempotencyKey?: string } = {}) =>
        typed<SendForSigningResult>(call('sendForSigning', { documentId }, {}, options)),
      /** Seals again a document in `seal_failed` (its `sealFailure` says why it failed). */
      retrySeal: (documentId: string) =>
        typed<DocumentWithSignees>(call('retrySeal', { documentId })),
      /** Makes a template of a draft: its signees become roles (named by `roles` if given). */
      saveAsTemplate: (
        documentId: string,
        input: {
          name: string;
          roles?: Array<string | { name: string; signingOrder?: number; role?: SigneeRole }>;
        },
      ) => typed<TemplateWithFields>(call('saveAsTemplate', { documentId }, {}, { json: input })),
    },
    templates: {
      /** Uploads a PDF as a template with its roles, and fields placed for roles. */
      create: (input: TemplateInput) => {
        const { tenantId, file, fileName, fields, textTags, idempotencyKey, ...template } = input;
        const form = new FormData();
        form.append('tenantId', tenantId);
        form.append('template', JSON.stringify(template));
        if (fields !== undefined) form.append('fields', JSON.stringify(fields));
        if (textTags !== undefined) form.append('textTags', String(textTags));
        const blob =
          file instanceof Blob
            ? file
            : new Blob([new Uint8Array(file)], { type: 'application/pdf' });
        form.append('file', blob, fileName ?? 'template.pdf');
        return typed<TemplateWithFields>(call('createTemplate', {}, {}, { form, idempotencyKey }));
      },
      /** A template with its fields and a fresh download URL. */
      get: (templateId: string) => typed<TemplateWithFields>(call('getTemplate', { templateId })),
      /** A page of a tenant's templates, newest first; `q` in the name, any case. */
      list: (query: { tenantId: string; q?: string; limit?: number; cursor?: string }) =>
        typed<TemplatePage>(call('listTemplates', {}, query)),
      /** Changes the name, settings, roles (the whole list) or direct link. */
      update: (templateId: string, patch: TemplateEdit) =>
        typed<TemplateWithFields>(call('updateTemplate', { templateId }, {}, { json: patch })),
      /** Publishes (or withdraws) the direct link of a one-role template; see `directLink.url`. */
      setDirectLink: (templateId: string, enabled: boolean) =>
        typed<TemplateWithFields>(
          call('updateTemplate', { templateId }, {}, { json: { directLink: { enabled } } }),
        ),
      /** Replaces a template's fields. */
      putFields: (templateId: string, fields: TemplateFieldInput[]) =>
        typed<{ fields: TemplateField[] }>(
          call('putTemplateFields', { templateId }, {}, { json: { fields } }),
        ),
      /** Deletes a template; documents made from it stay. */
      delete: (templateId: string) => typed<void>(call('deleteTemplate', { templateId })),
      /** A document from a template: signees per role, prefill by label; `send` sends it too. */
      createDocument: (
        templateId: string,
        input: FromTemplateInput,
        options: { idempotencyKey?: string } = {},
      ) =>
        typed<FromTemplateResult>(
          call('createDocumentFromTemplate', { templateId }, {}, { json: input, ...options }),
        ),
    },
    bulkSends: {
      /**
       * Sends a template to every row of a CSV file (`csv`: its bytes) or of JSON `rows`; the
       * rows go out in the background: follow them with `get` or `waitUntilCompleted`.
       */
      create: async (
        templateId: string,
        input: ({ csv: Uint8Array | Blob } | { rows: BulkSendRowInput[] }) & {
          idempotencyKey?: string;
        },
      ) => {
        const { idempotencyKey } = input;
        let body: { form: FormData } | { json: { rows: BulkSendRowInput[] } };
        if ('csv' in input) {
          const form = new FormData();
          const csv = input.csv instanceof Blob ? input.csv : new Blob([new Uint8Array(input.csv)]);
          form.append('csv', csv, 'rows.csv');
          body = { form };
        } else body = { json: { rows: input.rows } };
        return (
          await typed<{ bulkSend: BulkSend }>(
            call('createBulkSend', { templateId }, {}, { ...body, idempotencyKey }),
          )
        ).bulkSend;
      },
      /** A bulk send's progress. */
      get: async (bulkSendId: string) =>
        (await typed<{ bulkSend: BulkSend }>(call('getBulkSend', { bulkSendId }))).bulkSend,
      /** A page of its rows in row order, e.g. `{status: 'failed'}` with why each failed. */
      rows: (
        bulkSendId: string,
        query: { status?: BulkSendRow['status']; limit?: number; cursor?: string } = {},
      ) => typed<BulkSendRowsPage>(call('listBulkSendRows', { bulkSendId }, query)),
      /** A template's bulk sends, newest first. */
      list: (templateId: string, query: { limit?: number; cursor?: string } = {}) =>
        typed<{ bulkSends: BulkSend[]; nextCursor: string | null }>(
          call('listBulkSends', { templateId }, query),
        ),
      /** Polls until the bulk send is completed (every `intervalMs`, 1 s by default). */
      waitUntilCompleted: async (
        bulkSendId: string,
        options: { intervalMs?: number; timeoutMs?: number } = {},
      ) => {
        const deadline = Date.now() + (options.timeoutMs ?? 15 * 60_000);
        for (;;) {
          const bulk = (await typed<{ bulkSend: BulkSend }>(call('getBulkSend', { bulkSendId })))
            .bulkSend;
          if (bulk.status === 'completed') return bulk;
          if (Date.now() > deadline) {
            throw new Error(
              `bulk send ${bulkSendId} not completed in time (${bulk.created} of ${bulk.total} created)`,
            );
          }
          await new Promise((r) => setTimeout(r, options.intervalMs ?? 1000));
        }
      },
    },
  };
}

/** The client returned by createSignetClient. */
export type SignetClient = ReturnType<typeof createSignetClient>;
