// Shared by the benchmarks: child processes that are always reaped, the real service started
// as `signet serve` (node with the flags on the bin's #! line), an account set up over HTTP, and
// small statistics.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
export { freePort } from '../../test/helpers/free-port.js';
import { freePort } from '../../test/helpers/free-port.js';
import { readBuildState } from '../../test/build/built-tree.js';

/** The repository root, where `bin/signet.mjs` lives. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Requests/second above which the per-key token bucket still runs on every request but never
// refuses one, so the limiter's cost is measured and its verdict is not.
const NEVER_LIMIT = String(1e9);

/**
 * The node flags the `signet` command runs with (its `#!/usr/bin/env -S node …` line), so a
 * benchmark measures the service as `npm start` and the installed command run it.
 */
export const SERVICE_NODE_FLAGS: string[] = readFileSync(path.join(ROOT, 'bin/signet.mjs'), 'utf8')
  .split('\n', 1)[0]!
  .replace(/^#!.*?\bnode\b/, '')
  .trim()
  .split(/\s+/)
  .filter(Boolean);

let buildChecked = false;

/**
 * Builds dist/ when it is missing or older than the sources (`npm run build`), once per process.
 * `bin/signet.mjs` runs the sources through tsx when the build is not current, which is slower
 * and starts tsx's loader thread: a benchmark on a fresh checkout, or after an edit, would
 * measure that instead of the service `npm start` runs.
 */
export async function ensureCurrentBuild(log: (line: string) => void = () => {}): Promise<void> {
  if (buildChecked) return;
  const state = await readBuildState();
  if (state.state !== 'current') {
    log(`${state.reason}: npm run build`);
    const built = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'build.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (built.status !== 0) throw new Error(`npm run build failed (${built.status})`);
  }
  buildChecked = true;
}

/** The middle value (mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The smallest and largest value, `min–max`, with `digits` decimals. */
export function minMax(values: number[], digits = 0): string {
  return `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
}

/** The nearest-rank percentile p (0-100). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Child processes of one benchmark run; `stopAll` in a finally, plus a kill on exit. */
export type Children = {
  start: (args: string[], env?: NodeJS.ProcessEnv) => ChildProcess;
  stop: (child: ChildProcess) => Promise<void>;
  stopAll: () => Promise<void>;
};

/** Tracks spawned node processes so none outlives the benchmark, even on an error or Ctrl-C. */
export function createChildren(): Children {
  const live = new Set<ChildProcess>();
  const killAll = () => live.forEach((c) => c.kill('SIGKILL'));
  process.once('exit', killAll);
  const stop = async (child: ChildProcess) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    start(args, env = {}) {
      const child = spawn(process.execPath, args, {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      live.add(child);
      child.once('exit', () => live.delete(child));
      return child;
    },
    stop,
    async stopAll() {
      await Promise.all([...live].map(stop));
      process.removeListener('exit', killAll);
    },
  };
}

/** Polls until `url` answers 2xx; fails fast if the child exits first. */
export async function waitForOk(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A running `signet serve` child. */
/** Node flags that write a V8 CPU profile of the service into `dir` (none without one). */
export function profileArgs(dir: string | null | undefined): string[] {
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];
}

export type Service = { base: string; child: ChildProcess; pid: number };

/** Starts the real service on a free port with LOG_LEVEL=warn and a limiter that never refuses. */
export async function startService(
  children: Children,
  options: {
    dataDir: string;
    databaseUrl?: string;
    nodeArgs?: string[];
    /** More settings, over the defaults below. */
    env?: NodeJS.ProcessEnv;
  },
): Promise<Service> {
  await ensureCurrentBuild((line) => console.error(line));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = children.start(
    [...SERVICE_NODE_FLAGS, ...(options.nodeArgs ?? []), 'bin/signet.mjs', 'serve'],
    {
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      STORAGE_URL: '',
      SMTP_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      ESIGN_ENV: 'sandbox',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: NEVER_LIMIT,
      RATE_LIMIT_BURST: NEVER_LIMIT,
      ...options.env,
    },
  );
  await waitForOk(`${base}/healthz`, child);
  if (child.pid === undefined) throw new Error('service has no pid');
  return { base, child, pid: child.pid };
}

async function expectStatus(res: Response, status: number, what: string): Promise<Response> {
  if (res.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${res.status} ${await res.text()}`);
  }
  return res;
}

/** Signup, verify (link from the dev mailbox), login, API key, tenant: all over HTTP. */
export async function createKeyAndTenant(
  base: string,
  /** The texts of the e-mails sent to an address, when they do not go to the dev mailbox. */
  mailTo: (email: string) => Promise<string[]> = (email) => devMailbox(base, email),
): Promise<{ apiKey: string; tenantId: string; userId: string }> {
  const json = { 'content-type': 'application/json' };
  const email = `bench.${process.pid}.${Date.now()}@example.com`;
  const password = 'benchmark password';
  const signup = await expectStatus(
    await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password, name: 'Bench' }),
    }),
    201,
    'signup',
  );
  const userId = ((await signup.json()) as { user: { id: string } }).user.id;
  const texts = await mailTo(email);
  const link = texts.map((t) => /\S*\/verify-email\?token=[\w-]+/.exec(t)?.[0]).find(Boolean);
  if (!link) throw new Error('no verification link in the e-mails');
  await expectStatus(await fetch(link), 200, 'verify link');
  const login = await expectStatus(
    await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password }),
    }),
    200,
    'login',
  );
  const session = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('signet_session='));
  if (!session) throw new Error('login set no signet_session cookie');
  const key = await expectStatus(
    await fetch(`${base}/api/account/api-keys`, {
      method: 'POST',
      headers: { ...json, cookie: session, origin: base },
      body: JSON.stringify({ name: 'benchmark' }),
    }),
    201,
    'create API key',
  );
  const { secret: apiKey } = (await key.json()) as { secret: string };
  return { apiKey, tenantId: await createTenant(base, apiKey), userId };
}

// The texts of the e-mails the dev mailbox holds for an address.
async function devMailbox(base: string, email: string): Promise<string[]> {
  const mailbox = await expectStatus(
    await fetch(`${base}/dev/mailbox?to=${encodeURIComponent(email)}`, {
      headers: { accept: 'application/json' },
    }),
    200,
    'dev mailbox',
  );
  const { emails } = (await mailbox.json()) as { emails: Array<{ text: string }> };
  return emails.map((e) => e.text);
}

/** Another tenant owned by the key's user; returns its id. */
export async function createTenant(base: string, apiKey: string, name = 'Bench tenant') {
  const tenant = await expectStatus(
    await fetch(`${base}/api/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ name }),
    }),
    201,
    'create tenant',
  );
  return ((await tenant.json()) as { tenant: { id: string } }).tenant.id;
}

/** Creates a folder at the top of a tenant over HTTP; its id. */
export async function createFolder(base: string, apiKey: string, tenantId: string, name = 'Bench') {
  const folder = await expectStatus(
    await fetch(`${base}/api/tenants/${tenantId}/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ name }),
    }),
    201,
    'create folder',
  );
  return ((await folder.json()) as { folder: { id: string } }).folder.id;
}

/** A process's resident and peak resident memory in bytes, from /proc (Linux only). */
export function readMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kib('VmRSS') * 1024, hwm: kib('VmHWM') * 1024 };
}

/** True when `import.meta.url` of the caller is the script node was started with. */
export function isMain(metaUrl: string): boolean {
  return Boolean(process.argv[1]) && fileURLToPath(metaUrl) === path.resolve(process.argv[1]);
}

// utime + stime of a process in clock ticks (Linux /proc; USER_HZ is 100 on every
// mainstream Linux), or null elsewhere.
function cpuTicks(pid: number, thread?: number): number | null {
  try {
    const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/**
 * Runs a load against the process `pid` serves and adds the CPU time per request it answered:
 * of the process (all threads), and of its main thread alone, whose event loop bounds the
 * throughput (the other threads write and flush files); null where /proc is not there.
 */
export async function withCpuPerRequest<R extends { total: number }>(
  pid: number,
  run: () => Promise<R>,
): Promise<R & { cpuMicrosPerRequest: number | null; mainThreadMicrosPerRequest: number | null }> {
  const before = [cpuTicks(pid), cpuTicks(pid, pid)];
  const result = await run();
  const after = [cpuTicks(pid), cpuTicks(pid, pid)];
  const perRequest = (i: number) => {
    const [a, b] = [before[i], after[i]];
    return a === null || b === null || result.total === 0
      ? null
      : ((b - a) * 10_000) / result.total;
  };
  return {
    ...result,
    cpuMicrosPerRequest: perRequest(0),
    mainThreadMicrosPerRequest: perRequest(1),
  };
}

/** The processes whose command is `postgres` (a local PostgreSQL server's), Linux only. */
function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

// Busy ticks of the whole machine (every CPU), from /proc/stat.
function machineTicks(): number | null {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const [user, nice, system, , iowait, irq, softirq, steal] = fields.map(Number);
    return user + nice + system + iowait + irq + softirq + steal;
  } catch {
    return null;
  }
}

/** Cores used over a stretch of time: the services', the local PostgreSQL's, the machine's. */
export type CpuShares = {
  services: number;
  postgres: number | null;
  machine: number;
  cores: number;
};

/**
 * Starts measuring the CPU the services `pids` and a PostgreSQL server on this machine (every
 * `postgres` process, backends come and go) use; `stop` gives each in cores. Null off Linux.
 */
export function measureCpuShares(pids: number[], withPostgres: boolean) {
  const sum = (list: number[]) => list.reduce((n, pid) => n + (cpuTicks(pid) ?? 0), 0);
  const started = performance.now();
  const machine = machineTicks();
  if (machine === null) return { stop: (): CpuShares | null => null };
  const services = sum(pids);
  // A backend that exits meanwhile takes its ticks with it: sampled often, the sum keeps them.
  const seen = new Map<number, { first: number; last: number }>();
  const sample = () => {
    for (const pid of withPostgres ? postgresPids() : []) {
      const ticks = cpuTicks(pid);
      if (ticks === null) continue;
      const known = seen.get(pid);
      if (known) known.last = ticks;
      else seen.set(pid, { first: ticks, last: ticks });
    }
  };
  sample();
  const timer = setInterval(sample, 1000);
  return {
    stop: (): CpuShares | null => {
      clearInterval(timer);
      sample();
      const seconds = (performance.now() - started) / 1000;
      const cores = (ticks: number) => ticks / 100 / seconds;
      let pg = 0;
      for (const { first, last } of seen.values()) pg += last - first;
      return {
        services: cores(sum(pids) - services),
        postgres: withPostgres ? cores(pg) : null,
        machine: cores((machineTicks() ?? machine) - machine),
        cores: availableParallelism(),
      };
    },
  };
}
