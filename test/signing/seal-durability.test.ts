import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { signingTokenFromMailbox } from '../helpers/signing.js';
import { spawnService } from '../webhooks/service-process.js';

describe.each(ENGINES)('sealing survives SIGKILL on %s', (engine) => {
  // The test's own app shares the service's database and DATA_DIR, with its workers off: it
  // sets documents up through HTTP and reads state, while spawned services do the sealing.
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let serviceEnv: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true, workers: false });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    serviceEnv = {
      DATA_DIR: ctx.config.dataDir,
      ...(ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl } : {}),
    };
  });
  afterAll(() => ctx.close());

  async function signedUpToPendingSeal(baseUrl: string, file: Buffer) {
    const email = `k${Math.random().toString(36).slice(2, 7)}@ex.io`;
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file,
      signees: [{ email, name: 'Kim' }],
    });
    const id = doc.body.document.id as string;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const token = await signingTokenFromMailbox(ctx, email);
    const res = await fetch(`${baseUrl}/api/signing/${token}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ consent: true, signature: { type: 'typed', text: 'Kim' } }),
    });
    expect(res.status).toBe(200);
    return id;
  }

  async function expectSealedOnce(id: string, timeoutMs: number) {
    const end = Date.now() + timeoutMs;
    let status = '';
    while (Date.now() < end) {
      status = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document.status;
      if (status === 'signed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('signed');
    const sealedEvents = await ctx.db.kysely
      .selectFrom('events')
      .select('id')
      .where('document_id', '=', id)
      .where('new_status', '=', 'signed')
      .where('signee_id', 'is', null)
      .execute();
    expect(sealedEvents).toHaveLength(1);
    const sealedAudit = await ctx.db.kysely
      .selectFrom('audit_entries')
      .select('id')
      .where('document_id', '=', id)
      .where('action', '=', 'sealed')
      .execute();
    expect(sealedAudit).toHaveLength(1);
    const doc = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document;
    const u = new URL(doc.downloadUrl);
    const bytes = Buffer.from(
      await (await fetch(`${ctx.baseUrl}${u.pathname}${u.search}`)).arrayBuffer(),
    );
    const file = path.join(ctx.config.dataDir, `check-${id}.pdf`);
    writeFileSync(file, bytes);
    const sig = spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
    expect(sig).toContain('Signature is Valid');
    expect(sig.match(/Signature #/g)).toHaveLength(1);
  }

  it('finishes a document left in pending_seal by a killed process', async () => {
    const first = await spawnService({ ...serviceEnv, RUN_WORKERS: 'false' });
    const id = await signedUpToPendingSeal(first.baseUrl, makePdf({ pages: 2 }));
    expect((await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document.status).toBe(
      'pending_seal',
    );
    await first.kill9();
    const second = await spawnService(serviceEnv);
    try {
      await expectSealedOnce(id, 20_000);
    } finally {
      await second.stop();
    }
  });

  it('finishes a seal interrupted by SIGKILL mid-way, sealing once', async () => {
    const first = await spawnService(serviceEnv);
    const id = await signedUpToPendingSeal(
      first.baseUrl,
      makePdf({ pages: 200, padBytes: 8 * 1024 * 1024 }),
    );
    const end = Date.now() + 20_000;
    let job;
    while (Date.now() < end) {
      job = await ctx.db.kysely
        .selectFrom('jobs')
        .selectAll()
        .where('kind', '=', 'document.seal')
        .where('payload', 'like', `%${id}%`)
        .executeTakeFirst();
      if (job?.status === 'running') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    await first.kill9();
    const status = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document
      .status;
    // Killed while running: the lease is held by a dead worker and must be taken over.
    expect(job?.status).toBe('running');
    expect(status).toBe('pending_seal');
    const second = await spawnService(serviceEnv);
    try {
      await expectSealedOnce(id, 60_000);
    } finally {
      await second.stop();
    }
  });
});
