export {
  DEFAULT_TOLERANCE_SECONDS,
  WEBHOOK_EVENT_TYPES,
  isSignatureFailure,
  signWebhookPayload,
  verifyWebhook,
  type DocumentStatusChangedEvent,
  type SigneeStatusChangedEvent,
  type SigneeViewedEvent,
  type SigneeRemindedEvent,
  type EmailFailedEvent,
  type BulkSendCompletedEvent,
  type VerifyWebhookOptions,
  type VerifyWebhookResult,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookPayloadFailure,
  type WebhookRawBody,
  type WebhookSignatureFailure,
  type WebhookVerifyFailure,
} from './verify-webhook.js';
export {
  createMemoryEventStore,
  type MemoryEventStoreOptions,
  type WebhookEventStore,
} from './event-store.js';
export {
  handleWebhook,
  type HandleWebhookOptions,
  type WebhookDeliveryContext,
  type WebhookErrorCode,
  type WebhookHandlerResult,
  type WebhookHeaders,
  type WebhookReceiverOptions,
  type WebhookResponseBody,
} from './receiver.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  createExpressWebhookHandler,
  createNodeWebhookHandler,
  type ExpressLikeRequest,
  type NodeWebhookHandlerOptions,
} from './node-adapter.js';
export { fastifyWebhookPlugin, type FastifyWebhookPluginOptions } from './fastify-adapter.js';
export {
  SIGNET_API_ENDPOINTS,
  SignetApiError,
  createSignetClient,
  type SignetClient,
  type SignetClientOptions,
  type SignetEndpoint,
} from './client.js';
export type * from './client-types.js';
export type * from './template-types.js';
export {
  EVIDENCE_FORMAT_NAME,
  EVIDENCE_FORMAT_VERSION,
  verifyEvidence,
  type EvidenceDocument,
  type EvidenceStatus,
  type EvidenceVerification,
} from './verify-evidence.js';
export {
  canonicalJson,
  chainEntries,
  checkChain,
  entryHash,
  type ChainCheck,
} from './evidence-chain.js';
export type { CmsCheck } from './cms-signature.js';
export {
  mount,
  type SignetEmbedEvent,
  type SignetEmbedEventType,
  type SignetMountOptions,
  type SignetMountedSigning,
} from './embed.js';
