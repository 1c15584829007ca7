import { z } from 'zod';

/** A user as the API shows it. */
export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.email(),
    name: z.string(),
    emailVerified: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'User' });

/** The password rule of sign-up and of a password reset. */
export const passwordSchema = z.string().min(10, 'must be at least 10 characters').max(200);

/** The longest tenant name (as POST /api/tenants takes it). */
export const MAX_TENANT_NAME = 200;

export const signupBody = z.object({
  email: z.email().max(254),
  password: passwordSchema,
  name: z.string().trim().min(1, 'must not be empty').max(200),
  tenantName: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_TENANT_NAME)
    .optional()
    .describe(
      'The name of the account\'s first tenant (a company or team); without it the tenant is named after the person: "<name>\'s workspace"',
    ),
});

export const loginBody = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(200),
});

export const verifyEmailBody = z.object({ token: z.string().min(1).max(200) });

/** Resend verification and password reset requests: just the address. */
export const recoveryRequestBody = z.object({ email: z.email().max(254) });

/** The answer to a recovery request, the same whatever the address. */
export const recoveryAcceptedSchema = z.object({ message: z.string() });

export const resetPasswordBody = z.object({
  token: z.string().min(1).max(200),
  password: passwordSchema,
});

/** An API key as listed (never the secret). */
export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    lastFour: z.string(),
    environment: z.enum(['sandbox', 'production']),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });

export const createApiKeyBody = z.object({ name: z.string().trim().min(1).max(100) });
