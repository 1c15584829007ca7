// Resource types of the Signet API as the client returns them. They mirror the response
// schemas in /api/openapi.json; test/webhooks/sdk-client.test.ts checks the client's endpoints
// against the live document and exercises every method against a running service.
import type { WebhookEvent } from './verify-webhook.js';

export type TenantRole = 'owner' | 'admin' | 'member';

export type Tenant = { id: string; name: string; role: TenantRole; createdAt: string };

export type Membership = { tenantId: string; userId: string; role: TenantRole; createdAt: string };

/**
 * A tenant's logo (`GET|PUT /api/tenants/{id}/logo`): its public URL (unguessable, immutable; a
 * new one each upload) and its size in pixels, at most 400 x 120.
 */
export type TenantLogo = { url: string; width: number; height: number };

/** A tenant's brand as the signing page gets it (`brand` of `GET /api/signing/{token}`). */
export type SigningBrand = { name: string | null; color: string | null; logoUrl: string | null };

export type DocumentStatus =
  'draft' | 'in_process' | 'pending_seal' | 'seal_failed' | 'signed' | 'declined' | 'cancelled';

export type SignetDocument = {
  id: string;
  tenantId: string;
  folderId: string | null;
  name: string;
  status: DocumentStatus;
  pinned: string | null;
  createdAt: string;
  updatedAt: string;
  source: string;
  userId: string;
  signingMethod: string;
  signingMessage: string | null;
  signingOrderEnabled: boolean | null;
  signingGroupsEnabled: boolean;
  reminderCooldownUntil: string | null;
  emailLanguage: string;
  file: string;
  originalFile: string;
  hash: string | null;
  /**
   * How the sealed file was made, null until signed: `normalised` (the original rewritten as one
   * clean file, values drawn on its pages), `incremental` (a signed original kept byte for byte,
   * pages and seal appended), `attached` (the original attached unchanged).
   */
  sealMode: 'normalised' | 'incremental' | 'attached' | null;
  /**
   * The PAdES level the seal reached, null until signed; lower than the service's SEAL_LEVEL
   * only when a time-stamp authority or revocation source stayed down through every retry.
   */
  sealLevel: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA' | null;
  /** While `seal_failed`: why nothing could be sealed; `retrySeal` tries again. */
  sealFailure: string | null;
  /** The template it was made from (`source` template, direct_link or bulk_send), else null. */
  templateId: string | null;
  /** Your own id for the document. */
  externalId: string | null;
  /** Your own flat object of strings. */
  metadata: Record<string, string> | null;
  /** When the signing expires (cancelled with `cancelReason` "expired" if still in process); null: never. */
  expiresAt: string | null;
  /** Why a cancelled document was cancelled: "expired", or null (its sender cancelled it). */
  cancelReason: 'expired' | null;
  /**
   * Automatic reminders: set on the document, or once sent the tenant's defaults as they were
   * then; null: none (or, in a draft, the tenant's defaults at sending).
   */
  reminders: Reminders | null;
  /**
   * Where the signing page sends each signee after they sign or decline, with
   * `?documentId=…&signeeId=…&event=signed|declined` appended.
   */
  redirectUrl: string | null;
  /** When it became signed (sealed); null before. */
  completedAt: string | null;
  /** Short-lived; retrieve the document again for a fresh one. */
  downloadUrl: string;
};

/**
 * What a signee is asked to do: `signer` signs; `approver` approves or rejects in the signing
 * order (no signature, no field); `cc` gets no link and no turn, only the signed copy and the
 * decline/cancel notices (their status stays `pending`).
 */
export type SigneeRole = 'signer' | 'approver' | 'cc';

export type Signee = {
  id: string;
  documentId: string;
  email: string;
  name: string;
  /** `signed` for an approver who approved; a cc recipient's stays `pending`. */
  status: 'pending' | 'signed' | 'declined';
  role: SigneeRole;
  userId: string;
  signingOrder: number | null;
  signingGroupId: string | null;
  signedAt: string | null;
  /** When the signing link was first sent or issued. */
  invitedAt: string | null;
  /** When the signee first opened their signing link. */
  openedAt: string | null;
  declinedAt: string | null;
  /** The reason the signee gave when declining. */
  declineReason: string | null;
  /** The signee's own e-mail language; null: the document's `emailLanguage`. */
  language: string | null;
  /** What the signing link asks for before it opens (the access code itself is never shown). */
  auth: SigneeAuth;
  createdAt: string;
  updatedAt: string;
};

/**
 * Signer verification (docs/signing.md): `none`, an `access_code` you set and hand over
 * yourself, or `email_otp`, a 6-digit code e-mailed to the signee on request. An identity token
 * from your application (see `IdentityKey`) satisfies any of them.
 */
export type SigneeAuth = 'none' | 'access_code' | 'email_otp';

export type SigneeInput = {
  email: string;
  name: string;
  signingOrder?: number;
  signingGroupId?: string;
  /** Default `signer`; a document needs at least one signer or approver. */
  role?: SigneeRole;
  auth?: SigneeAuth;
  /** With `auth: 'access_code'`: 4 to 64 characters; stored hashed, never shown again. */
  accessCode?: string;
};

/**
 * A public key your application signs identity tokens with (a JWK): RSA of at least 2048 bits
 * (RS256) or EC P-256 (ES256), with its own `kid`. Never a private key.
 */
export type IdentityKey = {
  kty: 'RSA' | 'EC';
  kid: string;
  alg?: 'RS256' | 'ES256';
  use?: 'sig';
  n?: string;
  e?: string;
  crv?: 'P-256';
  x?: string;
  y?: string;
};

/**
 * What `PATCH /api/documents/{id}` may change: the first five only in draft, externalId,
 * metadata and redirectUrl in draft or in process (null clears them), the rest in any status.
 */
export type DocumentEdit = {
  name?: string;
  signingMessage?: string | null;
  emailLanguage?: 'en' | 'de' | 'fr' | 'es' | 'nl' | 'pt' | 'it' | 'pl' | 'ja' | 'zh' | 'ko' | 'ar';
  signingOrderEnabled?: boolean | null;
  signingGroupsEnabled?: boolean;
  /** true pins the document at the current time, false unpins it. */
  pinned?: boolean;
  /** A folder of the same tenant, or null for none. */
  folderId?: string | null;
  /** The deadline (ISO 8601, in the future), while draft or in process; null removes it. */
  expiresAt?: string | null;
  /** Your own id for the document, at most 255 characters. */
  externalId?: string | null;
  /** The whole new object of strings (not merged), at most 4 KiB as JSON. */
  metadata?: Record<string, string> | null;
  /** https (http only to localhost, 127.0.0.1, [::1]), at most 2,048 characters. */
  redirectUrl?: string | null;
  /** Automatic reminders, while draft or in process; null: none. */
  reminders?: RemindersInput | null;
};

/** A document's automatic reminders: days after each invitation, days between, at most. */
export type Reminders = { firstAfterDays: number; everyDays: number | null; max: number };

/**
 * Automatic reminders as input: give `firstAfterDays` or `everyDays` (the first defaults to
 * `everyDays`; `everyDays` null or absent: only one reminder); `max` defaults to 3.
 */
export type RemindersInput = {
  firstAfterDays?: number;
  everyDays?: number | null;
  max?: number;
};

/** What `PATCH …/signees/{signeeId}` may change on a draft's signee. */
export type SigneeEdit = {
  email?: string;
  name?: string;
  signingOrder?: number | null;
  signingGroupId?: string | null;
  role?: SigneeRole;
  auth?: SigneeAuth;
  /** A new access code (4 to 64 characters); implies `auth: 'access_code'`. */
  accessCode?: string;
};

/** The answer of the signee routes: the signee and the document as it now stands. */
export type SigneeChange = DocumentDetail & { signee: Signee };

/** A folder of a tenant's documents; `parentId` null at the top. */
export type Folder = {
  id: string;
  tenantId: string;
  name: string;
  parentId: string | null;
  createdAt: string;
};

export type QuickCreateInput = {
  tenantId: string;
  /** The PDF (below 50 MiB). */
  file: Blob | Uint8Array | ArrayBuffer;
  fileName?: string;
  signees: SigneeInput[];
  name?: string;
  signingMessage?: string;
  signingOrderEnabled?: boolean;
  /** Signees sharing a `signingGroupId` are alternatives: the first to sign signs for the group. */
  signingGroupsEnabled?: boolean;
  /** When the signing expires (ISO 8601, in the future). */
  expiresAt?: string;
  /** Automatic reminders for this document; null: none; absent: the tenant's defaults. */
  reminders?: RemindersInput | null;
  /** Fields on the document's pages; `signee` is the 0-based position in `signees`. */
  fields?: QuickCreateFieldInput[];
  /** Turns `{{TYPE:N}}` tags in the PDF's text into fields. */
  textTags?: boolean;
  /** Your own id for the document (at most 255 characters); `list({externalId})` finds it. */
  externalId?: string;
  /** Your own flat object of strings, at most 4 KiB as JSON. */
  metadata?: Record<string, string>;
  /** Where signees go after signing or declining: https (http only to loopback hosts). */
  redirectUrl?: string;
  /** Replays the first response when the same request is repeated within 24 h. */
  idempotencyKey?: string;
};

/** The kinds of field (docs/fields.md). */
export type FieldType =
  | 'signature'
  | 'initials'
  | 'date'
  | 'name'
  | 'email'
  | 'text'
  | 'checkbox'
  | 'dropdown'
  | 'attachment'
  | 'radio'
  | 'number';

/** A text field's rules: `pattern` is an RE2 expression the whole value must match. */
export type TextValidation = {
  format?: 'email' | 'phone' | 'digits' | 'date';
  pattern?: string;
  minLength?: number;
  maxLength?: number;
};

/** Shows a field only while the checkbox, radio or dropdown labelled `field` holds `equals`. */
export type ShowIf = { field: string; equals: string | boolean };

/** A field's place and settings, in PDF points from the top-left of the page as displayed. */
export type FieldPlacement = {
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required?: boolean;
  label?: string | null;
  options?: string[] | null;
  value?: string | boolean | null;
  min?: number | null;
  max?: number | null;
  decimals?: number | null;
  validation?: TextValidation | null;
  showIf?: ShowIf | null;
};

/** A field in quick-create: its signee by 0-based position. */
export type QuickCreateFieldInput = FieldPlacement & { signee: number };

/** A field in `PUT /api/documents/{id}/fields`: its signee by id. */
export type FieldInput = FieldPlacement & { signeeId: string };

/** A field as the API answers it. */
export type Field = {
  id: string;
  signeeId: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string | null;
  options: string[] | null;
  value: string | boolean | null;
  filledAt: string | null;
  min: number | null;
  max: number | null;
  decimals: number | null;
  validation: TextValidation | null;
  showIf: ShowIf | null;
};

export type QuickCreateResult = {
  message: string;
  document: SignetDocument;
  signees: Signee[];
  fields: Field[];
  contentType: string;
};

export type DocumentWithSignees = { document: SignetDocument; signees: Signee[] };

/** GET /api/documents/{id}: the document, its signees and its fields. */
export type DocumentDetail = DocumentWithSignees & { fields: Field[] };

/** Per-recipient invitation result of send-for-signing: inspect it along with the status. */
export type InvitationDelivery = {
  signeeId: string;
  email: string;
  status: 'sent' | 'scheduled' | 'failed' | 'link';
  error: string | null;
  signingUrl?: string;
};

export type SendForSigningResult = DocumentWithSignees & { deliveries: InvitationDelivery[] };

export type DocumentPage = { documents: SignetDocument[]; nextCursor: string | null };

/**
 * A tenant's home counts (GET /api/documents/summary); each is the size of a listing:
 * `status=in_process`, `status=draft`, `completedSince`, `emailFailed=true`.
 */
export type DocumentSummary = {
  inProcess: number;
  draft: number;
  completed: number;
  /** The start of `completed`: the one asked for, else 7 days ago. */
  completedSince: string;
  /** In process, with a pending signee whose invitation or reminder was refused for good. */
  emailFailed: number;
};

export type Webhook = { id: string; url: string; active: boolean; createdAt: string };

/** Create and rotate answers: the only responses that carry the signing secret. */
export type WebhookWithSecret = { webhook: Webhook; secret: string };

export type WebhookAttempt = {
  attempt: number;
  scheduledAt: string;
  startedAt: string;
  finishedAt: string | null;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
};

export type WebhookDelivery = {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  createdAt: string;
  dispatchedAt: string | null;
  completedAt: string | null;
  attempts: WebhookAttempt[];
};

export type WebhookDeliveryPage = { deliveries: WebhookDelivery[]; nextCursor: string | null };

/** One page of the events feed; each event is the envelope its webhooks delivered. */
export type EventPage = { events: WebhookEvent[]; hasMore: boolean };

/** The problem+json body of every API error (RFC 9457). */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId: string;
  errors?: Array<{ path: string; message: string }>;
};
