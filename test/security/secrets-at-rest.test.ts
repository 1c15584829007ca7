import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.js';
import { ConfigError, loadConfig, looksRandom } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { uniqueEmail } from '../helpers/factories.js';
import { writeSealP12 } from '../helpers/seal-p12.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

const mode = (file: string) => statSync(file).mode & 0o777;

describe('production refuses weak settings at start', () => {
  const good = () => ({
    ESIGN_ENV: 'production',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'signet-prod-')),
    SMTP_URL: 'smtp://127.0.0.1:2525',
    SECRET_KEY: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'https://sign.example.com',
    SEAL_P12_PATH: '/unused.p12',
  });

  it('refuses a SECRET_KEY that does not look random', () => {
    for (const weak of ['a'.repeat(40), 'password1234'.repeat(3), 'abcdefgh'.repeat(5)]) {
      expect(looksRandom(weak)).toBe(false);
      expect(() => loadConfig({ ...good(), SECRET_KEY: weak })).toThrow(/does not look random/);
    }
    for (let i = 0; i < 20; i++) {
      expect(looksRandom(randomBytes(32).toString('hex'))).toBe(true);
      expect(looksRandom(randomBytes(16).toString('hex'))).toBe(true);
      expect(looksRandom(randomBytes(32).toString('base64url'))).toBe(true);
    }
    expect(() => loadConfig(good())).not.toThrow();
  });

  it('refuses an http PUBLIC_URL unless told it is meant', () => {
    expect(() => loadConfig({ ...good(), PUBLIC_URL: 'http://sign.example.com' })).toThrow(
      /https: PUBLIC_URL/,
    );
    const { PUBLIC_URL: _unset, ...noUrl } = good();
    expect(() => loadConfig(noUrl)).toThrow(/https: PUBLIC_URL/);
    expect(() =>
      loadConfig({ ...good(), PUBLIC_URL: 'http://10.0.0.5', ALLOW_INSECURE_PUBLIC_URL: 'true' }),
    ).not.toThrow();
  });

  it('refuses a seal certificate it cannot open before it serves anything', async () => {
    const p12 = await writeSealP12('right password');
    const config = loadConfig({ ...good(), ...p12, SEAL_P12_PASSWORD: 'wrong password' });
    const db = openDatabase(config);
    try {
      await migrateToLatest(db);
      const built = buildApp({ config, db, logger: false });
      await expect(built).rejects.toThrow(ConfigError);
      await expect(built).rejects.toThrow(/SEAL_P12_PATH cannot be opened/);
      const ok = await buildApp({
        config: { ...config, ...{ sealP12Password: p12.SEAL_P12_PASSWORD } },
        db,
        logger: false,
      });
      await ok.app.close();
    } finally {
      await db.close();
    }
  });
});

describe('files at rest', () => {
  it('keeps DATA_DIR 0700 and the SQLite file 0600, tightening an existing folder', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-perm-'));
    const { chmodSync } = await import('node:fs');
    chmodSync(dataDir, 0o755);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const db = openDatabase(config);
    await migrateToLatest(db);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'signet.db'))).toBe(0o600);
    expect(mode(path.join(dataDir, 'signet.db-wal'))).toBe(0o600);
    expect(mode(path.join(dataDir, 'secret.key'))).toBe(0o600);
    await db.close();
  });
});

describe.each(ENGINES)('secrets in e-mails on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestContext(engine, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('keeps no link of a delivered e-mail in the database', async () => {
    const email = uniqueEmail('redact');
    const signup = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'a long password', name: 'Red Acted' },
    });
    expect(signup.statusCode).toBe(201);
    const delivered = await smtp.waitFor((m) => (m.to as { text: string }).text === email);
    expect(delivered.text).toMatch(/verify-email\?token=ev_/);
    let row;
    for (let i = 0; i < 100; i++) {
      row = await ctx.db.kysely
        .selectFrom('emails')
        .selectAll()
        .where('to_address', '=', email)
        .executeTakeFirstOrThrow();
      if (row.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(row?.status).toBe('sent');
    expect(row?.text).not.toContain('ev_');
    expect(row?.html).not.toContain('ev_');
    expect(row?.text).toContain('[link removed after delivery]');
    expect(row?.subject).toBe('Confirm your e-mail address for Signet');
  });
});

describe('the dev mailbox', () => {
  it('answers loopback only, unless DEV_MAILBOX_PUBLIC=true', async () => {
    const closed = await createTestContext('sqlite');
    const open = await createTestContext('sqlite', { env: { DEV_MAILBOX_PUBLIC: 'true' } });
    try {
      for (const url of ['/dev/mailbox', '/dev/mailbox/00000000-0000-0000-0000-000000000000']) {
        const remote = await closed.app.inject({ url, remoteAddress: '203.0.113.9' });
        expect(remote.statusCode).toBe(404);
        expect(remote.json().detail).toMatch(/only on this machine/);
      }
      expect((await closed.app.inject({ url: '/dev/mailbox' })).statusCode).toBe(200);
      expect(
        (await closed.app.inject({ url: '/dev/mailbox', remoteAddress: '::1' })).statusCode,
      ).toBe(200);
      expect(
        (await open.app.inject({ url: '/dev/mailbox', remoteAddress: '203.0.113.9' })).statusCode,
      ).toBe(200);
    } finally {
      await closed.close();
      await open.close();
    }
  });
});
