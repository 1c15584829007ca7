// A typed client for every operation of the Signet API: fetch-based, authenticated with
// X-Api-Key, every error surfaced as a SignetApiError carrying the problem+json fields. The
// methods live by resource in client-*.ts; transport.ts types each call from the OpenAPI
// document, and test/sdk/coverage.test.ts fails when an operation has no method.
import { documentsApi } from './client-documents.js';
import {
  accountApi,
  copiesApi,
  sandboxApi,
  serviceApi,
  signingApi,
  verifyPdf,
} from './client-public.js';
import { bulkSendsApi, directLinksApi, templatesApi } from './client-templates.js';
import { foldersApi, tenantsApi } from './client-tenants.js';
import { eventsApi, webhooksApi } from './client-webhooks.js';
import { SIGNET_API_ENDPOINTS } from './endpoints.js';
import { createTransport, type SignetClientOptions } from './transport.js';

export { SIGNET_API_ENDPOINTS };
export {
  SignetApiError,
  type SignetAnswer,
  type SignetClientOptions,
  type SignetEndpoint,
  type SignetQuery,
  type SignetRequest,
} from './transport.js';

/** Creates a client bound to one service and API key. */
export function createSignetClient(options: SignetClientOptions) {
  const t = createTransport(options);
  return {
    service: serviceApi(t),
    account: accountApi(t),
    tenants: tenantsApi(t),
    folders: foldersApi(t),
    webhooks: webhooksApi(t),
    events: eventsApi(t),
    documents: documentsApi(t),
    templates: templatesApi(t),
    bulkSends: bulkSendsApi(t),
    directLinks: directLinksApi(t),
    /** Checks any PDF's signatures and evidence on the service (public; rate limited). */
    verify: verifyPdf(t),
    copies: copiesApi(t),
    signing: signingApi(t),
    sandbox: sandboxApi(t),
  };
}

/** The client returned by createSignetClient. */
export type SignetClient = ReturnType<typeof createSignetClient>;
