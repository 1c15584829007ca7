import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { spawnService, type ServiceProcess } from '../webhooks/service-process.js';
import { waitUntil } from './support.js';

const DOCUMENTS = 24;
const SIGNEES = 2;

// Real `signet serve` processes, killed with SIGKILL while sends are in flight; the test's own
// app (no workers) reads the tables afterwards.
describe.each(ENGINES)('SIGKILL during send-for-signing on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true, workers: false });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    env = {
      DATA_DIR: ctx.config.dataDir,
      ...(ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl } : {}),
      RATE_LIMIT_PER_SECOND: '10000',
      RATE_LIMIT_BURST: '10000',
    };
  });
  afterAll(() => ctx.close());

  const send = (service: ServiceProcess, id: string) =>
    fetch(`${service.baseUrl}/api/documents/${id}/send-for-signing`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
    }).then(
      (r) => r.status,
      (err: unknown) => err,
    );

  async function createDraft(service: ServiceProcess): Promise<string> {
    const form = new FormData();
    form.append('tenantId', tenantId);
    form.append(
      'signees',
      JSON.stringify(
        Array.from({ length: SIGNEES }, (_, i) => ({ email: `s${i}@example.com`, name: `S ${i}` })),
      ),
    );
    form.append('file', new Blob([new Uint8Array(makePdf())]), 'c.pdf');
    const res = await fetch(`${service.baseUrl}/api/documents/quick-create`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
      body: form,
    });
    const body = (await res.json()) as { document: { id: string } };
    expect(res.status).toBe(201);
    return body.document.id;
  }

  async function balance(): Promise<number> {
    const row = await ctx.db.kysely
      .selectFrom('tenants')
      .select('credit_balance')
      .where('id', '=', tenantId)
      .executeTakeFirstOrThrow();
    return row.credit_balance;
  }

  // The invariant: a draft has consumed nothing and emitted nothing; a document in process has
  // exactly one ledger entry of -SIGNEES, one draft -> in_process event and its invitations.
  async function expectCreditsAndStatusAgree(ids: string[], startBalance: number) {
    let consumed = 0;
    const statuses: string[] = [];
    for (const id of ids) {
      const doc = await ctx.db.kysely
        .selectFrom('documents')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const ledger = await ctx.db.kysely
        .selectFrom('credit_ledger')
        .select('delta')
        .where('reference', '=', id)
        .execute();
      const events = await ctx.db.kysely
        .selectFrom('events')
        .select(['old_status', 'new_status'])
        .where('document_id', '=', id)
        .execute();
      const invited = await ctx.db.kysely
        .selectFrom('signees')
        .select('id')
        .where('document_id', '=', id)
        .where('token_hash', 'is not', null)
        .execute();
      statuses.push(doc.status);
      if (doc.status === 'draft') {
        expect(ledger, id).toEqual([]);
        expect(events, id).toEqual([]);
        expect(invited, id).toEqual([]);
      } else {
        expect(doc.status, id).toBe('in_process');
        expect(ledger.map((l) => l.delta)).toEqual([-SIGNEES]);
        expect(events).toEqual([{ old_status: 'draft', new_status: 'in_process' }]);
        expect(invited).toHaveLength(SIGNEES);
        consumed += SIGNEES;
      }
    }
    expect(await balance()).toBe(startBalance - consumed);
    const ledgerTotal = await ctx.db.kysely
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.sum<number>('delta').as('total'))
      .where('tenant_id', '=', tenantId)
      .where('reason', '=', 'send-for-signing')
      .executeTakeFirstOrThrow();
    expect(Number(ledgerTotal.total ?? 0) + consumed).toBe(0);
    return statuses;
  }

  it('keeps credits, ledger, events and status in agreement across a kill and a retry', async () => {
    const first = await spawnService(env);
    const ids: string[] = [];
    for (let i = 0; i < DOCUMENTS; i++) ids.push(await createDraft(first));
    const startBalance = await balance();

    // All sends at once; the kill lands while some have committed and others have not.
    const inFlight = ids.map((id) => send(first, id));
    // Kill as soon as the first send has committed, while the others are still running.
    await waitUntil(async () => {
      const moved = await ctx.db.kysely
        .selectFrom('documents')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'in_process')
        .executeTakeFirst();
      return moved !== undefined;
    }, 'a first send to commit');
    await first.kill9();
    const outcomes = await Promise.all(inFlight);
    const statuses = await expectCreditsAndStatusAgree(ids, startBalance);
    expect(statuses).toContain('in_process');
    expect(outcomes.filter((o) => o === 200).length).toBeLessThanOrEqual(
      statuses.filter((s) => s === 'in_process').length,
    );

    // A client retrying every send after the restart: drafts go out once, the rest are 409.
    const second = await spawnService(env);
    try {
      const retries = await Promise.all(ids.map((id) => send(second, id)));
      ids.forEach((id, i) => {
        expect([200, 409], id).toContain(retries[i]);
        if (statuses[i] === 'draft') expect(retries[i], id).toBe(200);
        else expect(retries[i], id).toBe(409);
      });
      const after = await expectCreditsAndStatusAgree(ids, startBalance);
      expect(after.every((s) => s === 'in_process')).toBe(true);
      expect(await balance()).toBe(startBalance - DOCUMENTS * SIGNEES);
    } finally {
      await second.stop();
    }
  });
});
