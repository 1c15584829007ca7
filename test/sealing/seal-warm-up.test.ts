import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signAsOnlySignee } from '../helpers/signing.js';
import { WARM_UP_SEALS } from '../../server/src/modules/sealing/seal-worker.js';
import { runOnPdf, scratchDir } from './helpers.js';

/** signet_seal_warm_up_seals_total, as /metrics answers it. */
async function warmUpSeals(ctx: TestContext): Promise<number> {
  const text = await (await fetch(`${ctx.baseUrl}/metrics`)).text();
  const line = /^signet_seal_warm_up_seals_total (\d+)$/m.exec(text);
  expect(line, 'the metric is exported').not.toBeNull();
  return Number(line![1]);
}

// Runs first: the sealing thread is one per process.
describe('an API-only process (no job runner)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { listen: true, workers: false });
  });
  afterAll(() => ctx.close());

  it('does not start the sealing thread when a document is sent', async () => {
    const { apiKey } = await createUser(ctx);
    const { id: tenantId } = await createTenant(ctx, apiKey);
    const created = await quickCreate(ctx, apiKey, { tenantId });
    const id = created.body.document.id as string;
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    // A warm-up would have sealed at least once by now (a thread starts in about a second).
    await new Promise((r) => setTimeout(r, 3000));
    expect(await warmUpSeals(ctx)).toBe(0);
  });
});

// The sealing thread is started when a document is sent and warms itself with throwaway seals
// (seal-worker.ts), once per thread; real seals go on meanwhile, and after.
describe.each(ENGINES)('warming the sealing thread on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  const scratch = scratchDir();
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(async () => {
    await ctx.close();
    scratch.cleanup();
  });

  /** Sends a one-signee document, signs it at once, and answers its sealed bytes. */
  const sendAndSign = async (name: string) => {
    const signee = { email: `${name}.${engine}@example.com`, name: 'Warm Up' };
    const created = await quickCreate(ctx, apiKey, { tenantId, signees: [signee] });
    expect(created.status).toBe(201);
    const { sealed } = await signAsOnlySignee(
      ctx,
      apiKey,
      created.body.document.id,
      signee,
      60_000,
    );
    return sealed;
  };

  it('warms the thread once, from the first send, while real seals go on', async () => {
    // Signed straight after sending: its seal runs among the warm-up's.
    const first = await sendAndSign('first');
    const check = runOnPdf(scratch.dir, 'pdfsig', ['{}'], first);
    expect(check.stdout).toContain('Signature is Valid');
    // The thread is warm once it has sealed WARM_UP_SEALS documents, the real one among them
    // (unless the warm-up was over before it came).
    const end = Date.now() + 45_000;
    while ((await warmUpSeals(ctx)) < WARM_UP_SEALS - 1 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 500));
    const warmedWith = await warmUpSeals(ctx);
    expect([WARM_UP_SEALS - 1, WARM_UP_SEALS]).toContain(warmedWith);

    // A warm thread is not warmed again.
    const second = await sendAndSign('second');
    expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], second).stdout).toContain('Signature is Valid');
    expect(await warmUpSeals(ctx)).toBe(warmedWith);
  });
});
