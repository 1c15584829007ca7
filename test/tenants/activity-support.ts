// The fixture of the activity log tests: a service on one engine, a tenant with an owner, an
// admin and a member, an outsider, and helpers that run a change and read the entries it wrote.
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestContext, type EngineName, type TestContext } from '../helpers/context.js';
import { insertMember } from '../helpers/db-factories.js';
import { api } from '../helpers/documents.js';
import { createTenantViaHttp, createUser, type TestUser } from '../helpers/factories.js';

/** An activity entry as the API answers it. */
export type Entry = {
  id: string;
  action: string;
  actor: { userId: string; email: string; apiKeyId: string | null };
  ip: string | null;
  details: Record<string, unknown>;
  createdAt: string;
};

/** What useActivityFixture gives a describe block; read its fields inside tests. */
export type ActivityFixture = {
  ctx: TestContext;
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  outsider: TestUser;
  tenantId: string;
  /** Every secret the service handed out: none may appear in any entry. */
  secrets: string[];
  /** The activity URL of the tenant, with a query string. */
  url: (query?: string) => string;
  /** Every entry of the tenant, newest first (as its admin reads them). */
  allEntries: () => Promise<Entry[]>;
  /** Runs a change and answers the entries it wrote, newest first. */
  entriesOf: (change: () => Promise<unknown>) => Promise<Entry[]>;
  /** Runs a change that must write exactly one entry of `action` by `by` (owner by default). */
  oneEntry: (action: string, change: () => Promise<unknown>, by?: TestUser) => Promise<Entry>;
};

/** Expects an answer's status and passes the answer on. */
export async function ok<T extends { status: number }>(
  call: Promise<T>,
  status: number,
): Promise<T> {
  const res = await call;
  expect(res.status).toBe(status);
  return res;
}

/** Starts the service and the tenant before the block's tests; closes it after them. */
export function useActivityFixture(engine: EngineName): ActivityFixture {
  const f = { secrets: [] as string[] } as ActivityFixture;
  f.url = (query = '') => `/api/tenants/${f.tenantId}/activity${query}`;
  f.allEntries = async () => {
    const res = await api(f.ctx, f.admin.apiKey, 'GET', f.url('?limit=100'));
    expect(res.status).toBe(200);
    return res.body.activity;
  };
  f.entriesOf = async (change) => {
    const before = new Set((await f.allEntries()).map((e) => e.id));
    await change();
    return (await f.allEntries()).filter((e) => !before.has(e.id));
  };
  f.oneEntry = async (action, change, by = f.owner) => {
    const entries = await f.entriesOf(change);
    expect(entries.map((e) => e.action)).toEqual([action]);
    const [entry] = entries;
    expect(entry.actor).toEqual({ userId: by.id, email: by.email, apiKeyId: by.apiKeyId });
    expect(entry.ip).toBe('127.0.0.1');
    return entry;
  };
  beforeAll(async () => {
    f.ctx = await createTestContext(engine, {
      listen: true,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    f.owner = await createUser(f.ctx, { name: 'Olivia Owner' });
    f.admin = await createUser(f.ctx);
    f.member = await createUser(f.ctx);
    f.outsider = await createUser(f.ctx);
    f.secrets.push(f.owner.apiKey, f.admin.apiKey, f.member.apiKey);
    f.tenantId = (await createTenantViaHttp(f.ctx, f.owner.apiKey, 'Activity Ltd')).id;
    await insertMember(f.ctx, f.tenantId, f.admin.id, 'admin');
    await insertMember(f.ctx, f.tenantId, f.member.id, 'member');
  });
  afterAll(() => f.ctx?.close());
  return f;
}

/** Expects no secret of the fixture, nor anything shaped like one, in any entry's details. */
export async function expectNoSecrets(f: ActivityFixture): Promise<void> {
  const rows = await f.ctx.db.kysely.selectFrom('tenant_activity').select('details').execute();
  expect(rows.length).toBeGreaterThan(5);
  const all = rows.map((r) => r.details).join('\n');
  expect(f.secrets.length).toBeGreaterThan(3);
  for (const secret of f.secrets) expect(all).not.toContain(secret);
  expect(all).not.toMatch(/sk_(test|live)_|whsec_|iv_/);
}
