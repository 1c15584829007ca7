// Timestamps are ISO 8601 UTC strings with milliseconds on both engines: they sort as text,
// compare portably and leave the database exactly as the API shows them. Booleans are 0/1.

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
  reminder_cooldown_minutes: number;
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
  status: 'queued' | 'sent' | 'stored' | 'failed';
  error: string | null;
  message_id: string | null;
  created_at: string;
  sent_at: string | null;
};

export type JobsTable = {
  id: string;
  kind: string;
  payload: string;
  run_at: string;
  status: 'pending' | 'running' | 'done' | 'failed';
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
};
