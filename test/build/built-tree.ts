// A built tree as an operator deploys it (docs/operations.md, "Production build"), for the build
// test (production-build.test.ts) and the start-up benchmark (bench/startup.bench.ts): dist/,
// bin/ and the package files in an empty directory with the production dependencies only, started
// with `npm start` and measured from outside (Linux: /proc).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../helpers/free-port.js';

/** The checkout's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Whether dist/ is a build of the sources beside it (bin/build-state.mjs). */
export type BuildState =
  { state: 'current' } | { state: 'missing' | 'stale'; hasSources: boolean; reason: string };

/** What bin/signet.mjs decides from: is dist/ current? */
export async function readBuildState(): Promise<BuildState> {
  const url = pathToFileURL(path.join(ROOT, 'bin', 'build-state.mjs')).href;
  const { buildState } = (await import(url)) as { buildState: () => BuildState };
  return buildState();
}

const run = promisify(execFile);

/**
 * Copies the build into a new temporary directory: dist/, bin/, package.json and
 * package-lock.json, and node_modules with the production dependencies only. node_modules is
 * the checkout's, copied as hard links (compiling better-sqlite3 again would take a minute) and
 * then pruned by `npm prune --omit=dev`, which leaves what `npm ci --omit=dev` installs; npm's
 * own record of the tree is copied, not linked, since npm rewrites it. The directory is in the
 * system's temporary directory, outside the checkout: Node looks for packages in the
 * node_modules of every parent directory, and the checkout's holds the dev dependencies.
 */
export async function prepareBuiltTree(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-built-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    for (const name of ['dist', 'bin']) {
      cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
    }
    for (const name of ['package.json', 'package-lock.json']) {
      copyFileSync(path.join(ROOT, name), path.join(dir, name));
    }
    const from = path.join(ROOT, 'node_modules');
    const to = path.join(dir, 'node_modules');
    // Hard links need one file system; across two, a copy (slower, the same result).
    await run('cp', ['-al', from, to]).catch(async () => {
      await rm(to, { recursive: true, force: true });
      await run('cp', ['-a', from, to]);
    });
    const record = path.join('node_modules', '.package-lock.json');
    await rm(path.join(dir, record), { force: true });
    copyFileSync(path.join(ROOT, record), path.join(dir, record));
    await run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: cleanEnv(),
    });
    mkdirSync(path.join(dir, 'data'));
    return { dir, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

// The environment without what an enclosing npm run or vitest would pass down (npm_config_*
// would reach the inner npm: `--ignore-scripts` would skip its prestart).
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(npm_|NODE_OPTIONS$|VITEST|TEST_DATABASE_URL$|DATABASE_URL$)/.test(k),
    ),
  );
  return { ...env, ...extra };
}

// The parent pid of a process, from /proc.
function parentOf(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return null;
  }
}

function comm(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

// The node process running bin/signet*.mjs: `root` itself, or below it (npm -> sh -> node).
function findService(root: number): number | null {
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!/bin\/signet[\w-]*\.mjs/.test(cmdline) || comm(pid) !== 'node') continue;
    for (let p: number | null = pid; p && p > 1; p = parentOf(p)) if (p === root) return pid;
  }
  return null;
}

/** A process's resident memory in bytes (VmRSS). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) * 1024;
}

// Process groups still running: killed if this process exits first (an error, Ctrl-C).
const live = new Set<() => void>();
process.once('exit', () => live.forEach((kill) => kill()));

/** One started service, answering /readyz. */
export type StartedTree = {
  baseUrl: string;
  /** From spawning the command to the first 200 from /readyz. */
  readyMs: number;
  /** The service's own node process (not npm's). */
  servicePid: number;
  /** Its output so far (LOG_LEVEL=warn: little). */
  output: () => string;
  /** SIGTERM to the service, then waits for npm to exit (and kills whatever is left). */
  stop: () => Promise<void>;
};

/**
 * Runs `npm start` (or `command`) in `dir` on a free port, on SQLite in `dataDir` (sandbox), and
 * waits for /readyz to answer 200, polling every 10 ms.
 */
export async function startBuiltTree(
  dir: string,
  options: {
    dataDir: string;
    command?: [string, ...string[]];
    timeoutMs?: number;
    env?: NodeJS.ProcessEnv;
  },
): Promise<StartedTree> {
  const [command, ...args] = options.command ?? ['npm', 'start'];
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, {
    cwd: dir,
    env: cleanEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: options.dataDir,
      ESIGN_ENV: 'sandbox',
      LOG_LEVEL: 'warn',
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: npm does not pass a signal on to its script's children.
    detached: true,
  });
  const killGroup = () => {
    live.delete(killGroup);
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  live.add(killGroup);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let readyMs: number | null = null;
  while (readyMs === null) {
    if (child.exitCode !== null) throw new Error(`${command} exited early:\n${output}`);
    if (Date.now() > deadline) {
      killGroup();
      throw new Error(`/readyz did not answer:\n${output}`);
    }
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) readyMs = performance.now() - started;
    } catch {
      // not listening yet
    }
    if (readyMs === null) await new Promise((r) => setTimeout(r, 10));
  }
  const servicePid = findService(child.pid!);
  if (servicePid === null) {
    killGroup();
    throw new Error(`no bin/signet*.mjs process from ${command}`);
  }
  return {
    baseUrl,
    readyMs,
    servicePid,
    output: () => output,
    stop: async () => {
      try {
        process.kill(servicePid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(killGroup, 10_000);
      await exited;
      clearTimeout(timer);
      killGroup();
    },
  };
}

/** A new, empty data directory under `root` (SQLite, local files). */
export function freshDataDir(root: string, prefix: string): string {
  mkdirSync(root, { recursive: true });
  return mkdtempSync(path.join(root, `${prefix}-`));
}

/** One start's figures: time to /readyz, and resident memory soon after and once idle. */
export type StartFigures = { readyMs: number; rssSoon: number; rssIdle: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * Starts the service `runs` times in `dir`, one after the other, each on a new SQLite database:
 * the time to /readyz, the resident memory `soonMs` after it (still holding what starting left
 * behind) and `idleMs` after it, untouched meanwhile. By then V8's memory reducer has collected
 * that and shrunk the young generation, which grows up to --max-semi-space-size while the start
 * allocates: the reducer waits for a low allocation rate, usually reached within 30 s here, and
 * otherwise runs by its watchdog, about 100 s after the last full collection; so `idleMs` of 2
 * minutes. Each service runs on until the last is measured, so the runs take `runs` starts plus
 * `idleMs`, not `runs` times `idleMs`.
 */
export async function measureStarts(
  dir: string,
  options: {
    runs: number;
    soonMs: number;
    idleMs: number;
    /** Where each start's data directory is made; `dir`/data by default. */
    dataRoot?: string;
    command?: [string, ...string[]];
    log?: (line: string) => void;
  },
): Promise<StartFigures[]> {
  const started: Array<StartedTree & { at: number; rssSoon: number }> = [];
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  try {
    for (let i = 0; i < options.runs; i++) {
      const service = await startBuiltTree(dir, {
        dataDir: freshDataDir(options.dataRoot ?? path.join(dir, 'data'), 'start'),
        command: options.command,
      });
      const at = Date.now();
      await sleep(options.soonMs);
      const rssSoon = residentBytes(service.servicePid);
      started.push({ ...service, at, rssSoon });
      options.log?.(
        `start ${i + 1}/${options.runs}: /readyz after ${service.readyMs.toFixed(0)} ms, RSS ${mib(rssSoon)}`,
      );
    }
    const figures: StartFigures[] = [];
    for (const service of started) {
      await sleep(service.at + options.idleMs - Date.now());
      figures.push({
        readyMs: service.readyMs,
        rssSoon: service.rssSoon,
        rssIdle: residentBytes(service.servicePid),
      });
    }
    options.log?.(`idle RSS: ${figures.map((f) => mib(f.rssIdle)).join(', ')}`);
    return figures;
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
}
