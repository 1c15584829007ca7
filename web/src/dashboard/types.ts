// Shapes of the JSON API as the dashboard uses them (see GET /api/openapi.json).

export type Environment = 'sandbox' | 'production';
export type Meta = { environment: Environment; devMailbox: boolean };

export type User = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  createdAt: string;
};

export type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  lastFour: string;
  environment: Environment;
  createdAt: string;
  lastUsedAt: string | null;
};

export type Role = 'owner' | 'admin' | 'member';
export const ROLES: Role[] = ['owner', 'admin', 'member'];

export type Tenant = { id: string; name: string; role: Role; createdAt: string };
export type Member = { userId: string; email: string; name: string; role: Role; createdAt: string };

export type EmailLanguage = 'en' | 'de' | 'fr' | 'es' | 'nl';
export type TenantSettings = {
  emailLanguage: EmailLanguage;
  invitationEmails: boolean;
  signeeEvents: boolean;
  reminderCooldownMinutes: number;
};

export type Webhook = { id: string; url: string; active: boolean; createdAt: string };
export type DeliveryAttempt = {
  attempt: number;
  scheduledAt: string;
  startedAt: string;
  finishedAt: string | null;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
};
export type Delivery = {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  createdAt: string;
  dispatchedAt: string | null;
  completedAt: string | null;
  attempts: DeliveryAttempt[];
};

export type DocumentStatus =
  'draft' | 'in_process' | 'pending_seal' | 'signed' | 'declined' | 'cancelled';
export const DOCUMENT_STATUSES: DocumentStatus[] = [
  'draft',
  'in_process',
  'pending_seal',
  'signed',
  'declined',
  'cancelled',
];

export type SigneDocument = {
  id: string;
  tenantId: string;
  name: string;
  status: DocumentStatus;
  createdAt: string;
  updatedAt: string;
  signingMessage: string | null;
  signingOrderEnabled: boolean | null;
  reminderCooldownUntil: string | null;
  hash: string | null;
  downloadUrl: string;
};

export type Signee = {
  id: string;
  email: string;
  name: string;
  status: 'pending' | 'signed' | 'declined';
  signingOrder: number | null;
  signedAt: string | null;
};

export type Delivered = {
  signeeId: string;
  email: string;
  status: 'sent' | 'scheduled' | 'failed' | 'link';
  error: string | null;
  signingUrl?: string;
};

export type AuditEntry = {
  id: string;
  action: string;
  actor: string;
  signeeId: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
};
