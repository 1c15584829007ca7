import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir } from './lib/private-dir.js';
import { SEAL_LEVELS, type SealLevel } from './modules/sealing/seal-types.js';
import { isLoopbackUrl } from './modules/webhooks/webhook-url.js';

/** Every setting of the service, parsed and validated once from the environment. */
export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  env: 'sandbox' | 'production';
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL: run the hot queries as named prepared statements (off behind a pooler that cannot). */
  databasePreparedStatements: boolean;
  storageUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  secretKey: string;
  sealP12Path: string | null;
  sealP12Password: string | null;
  tsaUrl: string | null;
  /** SEAL_LEVEL: the PAdES level seals aim for (B-T by default with a TSA_URL, else B-B). */
  sealLevel: SealLevel;
  downloadUrlTtlSeconds: number;
  webhookAllowPrivateUrls: boolean;
  /**
   * Webhooks to this machine (loopback, http too): in the sandbox with a loopback PUBLIC_URL
   * unless WEBHOOK_ALLOW_PRIVATE_URLS says otherwise, and wherever that allows private URLs.
   */
  webhookAllowLoopbackUrls: boolean;
  webhookRetryScheduleMs: number[];
  webhookTimeoutMs: number;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  logLevel: string;
  runWorkers: boolean;
  /**
   * Which peers may tell the client's address (X-Forwarded-For) and scheme: Fastify's
   * `trustProxy` (false: none, the socket's address is the client's; true: any; a string: the
   * proxies at those addresses and CIDR ranges).
   */
  trustProxy: boolean | string;
  /** Stored files without a document row are removed at start once older than this. */
  orphanGraceSeconds: number;
  /** First retry delay of the mail.send job; doubles per attempt, capped at 30 min. */
  mailRetryBaseMs: number;
  /** The sandbox's dev mailbox answers other hosts than loopback (DEV_MAILBOX_PUBLIC). */
  devMailboxPublic: boolean;
  /** E-mails one tenant may queue per UTC day (invitations, reminders, notices). */
  mailDailyLimitPerTenant: number;
  /** Signed copies up to this size are attached to the completion e-mail, larger ones linked. */
  mailAttachmentLimitBytes: number;
  /** Timeouts and connection caps of the HTTP server (http/connection-guard.ts). */
  http: HttpLimits;
};

/** How long a client may take and how many connections it may hold (docs/operations.md). */
export type HttpLimits = {
  /** From a request's first byte (or the connection's opening) to the end of its headers. */
  headersTimeoutMs: number;
  /** A body that delivers fewer than bodyMinBytes in any window of bodyWindowMs is cut. */
  bodyWindowMs: number;
  bodyMinBytes: number;
  /** Ceiling on one whole request, headers and body; 0 for none. */
  requestTimeoutMs: number;
  /** Idle time allowed between two requests on one connection. */
  keepAliveTimeoutMs: number;
  maxConnectionsPerAddress: number;
  maxUploadsPerAddress: number;
  /** Connections past which stalled ones are evicted; null: derived from the descriptor limit. */
  maxConnections: number | null;
};

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  ESIGN_ENV: z.enum(['sandbox', 'production']).default('sandbox'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_PREPARED_STATEMENTS: bool,
  STORAGE_URL: z
    .string()
    .regex(/^s3:\/\//, 'must be an s3:// URL')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Signet <no-reply@localhost>'),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  SEAL_P12_PATH: z.string().optional(),
  SEAL_P12_PASSWORD: z.string().optional(),
  TSA_URL: z.url().optional(),
  SEAL_LEVEL: z.enum(SEAL_LEVELS).optional(),
  DOWNLOAD_URL_TTL_SECONDS: z.coerce.number().int().positive().default(600),
  WEBHOOK_ALLOW_PRIVATE_URLS: bool,
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'must be comma-separated milliseconds')
    .default('0,5000,25000'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(8000),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(100),
  RATE_LIMIT_BURST: z.coerce.number().positive().default(200),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RUN_WORKERS: bool,
  TRUST_PROXY: z
    .string()
    .trim()
    .refine(
      (v) => /^(true|false)$/.test(v) || v.split(',').every((a) => isProxyAddress(a.trim())),
      'must be true, false, or comma-separated IP addresses / CIDR ranges',
    )
    .optional(),
  // An upload in flight in another process has its file before its row: an hour is far longer
  // than any 50 MiB upload takes, so the start-up cleanup never removes a live one.
  ORPHAN_GRACE_SECONDS: z.coerce.number().int().min(0).default(3600),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().positive().default(30_000),
  MAIL_DAILY_LIMIT_PER_TENANT: z.coerce.number().int().positive().default(10_000),
  MAIL_ATTACHMENT_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 1024 * 1024),
  ALLOW_INSECURE_PUBLIC_URL: bool,
  DEV_MAILBOX_PUBLIC: bool,
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  // 4 KiB per 10 s (400 B/s) is far below any real link, even a congested mobile uplink,
  // and far above a trickle (the report's was 1 byte per 10 s).
  HTTP_BODY_WINDOW_MS: z.coerce.number().int().positive().default(10_000),
  HTTP_BODY_MIN_BYTES: z.coerce.number().int().min(1).default(4096),
  // 50 MiB in 30 minutes is 240 kbit/s: a backstop for a body just over the minimum rate.
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).default(1_800_000),
  // Fastify's default: longer than the 60 s idle timeout of common load balancers, so the
  // balancer, not the service, closes an idle connection and never sends on a closing one.
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().positive().default(72_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().positive().default(128),
  HTTP_MAX_UPLOADS_PER_ADDRESS: z.coerce.number().int().positive().default(64),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().positive().optional(),
});

// proxy-addr's (Fastify's) names for address ranges, or an address with an optional prefix.
function isProxyAddress(value: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(value)) return true;
  const [address, prefix, extra] = value.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  return (
    prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
  );
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value
    .split(',')
    .map((a) => a.trim())
    .join(',');
}

/** Raised when the environment cannot run the service; main prints it and exits. */
export class ConfigError extends Error {}

/** Parses the environment into a Config, creating sandbox secrets in DATA_DIR on first use. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.SEAL_LEVEL && e.SEAL_LEVEL !== 'B-B' && !e.TSA_URL) {
    throw new ConfigError(
      `SEAL_LEVEL ${e.SEAL_LEVEL} needs a time-stamp authority: set TSA_URL, or SEAL_LEVEL=B-B.`,
    );
  }
  const production = e.ESIGN_ENV === 'production';
  if (production) {
    const missing = [
      !e.SMTP_URL && 'SMTP_URL',
      !e.SECRET_KEY && 'SECRET_KEY',
      !e.SEAL_P12_PATH && 'SEAL_P12_PATH',
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new ConfigError(`Production refuses to start without ${missing.join(', ')}.`);
    }
    if (e.SECRET_KEY && !looksRandom(e.SECRET_KEY)) {
      throw new ConfigError(
        'Production refuses a SECRET_KEY that does not look random (it signs sessions and links): generate one with `openssl rand -hex 32`.',
      );
    }
    if (!e.PUBLIC_URL?.startsWith('https:') && !e.ALLOW_INSECURE_PUBLIC_URL) {
      throw new ConfigError(
        'Production needs an https: PUBLIC_URL (session cookies are Secure only then); set ALLOW_INSECURE_PUBLIC_URL=true only for a deployment that is never reached over a network.',
      );
    }
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    env: e.ESIGN_ENV,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS ?? true,
    storageUrl: e.STORAGE_URL ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    secretKey: e.SECRET_KEY ?? readOrCreateSecretKey(dataDir),
    sealP12Path: e.SEAL_P12_PATH ?? null,
    sealP12Password: e.SEAL_P12_PASSWORD ?? null,
    tsaUrl: e.TSA_URL ?? null,
    sealLevel: e.SEAL_LEVEL ?? (e.TSA_URL ? 'B-T' : 'B-B'),
    downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS ?? false,
    webhookAllowLoopbackUrls:
      e.WEBHOOK_ALLOW_PRIVATE_URLS ??
      (e.ESIGN_ENV === 'sandbox' && isLoopbackUrl(e.PUBLIC_URL ?? 'http://localhost')),
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map(Number),
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    rateLimitBurst: e.RATE_LIMIT_BURST,
    logLevel: e.LOG_LEVEL,
    runWorkers: e.RUN_WORKERS ?? true,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    orphanGraceSeconds: e.ORPHAN_GRACE_SECONDS,
    mailRetryBaseMs: e.MAIL_RETRY_BASE_MS,
    devMailboxPublic: e.DEV_MAILBOX_PUBLIC ?? false,
    mailDailyLimitPerTenant: e.MAIL_DAILY_LIMIT_PER_TENANT,
    mailAttachmentLimitBytes: e.MAIL_ATTACHMENT_LIMIT_BYTES,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      bodyWindowMs: e.HTTP_BODY_WINDOW_MS,
      bodyMinBytes: e.HTTP_BODY_MIN_BYTES,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      maxUploadsPerAddress: e.HTTP_MAX_UPLOADS_PER_ADDRESS,
      maxConnections: e.HTTP_MAX_CONNECTIONS ?? null,
    },
  };
}

/**
 * A rough test that a secret was generated, not typed: at least 32 characters, no white space,
 * no repeated unit (`abcabcabc…`), at least 8 distinct characters, and at least 2.5 bits per
 * character by its own character frequencies (`aaaa…` has 0). Generated keys sit well clear:
 * over 3 million draws of 32 random hex digits (`openssl rand -hex 16`, the shortest key
 * accepted) the fewest distinct characters was 8 and the lowest estimate 2.75 bits per
 * character; 64 hex digits give about 3.8. A refusal of the obvious, not a proof.
 */
export function looksRandom(secret: string): boolean {
  if (secret.length < 32 || /\s/.test(secret) || /^(.+?)\1+$/s.test(secret)) return false;
  const counts = new Map<string, number>();
  for (const c of secret) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= n * Math.log2(n / secret.length);
  return counts.size >= 8 && bits / secret.length >= 2.5;
}

// Sandbox only (production demands SECRET_KEY): one key per DATA_DIR, kept across restarts so
// sessions and download URLs stay valid; 'wx' makes concurrent first starts agree on one file.
function readOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  ensurePrivateDir(dataDir);
  try {
    writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}
