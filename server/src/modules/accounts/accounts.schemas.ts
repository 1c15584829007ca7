import { z } from 'zod';

/** A user as the API shows it. */
export const userSchema = z.object({
  id: z.uuid(),
  email: z.email(),
  name: z.string(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});

export const signupBody = z.object({
  email: z.email().max(254),
  password: z.string().min(10, 'must be at least 10 characters').max(200),
  name: z.string().trim().min(1, 'must not be empty').max(200),
});

export const loginBody = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(200),
});

export const verifyEmailBody = z.object({ token: z.string().min(1).max(200) });

/** An API key as listed (never the secret). */
export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  lastFour: z.string(),
  environment: z.enum(['sandbox', 'production']),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});

export const createApiKeyBody = z.object({ name: z.string().trim().min(1).max(100) });
