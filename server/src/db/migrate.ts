import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './handle.js';
import * as m0001 from './migrations/0001-foundation.js';
import * as m0002 from './migrations/0002-documents.js';
import * as m0003webhooks from './migrations/0003-webhooks.js';
import * as m0004jobsIndex from './migrations/0004-jobs-index.js';
import * as m0005redactSentEmails from './migrations/0005-redact-sent-emails.js';
import * as m0006tenantMailCounts from './migrations/0006-tenant-mail-counts.js';
import * as m0007memberInvitations from './migrations/0007-member-invitations.js';
import * as m0008fields from './migrations/0008-fields.js';
import * as m0009sealMode from './migrations/0009-seal-mode.js';
import * as m0010organising from './migrations/0010-organising.js';
import * as m0011afterSigning from './migrations/0011-after-signing.js';
import * as m0012accountRecovery from './migrations/0012-account-recovery.js';
import * as m0013fieldSets from './migrations/0013-field-sets.js';
import * as m0014fieldsOnDocuments from './migrations/0014-fields-on-documents.js';
import * as m0015finishedJobs from './migrations/0015-finished-jobs.js';
import * as m0016recipientMailLimits from './migrations/0016-recipient-mail-limits.js';
import * as m0017scopedSearchCopyViews from './migrations/0017-scoped-search-copy-views.js';
import * as m0018pageSizesError from './migrations/0018-page-sizes-error.js';
import * as m0019sealLevel from './migrations/0019-seal-level.js';
import * as m0020issuedCertificates from './migrations/0020-issued-certificates.js';
import * as m0021templates from './migrations/0021-templates.js';
import * as m0022externalIdRedirect from './migrations/0022-external-id-redirect.js';
import * as m0024expiry from './migrations/0024-expiry.js';
import * as m0025emailAudit from './migrations/0025-email-audit.js';
import * as m0026webhookEvents from './migrations/0026-webhook-events.js';
import * as m0027signeeRoles from './migrations/0027-signee-roles.js';
import * as m0028reminders from './migrations/0028-reminders.js';
import * as m0029signeeAuth from './migrations/0029-signee-auth.js';
import * as m0030embedOrigins from './migrations/0030-embed-origins.js';
import * as m0031branding from './migrations/0031-branding.js';
import * as m0032tenantActivity from './migrations/0032-tenant-activity.js';
import * as m0033fieldAttachments from './migrations/0033-field-attachments.js';
import * as m0034homeCounts from './migrations/0034-home-counts.js';
import * as m0035hotUpdates from './migrations/0035-hot-updates.js';

// Explicit list, no directory scanning: the migrations ship with the code that needs them.
const migrations: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0002-documents': m0002,
  '0003-webhooks': m0003webhooks,
  '0004-jobs-index': m0004jobsIndex,
  '0005-redact-sent-emails': m0005redactSentEmails,
  '0006-tenant-mail-counts': m0006tenantMailCounts,
  '0007-member-invitations': m0007memberInvitations,
  '0008-fields': m0008fields,
  '0009-seal-mode': m0009sealMode,
  '0010-organising': m0010organising,
  '0011-after-signing': m0011afterSigning,
  '0012-account-recovery': m0012accountRecovery,
  '0013-field-sets': m0013fieldSets,
  '0014-fields-on-documents': m0014fieldsOnDocuments,
  '0015-finished-jobs': m0015finishedJobs,
  '0016-recipient-mail-limits': m0016recipientMailLimits,
  '0017-scoped-search-copy-views': m0017scopedSearchCopyViews,
  '0018-page-sizes-error': m0018pageSizesError,
  '0019-seal-level': m0019sealLevel,
  '0020-issued-certificates': m0020issuedCertificates,
  '0021-templates': m0021templates,
  '0022-external-id-redirect': m0022externalIdRedirect,
  '0024-expiry': m0024expiry,
  '0025-email-audit': m0025emailAudit,
  '0026-webhook-events': m0026webhookEvents,
  '0027-signee-roles': m0027signeeRoles,
  '0028-reminders': m0028reminders,
  '0029-signee-auth': m0029signeeAuth,
  '0030-embed-origins': m0030embedOrigins,
  '0031-branding': m0031branding,
  '0032-tenant-activity': m0032tenantActivity,
  '0033-field-attachments': m0033fieldAttachments,
  '0034-home-counts': m0034homeCounts,
  '0035-hot-updates': m0035hotUpdates,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; safe to run from several processes at once. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Brings the schema to a named migration, down or up (tests of a migration's upgrade path). */
export async function migrateTo(db: Db, name: string): Promise<void> {
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
}
