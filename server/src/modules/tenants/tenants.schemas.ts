import { z } from 'zod';
import { LANGUAGES } from '../../i18n/index.js';
import { WEBHOOK_EVENT_NAMES } from '../events/event-types.js';
import { MAX_REMINDERS_PER_SIGNEE } from '../documents/reminder-policy.js';
import { embedOriginsSchema } from './embed-origins.js';
import { brandSettingsShape } from './branding.schemas.js';

/** Reminders re-send e-mail with the tenant's text: at most one per quarter hour a document. */
export const MIN_REMINDER_COOLDOWN_MINUTES = 15;

export const roleSchema = z.enum(['owner', 'admin', 'member']);

/** The languages invitation e-mails are written in. */
export const emailLanguages = LANGUAGES;

export const tenantSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: roleSchema,
    createdAt: z.string(),
  })
  .meta({ id: 'Tenant' });

export const membershipSchema = z
  .object({
    tenantId: z.uuid(),
    userId: z.uuid(),
    role: roleSchema,
    createdAt: z.string(),
  })
  .meta({ id: 'Membership' });

export const memberSchema = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: roleSchema,
    createdAt: z.string(),
  })
  .meta({ id: 'Member' });

export const settingsSchema = z
  .object({
    emailLanguage: z.enum(emailLanguages),
    invitationEmails: z.boolean(),
    signeeEvents: z
      .boolean()
      .describe('Send signee.status_changed to webhooks (as naming it in webhookEvents does)'),
    webhookEvents: z
      .array(z.enum(WEBHOOK_EVENT_NAMES))
      .max(50)
      .describe(
        'Event types this tenant opted into. signee.viewed, signee.reminded, email.failed and bulk_send.completed are recorded and delivered only when named here; document.status_changed is always sent, signee.status_changed when named here or signeeEvents is true. Stored without repeats.',
      ),
    reminderCooldownMinutes: z.number().int().min(MIN_REMINDER_COOLDOWN_MINUTES).max(10080),
    expiryDays: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .nullable()
      .describe(
        'Whole days from sending after which a document still in process expires (cancelled, cancelReason "expired"), unless it has its own expiresAt; null: never',
      ),
    reminderFirstAfterDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .nullable()
      .describe(
        "Automatic reminders: whole days after a signee's invitation until the first (null: reminderEveryDays, or none if both are null), for documents sent without their own reminders",
      ),
    reminderEveryDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .nullable()
      .describe('Whole days between automatic reminders; null: only the first'),
    reminderMax: z
      .number()
      .int()
      .min(1)
      .max(MAX_REMINDERS_PER_SIGNEE)
      .describe('Automatic reminders per signee at most'),
    embedOrigins: embedOriginsSchema,
    ...brandSettingsShape,
  })
  .meta({ id: 'TenantSettings' });

export const tenantParams = z.object({ tenantId: z.uuid() });
export const memberParams = z.object({ tenantId: z.uuid(), userId: z.uuid() });
export const createTenantBody = z.object({ name: z.string().trim().min(1).max(200) });
export const addMemberBody = z.object({ email: z.email(), role: roleSchema });
export const updateMemberBody = z.object({ role: roleSchema });
export const patchSettingsBody = settingsSchema
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'at least one setting is required');

/** A pending invitation as the inviting tenant sees it. */
export const invitationSchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    email: z.string(),
    role: roleSchema,
    invitedBy: z.uuid(),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: 'Invitation' });

/** An invitation as its link shows it, to anyone holding the link: names, no ids. */
export const invitationViewSchema = z.object({
  tenantName: z.string(),
  inviterName: z.string(),
  email: z.string(),
  role: roleSchema,
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
  expiresAt: z.string(),
});

export const invitationParams = z.object({ tenantId: z.uuid(), invitationId: z.uuid() });
/** The invitation link's token, which is the credential of the public view. */
export const invitationTokenParams = z.object({ token: z.string().min(10).max(200) });
