// Timestamps are ISO 8601 UTC strings with milliseconds on both engines: they sort as text,
// compare portably and leave the database exactly as the API shows them. Booleans are 0/1.

import type { ColumnType } from 'kysely';

export type UsersTable = {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
};

export type EmailVerificationsTable = {
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

/** A password reset token (hash only): 1 hour, single use, replaced by a newer request. */
export type PasswordResetsTable = {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
};

/** What happened to an account, for its audit log (and the recovery e-mail spacing). */
export type AccountEventType =
  'verification_resent' | 'password_reset_requested' | 'password_reset';

/** One account-level audit event. */
export type AccountEventsTable = {
  id: string;
  user_id: string;
  type: AccountEventType;
  ip: string | null;
  created_at: string;
};

export type SessionsTable = {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
};

export type ApiKeysTable = {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  last_four: string;
  environment: 'sandbox' | 'production';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

export type TenantsTable = {
  id: string;
  name: string;
  email_language: string;
  invitation_emails: number;
  signee_events: number;
  /**
   * JSON array of the event types the tenant opted into (decisions §12); `[]` by default, which
   * an insert may leave to the database.
   */
  webhook_events: ColumnType<string, string | undefined, string>;
  reminder_cooldown_minutes: number;
  /** Days from sending after which a document expires, unless it sets its own; null: never. */
  expiry_days: number | null;
  /** Automatic reminders' defaults (decisions §12): days after an invitation, then between. */
  reminder_first_after_days: number | null;
  reminder_every_days: number | null;
  /** At most this many automatic reminders per signee. */
  reminder_max: ColumnType<number, number | undefined, number>;
  /**
   * JSON array of the origins that may frame the tenant's signing pages (decisions §13),
   * normalised, `[]` by default.
   */
  embed_origins: ColumnType<string, string | undefined, string>;
  /** Branding (decisions §13): name and `#rrggbb` colour on pages and e-mails; null: Signet's. */
  brand_name: string | null;
  brand_color: string | null;
  /** The re-encoded logo's storage key (brand/<tenant id>/<public name>.png) and size; null: none. */
  logo_key: string | null;
  logo_width: number | null;
  logo_height: number | null;
  credit_balance: number;
  created_at: string;
  updated_at: string;
};

export type MembershipsTable = {
  tenant_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'member';
  created_at: string;
};

/** An invitation to join a tenant; `expired` is not a status but `expires_at` in the past. */
export type MemberInvitationsTable = {
  id: string;
  tenant_id: string;
  /** Lower-cased. */
  email: string;
  role: 'owner' | 'admin' | 'member';
  token_hash: string;
  invited_by: string;
  status: 'pending' | 'accepted' | 'revoked';
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
};

export type CreditLedgerTable = {
  id: string;
  tenant_id: string;
  delta: number;
  reason: string;
  reference: string | null;
  created_at: string;
};

export type EmailsTable = {
  id: string;
  tenant_id: string | null;
  to_address: string;
  subject: string;
  html: string;
  text: string;
  /** `failed`: the last attempt failed and another follows; `refused`: refused for good. */
  status: 'queued' | 'sent' | 'stored' | 'failed' | 'refused';
  error: string | null;
  message_id: string | null;
  created_at: string;
  sent_at: string | null;
  /** JSON {key, filename, contentType, size}: a stored file attached at delivery. */
  attachment: string | null;
  /** An e-mail to a signee: its document, signee and kind, audited with its outcome. */
  document_id: string | null;
  signee_id: string | null;
  kind: string | null;
};

export type JobsTable = {
  id: string;
  kind: string;
  payload: string;
  run_at: string;
  /** A job that did its work is deleted (jobs/queue.ts deleteFinishedJobs). */
  status: 'pending' | 'running' | 'failed';
  attempts: number;
  max_attempts: number;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
};

/** Every table of the database, for Kysely's typing. */
export type Database = {
  users: UsersTable;
  email_verifications: EmailVerificationsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  tenants: TenantsTable;
  memberships: MembershipsTable;
  credit_ledger: CreditLedgerTable;
  emails: EmailsTable;
  jobs: JobsTable;
  documents: DocumentsTable;
  signees: SigneesTable;
  events: EventsTable;
  audit_entries: AuditEntriesTable;
  idempotency_keys: IdempotencyKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  tenant_mail_counts: TenantMailCountsTable;
  member_invitations: MemberInvitationsTable;
  folders: FoldersTable;
  copy_links: CopyLinksTable;
  password_resets: PasswordResetsTable;
  account_events: AccountEventsTable;
  recipient_mail_limits: RecipientMailLimitsTable;
  issued_certificates: IssuedCertificatesTable;
  templates: TemplatesTable;
  bulk_sends: BulkSendsTable;
  bulk_send_rows: BulkSendRowsTable;
  signee_auth_state: SigneeAuthStateTable;
  tenant_identity_keys: TenantIdentityKeysTable;
  identity_token_uses: IdentityTokenUsesTable;
  tenant_activity: TenantActivityTable;
  field_attachments: FieldAttachmentsTable;
};

/** A file a signee attached for an `attachment` field (migration 0033). */
export type FieldAttachmentsTable = {
  id: string;
  document_id: string;
  signee_id: string;
  field_id: string | null;
  file: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: string;
};

/**
 * A tenant's reusable draft (decisions §11): a stored PDF, roles instead of signees, fields
 * placed for roles. Documents made from it share `file`.
 */
export type TemplatesTable = {
  id: string;
  tenant_id: string;
  /** Who made it: the sender of documents its direct link makes. */
  user_id: string;
  name: string;
  /**
   * JSON [{id, name, signingOrder, role}]: 1 to 100 roles, names unique ignoring case; `role`
   * is the recipient role of whoever fills it (`signer` when absent: saved before roles).
   */
  roles: string;
  signing_message: string | null;
  email_language: string;
  signing_order_enabled: number | null;
  /** Its storage key, under `templates/`: shared by the documents made from it. */
  file: string;
  original_file: string;
  size_bytes: number;
  original_sha256: string;
  /** JSON [{width, height}]: read once at creation, so documents made from it never read it. */
  page_sizes: string;
  /** JSON: fields in the compact form of fields.repo.ts, `signee_id` holding a role's id. */
  fields: string | null;
  /** What `q` searches: the name, folded (documents/search-text.ts). */
  search_text: string;
  direct_link_enabled: number;
  /** Drawn when the direct link is first enabled: the token is an HMAC of it. */
  direct_link_nonce: string | null;
  direct_link_token_hash: string | null;
  created_at: string;
  updated_at: string;
};

/** One bulk send of a template: its progress, and what its rows are made from. */
export type BulkSendsTable = {
  id: string;
  tenant_id: string;
  template_id: string;
  user_id: string;
  sender_name: string;
  /** JSON RequestOrigin of the intake request, for the documents' audit entries. */
  origin: string | null;
  /** JSON: the template as validated (roles, fields, settings, file): later edits do not apply. */
  template_snapshot: string;
  status: 'queued' | 'running' | 'completed';
  total: number;
  created: number;
  failed: number;
  /** Credits taken at intake for every valid row; what failed rows did not use is refunded. */
  credits_reserved: number;
  /** While today's mail quota is spent: when rows go out again. */
  waiting_until: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
};

/** One row of a bulk send: created exactly once (compare-and-set on `status`). */
export type BulkSendRowsTable = {
  bulk_send_id: string;
  /** 1-based data row of the CSV (the header is not counted), or position in JSON rows. */
  row_number: number;
  status: 'pending' | 'created' | 'failed';
  /** JSON bulk-rows.ts BulkRowInput; null once created. */
  input: string | null;
  error: string | null;
  document_id: string | null;
  updated_at: string;
};

/** An audit certificate made alone (GET /api/documents/{id}/certificate), by its SHA-256. */
export type IssuedCertificatesTable = {
  sha256: string;
  document_id: string;
  tenant_id: string;
  created_at: string;
};

/** A link to a signed copy (e-mailed when too large to attach; every signee has one behind their signing link): hashed token, 30 days, revocable. */
export type CopyLinksTable = {
  id: string;
  document_id: string;
  tenant_id: string;
  recipient: string;
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
  /** How many times the copy was downloaded by this link. */
  downloads: number;
  /** When a download was last recorded in the audit trail (at most one an hour). */
  audited_at: string | null;
};

/** A tenant's folder of documents; `parent_id` null at the top. */
export type FoldersTable = {
  id: string;
  tenant_id: string;
  name: string;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
};

/**
 * E-mails of one kind lately sent to one address from the whole service: `sent_at` is a JSON
 * array of ISO timestamps of the last day, oldest first; the address is kept as its SHA-256.
 */
export type RecipientMailLimitsTable = {
  kind: string;
  address_hash: string;
  sent_at: string;
  updated_at: string;
};

/** E-mails queued per tenant and UTC day (YYYY-MM-DD). */
export type TenantMailCountsTable = { tenant_id: string; day: string; count: number };

export type DocumentsTable = {
  id: string;
  tenant_id: string;
  folder_id: string | null;
  name: string;
  status:
    'draft' | 'in_process' | 'pending_seal' | 'seal_failed' | 'signed' | 'declined' | 'cancelled';
  pinned: string | null;
  source: string;
  user_id: string;
  signing_method: string;
  signing_message: string | null;
  signing_order_enabled: number | null;
  signing_groups_enabled: number;
  reminder_cooldown_until: string | null;
  email_language: string;
  file: string;
  original_file: string;
  content_type: string;
  size_bytes: number;
  original_sha256: string;
  hash: string | null;
  sealed_file: string | null;
  /** How the sealed file was made (seal-pdf.ts SealMode); null until sealed. */
  seal_mode: string | null;
  /** The PAdES level the seal reached (seal-types.ts SealLevel); null until sealed. */
  seal_level: string | null;
  /** While `seal_failed`: why the last attempt could not seal anything. */
  seal_failure: string | null;
  /** JSON [{width, height}]: each page as displayed; null until first read. */
  page_sizes: string | null;
  /** Why the pages could not be read (the 422's detail), once a read failed; else null. */
  page_sizes_error: string | null;
  /** What `q` searches (documents/search-text.ts): name, signees' names and e-mails. */
  search_text: string;
  created_at: string;
  updated_at: string;
  /**
   * JSON: the document's fields (decisions §8) in their order, in the compact form of
   * modules/fields/fields.repo.ts; null when it has none. Read only by the field functions:
   * every other read names the columns it needs (documents.repo.ts DOCUMENT_COLUMNS).
   */
  fields: string | null;
  /** The template it was made from (decisions §11), if any; its `file` is the template's. */
  template_id: string | null;
  /** The integrator's own id for it (decisions §12), ≤ 255 characters. */
  external_id: string | null;
  /** JSON: a flat object of strings (decisions §12), ≤ 4 KiB. */
  metadata: string | null;
  /** When an unfinished signing is cancelled as expired (decisions §12); null: never. */
  expires_at: string | null;
  /** Why it was cancelled: `expired`, or null (by its sender, or not cancelled). */
  cancel_reason: 'expired' | null;
  /**
   * Automatic reminders: JSON `{firstAfterDays, everyDays, max}`, `off`, or null (a draft taking
   * the tenant's defaults when sent; sending writes what applies).
   */
  reminders: string | null;
  /** Where the signing page sends a signee after signing or declining (decisions §12). */
  redirect_url: string | null;
  /** When it became `signed` (migration 0034); null before. */
  completed_at: ColumnType<string | null, string | null | undefined, string | null>;
};

export type SigneesTable = {
  id: string;
  document_id: string;
  tenant_id: string;
  email: string;
  name: string;
  status: 'pending' | 'signed' | 'declined';
  user_id: string;
  signing_order: number | null;
  signing_group_id: string | null;
  signed_at: string | null;
  position: number;
  token_hash: string | null;
  invited_at: string | null;
  declined_at: string | null;
  decline_reason: string | null;
  signature_file: string | null;
  signature_typed: string | null;
  initials_file: string | null;
  initials_typed: string | null;
  /** When the signee first opened their signing link. */
  opened_at: string | null;
  /** The signee's own e-mail language (decisions §11); null: the document's. */
  language: string | null;
  /**
   * What they are asked to do (decisions §12): `signer` signs, `approver` approves or rejects
   * in the signing order, `cc` gets no link and no turn, only the signed copy and the notices.
   */
  role: 'signer' | 'approver' | 'cc';
  /** Automatic reminders sent so far (decisions §12): each one's compare-and-set. */
  auto_reminders: ColumnType<number, number | undefined, number>;
  /** What opens the link besides the link (decisions §13); fixed once the document is sent. */
  auth: 'none' | 'access_code' | 'email_otp';
  /** Argon2id hash of the access code (auth `access_code`); never shown to anyone. */
  access_code_hash: string | null;
  created_at: string;
  updated_at: string;
};

/**
 * A recorded event. The seed's status changes fill every column; an opt-in event (§12) that
 * changes no status stores '' in `old_status` and `new_status`, and one about no document
 * (`bulk_send.completed`) '' in `document_id`: the columns predate them and are NOT NULL.
 */
export type EventsTable = {
  id: string;
  tenant_id: string;
  type:
    | 'document.status_changed'
    | 'signee.status_changed'
    | 'signee.viewed'
    | 'signee.reminded'
    | 'email.failed'
    | 'bulk_send.completed';
  document_id: string;
  signee_id: string | null;
  old_status: string;
  new_status: string;
  occurred_at: string;
  /** The exact envelope JSON delivered to receivers (same bytes on every attempt). */
  payload: string;
};

export type AuditEntriesTable = {
  id: string;
  document_id: string;
  tenant_id: string;
  action: string;
  actor: string;
  signee_id: string | null;
  ip: string | null;
  user_agent: string | null;
  details: string | null;
  created_at: string;
};

export type IdempotencyKeysTable = {
  scope: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
};

export type WebhooksTable = {
  id: string;
  tenant_id: string;
  url: string;
  active: number;
  /** AES-256-GCM ciphertext of the signing secret (see modules/webhooks/webhook-secret.ts). */
  secret_encrypted: string;
  created_at: string;
  updated_at: string;
};

export type WebhookDeliveriesTable = {
  id: string;
  tenant_id: string;
  webhook_id: string;
  event_id: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempt_count: number;
  created_at: string;
  dispatched_at: string | null;
  completed_at: string | null;
};

export type WebhookAttemptsTable = {
  delivery_id: string;
  attempt: number;
  scheduled_at: string;
  started_at: string;
  finished_at: string | null;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
};

/**
 * The attempts on one signee's link (signing/signee-auth.ts): wrong codes since
 * `failures_since` (an attempt counts before its code is checked), the lock they led to, and
 * the e-mailed code (an HMAC of it, never the code) with its sends in the current hour.
 */
export type SigneeAuthStateTable = {
  signee_id: string;
  failures: number;
  failures_since: string | null;
  locked_until: string | null;
  otp_hash: string | null;
  otp_expires_at: string | null;
  otp_sent_at: string | null;
  otp_sends: number;
  otp_sends_since: string | null;
};

/** A tenant's public key for identity tokens (decisions §13): a JWK without private members. */
export type TenantIdentityKeysTable = {
  tenant_id: string;
  kid: string;
  /** The order the keys were given in. */
  position: number;
  /** JSON of the public JWK as stored (kty, kid, and n/e or crv/x/y; alg and use if given). */
  jwk: string;
  created_at: string;
};

/** An identity token's `jti`, kept until the token expires: each one opens a link once. */
export type IdentityTokenUsesTable = {
  tenant_id: string;
  jti: string;
  expires_at: string;
  used_at: string;
};

/** One entry of a tenant's activity log (decisions §16): a change and who made it. */
export type TenantActivityTable = {
  id: string;
  tenant_id: string;
  /** What changed, e.g. `member.added`, `webhook.secret_rotated` (docs/api.md lists them). */
  action: string;
  actor_user_id: string;
  /** The actor's e-mail when they acted: the entry still names them after they leave. */
  actor_email: string;
  /** The API key the change was made with; null for a browser session. */
  actor_api_key_id: string | null;
  ip: string | null;
  /** JSON object: what changed (ids, names, old and new values; never a secret). */
  details: string;
  created_at: string;
};
