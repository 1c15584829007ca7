import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/** A throwaway PostgreSQL server: its superuser URL, and the function that removes it. */
export type PostgresCluster = { adminUrl: string; stop: () => void };

function findPgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const dir = path.join(root, v, 'bin');
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error(
    'PostgreSQL server binaries not found: install them (apt-get install -y postgresql) or set TEST_DATABASE_URL.',
  );
}

// PostgreSQL refuses to run as root; run it as the postgres user the Debian package creates.
function run(cmd: string, args: string[]) {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
}

/**
 * Starts a new cluster from the machine's PostgreSQL binaries on a free loopback port, with
 * `settings` added to the server's command line (`-c name=value …`). `stop` may be called more
 * than once; a failed start removes what it made.
 */
export async function startPostgresCluster(settings: string): Promise<PostgresCluster> {
  const bin = findPgBin();
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const stop = () => {
    try {
      if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
        run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    const port = await freePort();
    run(path.join(bin, 'pg_ctl'), [
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${settings}`,
      'start',
    ]);
    return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
  } catch (err) {
    stop();
    throw err;
  }
}
