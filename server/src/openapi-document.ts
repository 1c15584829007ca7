import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

/**
 * The OpenAPI document of a sandbox service on the default configuration, without serving:
 * the app is built on a throwaway SQLite database in a temporary directory. `signet openapi`
 * prints it; docs/openapi.json is this, committed, and `npm run check` fails when they differ.
 */
export async function openApiDocument(): Promise<unknown> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'signet-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RUN_WORKERS: 'false' });
    const db = openDatabase(config);
    try {
      await migrateToLatest(db);
      const { app } = await buildApp({ config, db, logger: false });
      await app.ready();
      const doc = app.swagger();
      await app.close();
      return doc;
    } finally {
      await db.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
