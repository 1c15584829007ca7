import type { FastifyServerOptions } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../server/src/app.js';
import { loadConfig, type Config } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/database.js';
import type { Db } from '../../server/src/db/handle.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import type { App, AppDeps } from '../../server/src/http/types.js';

/** The two engines every HTTP test runs on. */
export const ENGINES = ['sqlite', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];

/** A running service on a fresh, migrated database. */
export type TestContext = {
  app: App;
  deps: AppDeps;
  db: Db;
  config: Config;
  /** The base URL when started with listen: true. */
  baseUrl: string;
  close: () => Promise<void>;
};

let counter = 0;

/** A new empty PostgreSQL database on the test server; returns its URL and a drop function. */
export async function createPostgresDatabase() {
  const adminUrl = inject('postgresUrl');
  const name = `signet_test_${process.pid}_${Date.now()}_${counter++}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A loopback port that was free a moment ago: for a service that must know its own address
 * before it starts (PUBLIC_URL in e-mailed links), pass it as env PORT with listen: true.
 */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Builds the service on the given engine with env overrides; listen: true binds a real port
 * (env PORT when given, else any free one).
 */
export async function createTestContext(
  engine: EngineName,
  options: {
    env?: Record<string, string>;
    listen?: boolean;
    workers?: boolean;
    /** Fastify's logger options (a test reading the log lines passes a stream). */
    logger?: FastifyServerOptions['logger'];
  } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-test-'));
  const database = engine === 'postgres' ? await createPostgresDatabase() : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const db = openDatabase(config);
  await migrateToLatest(db);
  const { app, deps } = await buildApp({
    config,
    db,
    logger:
      options.logger ??
      (process.env.TEST_LOG_LEVEL ? { level: process.env.TEST_LOG_LEVEL } : false),
  });
  let baseUrl = config.publicUrl;
  if (options.listen) {
    await app.listen({ port: options.env?.PORT ? config.port : 0, host: '127.0.0.1' });
    const address = app.server.address() as { port: number };
    baseUrl = `http://127.0.0.1:${address.port}`;
  } else {
    await app.ready();
  }
  if (options.workers !== false) deps.jobs.start();
  return {
    app,
    deps,
    db,
    config,
    baseUrl,
    close: async () => {
      await app.close();
      await db.close();
      await database?.drop();
      // A file a background write (a job still finishing, the file writer's thread) adds
      // while the directory is emptied makes rmdir fail with ENOTEMPTY: try again.
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
