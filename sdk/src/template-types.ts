// The SDK's types for templates, direct links and bulk send (decisions §11), beside
// client-types.ts; test/types/api-types.test.ts ties each to the server's schemas.
import type {
  FieldPlacement,
  InvitationDelivery,
  Field,
  RemindersInput,
  Signee,
  SigneeRole,
  SigneeAuth,
  SignetDocument,
} from './client-types.js';

type EmailLanguage =
  'en' | 'de' | 'fr' | 'es' | 'nl' | 'pt' | 'it' | 'pl' | 'ja' | 'zh' | 'ko' | 'ar';

/**
 * One of a template's roles: who signs in its place on each document made from it; `role` is
 * their recipient role (signer, approver or cc).
 */
export type TemplateRole = {
  id: string;
  name: string;
  signingOrder: number | null;
  role: SigneeRole;
};

/** A reusable draft: a PDF, roles instead of signees, fields placed for roles, settings. */
export type Template = {
  id: string;
  tenantId: string;
  name: string;
  roles: TemplateRole[];
  signingMessage: string | null;
  emailLanguage: EmailLanguage;
  signingOrderEnabled: boolean | null;
  /** `url` is `{base_url}/t/{token}` while enabled, else null. */
  directLink: { enabled: boolean; url: string | null };
  createdAt: string;
  updatedAt: string;
  /** The uploaded file's name. */
  originalFile: string;
  pageCount: number;
  /** Short-lived URL of the template's PDF. */
  downloadUrl: string;
};

/** A field placed on a template for a role; `value` is prefilled on every document made. */
export type TemplateField = Omit<Field, 'signeeId' | 'filledAt'> & { roleId: string };

/** What the template routes answer. */
export type TemplateWithFields = { template: Template; fields: TemplateField[] };

/** GET /api/templates. */
export type TemplatePage = { templates: Template[]; nextCursor: string | null };

/** The settings a template takes, and gives each document made from it. */
type TemplateSettings = {
  signingMessage?: string | null;
  emailLanguage?: EmailLanguage;
  signingOrderEnabled?: boolean | null;
};

/** POST /api/templates: the PDF, the roles, optional fields for roles (by position). */
export type TemplateInput = TemplateSettings & {
  tenantId: string;
  file: Uint8Array | Blob;
  fileName?: string;
  name: string;
  /** `role`: the recipient role of whoever fills it, `signer` by default. */
  roles: Array<{ name: string; signingOrder?: number; role?: SigneeRole }>;
  fields?: Array<FieldPlacement & { role: number }>;
  /** Turn `{{TYPE:N}}` tags in the PDF's text into fields, N the 1-based role. */
  textTags?: boolean;
  idempotencyKey?: string;
};

/** PATCH /api/templates/{id}: `roles` is the whole new list (an entry with an id keeps it). */
export type TemplateEdit = TemplateSettings & {
  name?: string;
  roles?: Array<{ id?: string; name: string; signingOrder?: number; role?: SigneeRole }>;
  directLink?: { enabled: boolean };
};

/** A field in PUT /api/templates/{id}/fields: its role by id, its own id to keep it. */
export type TemplateFieldInput = FieldPlacement & { id?: string; roleId: string };

/** POST /api/templates/{id}/documents. */
export type FromTemplateInput = {
  name?: string;
  /** One per role: the role's name (any case) or 0-based index. */
  signees: Array<{
    role: string | number;
    email: string;
    name: string;
    language?: EmailLanguage;
    auth?: SigneeAuth;
    /** With `auth: 'access_code'`: 4 to 64 characters; stored hashed, never shown again. */
    accessCode?: string;
  }>;
  /** Values by field label: text, checkbox (true/false) or a dropdown's option. */
  prefill?: Record<string, string | boolean>;
  externalId?: string;
  metadata?: Record<string, string>;
  /** When the signing expires (ISO 8601, in the future). */
  expiresAt?: string;
  /** Automatic reminders for this document; null: none; absent: the tenant's defaults. */
  reminders?: RemindersInput | null;
  /** Where signees go after signing or declining: https (http only to loopback hosts). */
  redirectUrl?: string;
  /** Send for signing in the same request. */
  send?: boolean;
};

/** The answer of create-from-template; `deliveries` only when it was sent. */
export type FromTemplateResult = {
  document: SignetDocument;
  signees: Signee[];
  fields: Field[];
  deliveries?: InvitationDelivery[];
};

/** A bulk send's progress (GET /api/bulk-sends/{id}). */
export type BulkSend = {
  id: string;
  templateId: string;
  status: 'queued' | 'running' | 'completed';
  /** Rows in the file. */
  total: number;
  /** Rows whose document was created and sent. */
  created: number;
  /** Rows refused: `rows({status: 'failed'})` says why. */
  failed: number;
  createdAt: string;
  finishedAt: string | null;
  /** While the tenant's daily e-mail quota is spent: when rows go out again. */
  waitingUntil: string | null;
};

/** One row of a bulk send: 1-based data row (the CSV header is not counted). */
export type BulkSendRow = {
  row: number;
  status: 'pending' | 'created' | 'failed';
  error: string | null;
  documentId: string | null;
};

/** GET /api/bulk-sends/{id}/rows. */
export type BulkSendRowsPage = { rows: BulkSendRow[]; nextCursor: string | null };

/**
 * One JSON row of a bulk send: what create-from-template takes, without `send` (nor signer
 * verification: bulk sends make signees whose links ask for nothing more).
 */
export type BulkSendRowInput = Pick<FromTemplateInput, 'prefill' | 'externalId'> & {
  signees: Array<Omit<FromTemplateInput['signees'][number], 'auth' | 'accessCode'>>;
};
