// A PostgreSQL database for a benchmark: a fresh database on TEST_DATABASE_URL's server when
// set, else a throwaway cluster (test/helpers/postgres-cluster.ts, as the tests use).
import pg from 'pg';
import { startPostgresCluster } from '../../test/helpers/postgres-cluster.js';

/** A database URL and the function that removes it (and its cluster, if started here). */
export type BenchPostgres = { url: string; close: () => Promise<void> };

async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Starts or adopts a PostgreSQL server and creates an empty database on it. */
export async function startBenchPostgres(
  options: { durable?: boolean } = {},
): Promise<BenchPostgres> {
  const name = `signet_bench_${process.pid}`;
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    const url = await createDatabase(given, name);
    return {
      url,
      close: async () => {
        const admin = new pg.Client({ connectionString: given });
        await admin.connect();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  // Off, durability only speeds up bulk loads and cannot change read latency; write
  // benchmarks ask for it (durable) so commits cost what they cost in production.
  const fast = '-c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const cluster = await startPostgresCluster(options.durable ? '' : fast);
  // pg_ctl detaches the server, so it is no child of ours: stop it even on Ctrl-C.
  const stop = () => {
    process.removeListener('exit', stop);
    cluster.stop();
  };
  process.once('exit', stop);
  try {
    const url = await createDatabase(cluster.adminUrl, name);
    return { url, close: async () => stop() };
  } catch (err) {
    stop();
    throw err;
  }
}
