import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { spawnService, type ServiceProcess } from '../webhooks/service-process.js';

/** Two service processes on one PostgreSQL database, a tenant, and the test's own handle. */
export type TwoProcesses = {
  ctx: TestContext;
  a: ServiceProcess;
  b: ServiceProcess;
  apiKey: string;
  tenantId: string;
  close: () => Promise<void>;
};

/**
 * Starts two `signet serve` processes on one fresh PostgreSQL database, each with its own
 * DATA_DIR and the same SECRET_KEY, plus a test context on that database that runs no jobs
 * (the processes do), and an owner with a tenant.
 */
export async function startTwoProcesses(env: Record<string, string> = {}): Promise<TwoProcesses> {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-scale-'));
  const shared = { SECRET_KEY: randomBytes(32).toString('hex') };
  const ctx = await createTestContext('postgres', { listen: true, workers: false, env: shared });
  const serviceEnv = {
    ...shared,
    DATABASE_URL: ctx.config.databaseUrl!,
    LOG_LEVEL: 'warn',
    ...env,
  };
  const [a, b] = await Promise.all([
    spawnService({ ...serviceEnv, DATA_DIR: path.join(dir, 'a') }),
    spawnService({ ...serviceEnv, DATA_DIR: path.join(dir, 'b') }),
  ]);
  const apiKey = (await createUser(ctx)).apiKey;
  const tenantId = (await createTenant(ctx, apiKey)).id;
  return {
    ctx,
    a,
    b,
    apiKey,
    tenantId,
    close: async () => {
      await Promise.all([a.kill9(), b.kill9()]);
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
