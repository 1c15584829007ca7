import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, looksRandom } from './config.js';

const KEY = randomBytes(32).toString('hex');
const dirs: string[] = [];
/** A fresh DATA_DIR, removed after the test. */
function dataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A production environment that starts; each test takes one part away. */
const production = () => ({
  ESIGN_ENV: 'production',
  DATA_DIR: dataDir(),
  PUBLIC_URL: 'https://sign.example',
  SMTP_URL: 'smtp://mail.example:587',
  SECRET_KEY: KEY,
  SEAL_P12_PATH: '/etc/signet/seal.p12',
});

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected loadConfig to refuse');
}

describe('loadConfig', () => {
  it('gives the sandbox defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), SECRET_KEY: KEY });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      env: 'sandbox',
      databaseUrl: null,
      secretKey: KEY,
      webhookRetryScheduleMs: [0, 5000, 25000],
      webhookAllowPrivateUrls: false,
      // A sandbox on this machine may send webhooks to this machine.
      webhookAllowLoopbackUrls: true,
      trustProxy: false,
      runWorkers: true,
      rateLimitPerSecond: 100,
      rateLimitBurst: 200,
      mailDailyLimitPerTenant: 10_000,
    });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('reads and normalises the settings it is given; empty strings count as unset', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      SECRET_KEY: KEY,
      PORT: '8080',
      PUBLIC_URL: 'https://sign.example//',
      DATABASE_URL: 'postgresql://db/signet',
      WEBHOOK_RETRY_SCHEDULE_MS: '0,300,900',
      WEBHOOK_ALLOW_PRIVATE_URLS: '1',
      RUN_WORKERS: 'false',
      TRUST_PROXY: ' 10.0.0.1 , 192.168.0.0/16,loopback',
      TSA_URL: '',
    });
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'https://sign.example',
      databaseUrl: 'postgresql://db/signet',
      webhookRetryScheduleMs: [0, 300, 900],
      webhookAllowPrivateUrls: true,
      runWorkers: false,
      trustProxy: '10.0.0.1,192.168.0.0/16,loopback',
      tsaUrl: null,
    });
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '4000', SECRET_KEY: KEY }).publicUrl).toBe(
      'http://localhost:4000',
    );
    expect(
      loadConfig({ DATA_DIR: dataDir(), SECRET_KEY: KEY, TRUST_PROXY: 'true' }).trustProxy,
    ).toBe(true);
  });

  it('allows loopback webhooks only in a sandbox on this machine, unless told otherwise', () => {
    const loopback = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: dataDir(), SECRET_KEY: KEY, ...env }).webhookAllowLoopbackUrls;
    expect(loopback({ PUBLIC_URL: 'http://127.0.0.1:3000' })).toBe(true);
    expect(loopback({ PUBLIC_URL: 'https://sign.example' })).toBe(false);
    expect(loopback({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' })).toBe(false);
    expect(
      loopback({ PUBLIC_URL: 'https://sign.example', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
    ).toBe(true);
  });

  it('names every invalid variable', () => {
    const message = refusal({
      DATA_DIR: dataDir(),
      PORT: '70000',
      DATABASE_URL: 'mysql://db',
      SECRET_KEY: 'short',
      WEBHOOK_RETRY_SCHEDULE_MS: '1,,2',
      TRUST_PROXY: '10.0.0.1/33',
    });
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of [
      'PORT',
      'DATABASE_URL: must be a postgres:// URL',
      'SECRET_KEY: must be at least 32 characters',
      'WEBHOOK_RETRY_SCHEDULE_MS: must be comma-separated milliseconds',
      'TRUST_PROXY',
    ]) {
      expect(message).toContain(`  ${name}`);
    }
  });

  it('starts in production with every required setting', () => {
    expect(loadConfig(production())).toMatchObject({ env: 'production', secretKey: KEY });
  });

  it('refuses production without SMTP_URL, SECRET_KEY or SEAL_P12_PATH', () => {
    const env: Record<string, string> = production();
    delete env.SMTP_URL;
    delete env.SEAL_P12_PATH;
    expect(refusal(env)).toBe('Production refuses to start without SMTP_URL, SEAL_P12_PATH.');
    expect(refusal({ ...production(), SECRET_KEY: '' })).toBe(
      'Production refuses to start without SECRET_KEY.',
    );
  });

  it('refuses a production SECRET_KEY that does not look random', () => {
    expect(refusal({ ...production(), SECRET_KEY: 'abcdefghij'.repeat(4) })).toMatch(
      /does not look random/,
    );
  });

  it('refuses an http PUBLIC_URL in production unless explicitly allowed', () => {
    const insecure = { ...production(), PUBLIC_URL: 'http://sign.example' };
    expect(refusal(insecure)).toMatch(/needs an https: PUBLIC_URL/);
    expect(loadConfig({ ...insecure, ALLOW_INSECURE_PUBLIC_URL: 'true' }).publicUrl).toBe(
      'http://sign.example',
    );
  });

  it('creates a sandbox SECRET_KEY once per DATA_DIR, private to the owner', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).secretKey;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBe(first);
    const file = path.join(dir, 'secret.key');
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir() }).secretKey).not.toBe(first);
  });
});

describe('looksRandom', () => {
  it('accepts generated keys', () => {
    // 32 hex digits is the shortest key accepted and the closest to the line: many draws.
    for (let i = 0; i < 2000; i++) {
      expect(looksRandom(randomBytes(16).toString('hex'))).toBe(true);
    }
    for (let i = 0; i < 20; i++) {
      expect(looksRandom(randomBytes(32).toString('hex'))).toBe(true);
      expect(looksRandom(randomBytes(32).toString('base64url'))).toBe(true);
    }
  });

  it.each([
    ['one character', 'a'.repeat(64)],
    ['a repeated unit', 'abcdefghijklmnop'.repeat(4)],
    ['fewer than 8 distinct characters', '0110100110010110'.repeat(2) + '2345'],
    ['nearly all one character', `${'0'.repeat(30)}123456789`],
    ['shorter than 32 characters', 'q8Zr2Lw0XpT5mN1c'],
    ['a typed phrase', 'correct horse battery staple in the stable'],
  ])('refuses %s', (_label, secret) => {
    expect(looksRandom(secret)).toBe(false);
  });
});
