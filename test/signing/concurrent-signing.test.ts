import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { signingCall, signingTokenFromMailbox, waitForStatus } from '../helpers/signing.js';

// Signees of one wave sign whenever they like, so two of them may sign in the same instant.
// Every signature and every field value must survive that, and the last signature, whichever
// it is, must move the document on: on PostgreSQL two transactions run at once.
describe.each(ENGINES)('signees signing at the same moment on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  it('keeps every value and completes the document, whoever signs last', async () => {
    const count = 6;
    for (let round = 0; round < 3; round++) {
      const signees = Array.from({ length: count }, (_, i) => ({
        email: `s${i}-${round}-${Math.random().toString(36).slice(2, 7)}@ex.io`,
        name: `Signee ${i}`,
      }));
      const fields = signees.flatMap((_, i) => [
        { signee: i, type: 'signature', page: 1, x: 40, y: 40 + i * 100, width: 150, height: 40 },
        { signee: i, type: 'text', page: 1, x: 220, y: 40 + i * 100, width: 150, height: 20 },
      ]);
      const created = await quickCreate(ctx, apiKey, {
        tenantId,
        file: makePdf({ pages: 1 }),
        signees,
        extra: { fields: JSON.stringify(fields) },
      });
      expect(created.status).toBe(201);
      const id = created.body.document.id as string;
      const textFields = (created.body.fields as Array<{ id: string; type: string }>).filter(
        (f) => f.type === 'text',
      );
      expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
        200,
      );
      const tokens = await Promise.all(signees.map((s) => signingTokenFromMailbox(ctx, s.email)));
      const answers = await Promise.all(
        tokens.map((token, i) =>
          signingCall(ctx, token, 'sign', {
            consent: true,
            signature: { type: 'typed', text: `Signee ${i}` },
            fields: [{ id: textFields[i].id, value: `answer ${i}` }],
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(signees.map(() => 200));
      const done = await waitForStatus(ctx, apiKey, id, 'signed');
      expect(done.signees.map((s: { status: string }) => s.status)).toEqual(
        signees.map(() => 'signed'),
      );
      const values = (done.fields as Array<{ type: string; value: unknown }>)
        .filter((f) => f.type === 'text')
        .map((f) => f.value);
      expect(values).toEqual(signees.map((_, i) => `answer ${i}`));
    }
  });
});
