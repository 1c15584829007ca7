// A PostgreSQL database for a benchmark: a fresh database on TEST_DATABASE_URL's server when
// set, else a throwaway cluster started like test/setup/postgres.ts does.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './processes.js';

/** A database URL and the function that removes it (and its cluster, if started here). */
export type BenchPostgres = { url: string; close: () => Promise<void> };

function findPgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const dir = path.join(root, v, 'bin');
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error(
    'PostgreSQL server binaries not found: apt-get install -y postgresql, or set TEST_DATABASE_URL.',
  );
}

// PostgreSQL refuses to run as root; run it as the postgres user the Debian package creates.
function run(cmd: string, args: string[]) {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
}

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
  const bin = findPgBin();
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-bench-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const stop = () => {
    process.removeListener('exit', stop);
    try {
      if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
        run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // pg_ctl detaches the server, so it is no child of ours: stop it even on Ctrl-C.
  process.once('exit', stop);
  try {
    run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    const port = await freePort();
    // Off, durability only speeds up bulk loads and cannot change read latency; write
    // benchmarks ask for it (durable) so commits cost what they cost in production.
    const fast = '-c fsync=off -c synchronous_commit=off -c full_page_writes=off';
    run(path.join(bin, 'pg_ctl'), [
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${options.durable ? '' : fast}`,
      'start',
    ]);
    const url = await createDatabase(`postgres://postgres@127.0.0.1:${port}/postgres`, name);
    return { url, close: async () => stop() };
  } catch (err) {
    stop();
    throw err;
  }
}
