// Issue 46: an outside fault never strands a document. A time-stamp authority that is down
// makes the seal job retry (the document stays pending_seal, nothing is sealed degraded); its
// last attempt seals at the level reached and says so. When nothing can be sealed at all, the
// document moves to seal_failed (an event, the reason), and POST /api/documents/{id}/seal
// seals it again once the cause is put right.
import { spawnSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { startLocalPki, type LocalPki } from '../helpers/local-pki.js';
import { makePdf } from '../helpers/pdf.js';
import { signingTokenFromMailbox } from '../helpers/signing.js';

let pki: LocalPki;
beforeAll(async () => {
  pki = await startLocalPki();
}, 60_000);
afterAll(() => pki.close());

describe.each(ENGINES)('a seal that meets an outside fault on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      env: {
        TSA_URL: pki.tsa.url,
        SEAL_LEVEL: 'B-LTA',
        SEAL_P12_PATH: pki.seal.p12Path,
        SEAL_P12_PASSWORD: pki.seal.password,
      },
    });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(async () => {
    pki.tsa.mode = 'ok';
    await ctx.close();
  });

  async function signedByAll() {
    const email = `s${Math.random().toString(36).slice(2, 8)}@ex.io`;
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file: makePdf({ pages: 1 }),
      signees: [{ email, name: 'Sam' }],
    });
    const id = created.body.document.id as string;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const token = await signingTokenFromMailbox(ctx, email);
    const res = await fetch(`${ctx.baseUrl}/api/signing/${token}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ consent: true, signature: { type: 'typed', text: 'Sam' } }),
    });
    expect(res.status).toBe(200);
    return id;
  }

  const sealJob = (id: string) =>
    ctx.db.kysely
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'document.seal')
      .where('payload', 'like', `%${id}%`)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();

  async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    const end = Date.now() + 30_000;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const documentOf = async (id: string) =>
    (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document;

  // The job failed at least once and waits for its retry; then its next attempt is made its last.
  async function makeNextAttemptTheLast(id: string) {
    const failed = await until('a failed attempt', async () => {
      const job = await sealJob(id);
      return job.attempts >= 1 && job.status === 'pending' ? job : undefined;
    });
    await ctx.db.kysely
      .updateTable('jobs')
      .set({ max_attempts: failed.attempts + 1, run_at: new Date().toISOString() })
      .where('id', '=', failed.id)
      .execute();
    ctx.deps.jobs.wake();
    return failed;
  }

  it('retries a TSA that is down, then seals at B-B on the last attempt, saying so', async () => {
    pki.tsa.mode = 'always-503';
    const id = await signedByAll();
    const failed = await makeNextAttemptTheLast(id);
    expect(failed.last_error).toMatch(/time-stamp authority/);
    // Between attempts: still pending_seal, nothing sealed, not the attached fallback.
    expect(await documentOf(id)).toMatchObject({ status: 'pending_seal', sealMode: null });
    const doc = await until('the seal', async () => {
      const d = await documentOf(id);
      return d.status === 'signed' ? d : undefined;
    });
    expect(doc).toMatchObject({ sealLevel: 'B-B', sealMode: 'normalised', sealFailure: null });
    const trail = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body;
    const sealed = trail.auditTrail.find((e: { action: string }) => e.action === 'sealed');
    expect(sealed.details).toMatchObject({ sealLevel: 'B-B', requestedLevel: 'B-LTA' });
    pki.tsa.mode = 'ok';
  });

  it('moves a document that cannot be sealed at all to seal_failed, and seals it on retry', async () => {
    pki.tsa.mode = 'ok';
    // The original gone from storage (a bucket or disk fault): nothing can be sealed.
    const created = await signedByAllWithoutOriginal();
    const { id, file, hidden } = created;
    await makeNextAttemptTheLast(id);
    const doc = await until('seal_failed', async () => {
      const d = await documentOf(id);
      return d.status === 'seal_failed' ? d : undefined;
    });
    expect(doc.sealFailure).toMatch(/ENOENT|no such file/i);
    const events = await ctx.db.kysely
      .selectFrom('events')
      .select(['old_status', 'new_status'])
      .where('document_id', '=', id)
      .where('signee_id', 'is', null)
      .orderBy('occurred_at')
      .execute();
    expect(events.at(-1)).toEqual({ old_status: 'pending_seal', new_status: 'seal_failed' });
    // The operator's view: `signet seal failed` lists it with its reason.
    const listed = signet('seal', 'failed');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\t${tenantId}\t.*(ENOENT|no such file)`, 'im'));
    // Deletable now (a sender may rather start again), but first: put it right and retry.
    renameSync(hidden, file);
    const retried = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/seal`);
    expect(retried.status).toBe(200);
    expect(retried.body.document).toMatchObject({ status: 'pending_seal', sealFailure: null });
    const again = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/seal`);
    expect(again.status).toBe(409);
    const sealed = await until('the seal after a retry', async () => {
      const d = await documentOf(id);
      return d.status === 'signed' ? d : undefined;
    });
    expect(sealed.sealLevel).toBe('B-LTA');
    const actions = (
      await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)
    ).body.auditTrail.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['seal failed', 'seal retried', 'sealed']));
  });

  it('seals again from the CLI: signet seal retry', async () => {
    pki.tsa.mode = 'ok';
    const { id, file, hidden } = await signedByAllWithoutOriginal();
    await makeNextAttemptTheLast(id);
    await until('seal_failed', async () =>
      (await documentOf(id)).status === 'seal_failed' ? true : undefined,
    );
    renameSync(hidden, file);
    const retried = signet('seal', 'retry', id);
    expect(retried.status, retried.stderr).toBe(0);
    expect(retried.stdout).toContain('pending_seal again');
    // This test's own service runs the job the CLI queued.
    ctx.deps.jobs.wake();
    const sealed = await until('the seal after the CLI retry', async () => {
      const d = await documentOf(id);
      return d.status === 'signed' ? d : undefined;
    });
    expect(sealed.sealLevel).toBe('B-LTA');
    const again = signet('seal', 'retry', id);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('is signed, not seal_failed');
  });

  it('answers 409 to a retry of a document that is not seal_failed', async () => {
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file: makePdf({ pages: 1 }),
      signees: [{ email: 'x@ex.io', name: 'X' }],
    });
    const res = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${created.body.document.id}/seal`,
    );
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  // The operator's CLI on this test's database.
  function signet(...args: string[]) {
    const env: Record<string, string> = { DATA_DIR: ctx.config.dataDir, LOG_LEVEL: 'silent' };
    if (ctx.config.databaseUrl) env.DATABASE_URL = ctx.config.databaseUrl;
    const result = spawnSync('npx', ['tsx', 'server/src/cli.ts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  // Signed by all, with the seal job held back until the original is moved out of storage.
  async function signedByAllWithoutOriginal() {
    await ctx.deps.jobs.stop();
    const id = await signedByAll();
    const row = await ctx.db.kysely
      .selectFrom('documents')
      .select('file')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const file = ctx.deps.storage.localPath!(row.file)!;
    const hidden = path.join(path.dirname(file), 'hidden.pdf');
    renameSync(file, hidden);
    ctx.deps.jobs.start();
    return { id, file, hidden };
  }
});
