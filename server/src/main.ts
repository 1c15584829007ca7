import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { cleanOrphanFiles } from './modules/storage/orphan-cleanup.js';

/** Starts the service: config -> database -> app -> workers. */
export async function serve(): Promise<void> {
  const config = loadConfig();
  const db = openDatabase(config);
  await migrateToLatest(db);
  const { app, deps } = await buildApp({ config, db });
  await app.listen({ port: config.port, host: config.host });
  if (config.runWorkers) deps.jobs.start();
  app.log.info(
    { env: config.env, database: db.engine, publicUrl: config.publicUrl },
    'Signet is running',
  );
  // After listen, not before: a large bucket takes a while to list, and serving does not
  // depend on it. A failure is logged, not fatal: the next start tries again.
  cleanOrphanFiles({ db, storage: deps.storage, graceSeconds: config.orphanGraceSeconds })
    .then((result) =>
      app.log.info(
        { scanned: result.scanned, deleted: result.deleted.length, keptYoung: result.keptYoung },
        'orphan file cleanup done',
      ),
    )
    .catch((err: unknown) => app.log.warn({ err }, 'orphan file cleanup failed'));
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
