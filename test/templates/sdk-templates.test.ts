import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignetClient, SignetApiError, type SignetClient } from '../../sdk/src/index.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';

describe.each(ENGINES)('SDK templates against the live service on %s', (engine) => {
  let ctx: TestContext;
  let client: SignetClient;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    const user = await createUser(ctx);
    apiKey = user.apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    client = createSignetClient({ baseUrl: ctx.baseUrl, apiKey });
  });
  afterAll(() => ctx.close());

  it('creates, reads, lists, edits, publishes, uses and deletes a template', async () => {
    const made = await client.templates.create({
      tenantId,
      file: makePdf({ pages: 1 }),
      name: 'NDA',
      roles: [{ name: 'Counterparty' }],
      fields: [
        { role: 0, type: 'signature', page: 1, x: 72, y: 100, width: 160, height: 40 },
        { role: 0, type: 'text', page: 1, x: 72, y: 200, width: 160, height: 20, label: 'Company' },
      ],
    });
    const id = made.template.id;
    expect(made.fields.map((f) => f.type)).toEqual(['signature', 'text']);
    expect((await client.templates.get(id)).template.name).toBe('NDA');
    const page = await client.templates.list({ tenantId, q: 'nd' });
    expect(page.templates.map((t) => t.id)).toContain(id);
    const renamed = await client.templates.update(id, { name: 'Mutual NDA' });
    expect(renamed.template.name).toBe('Mutual NDA');
    const published = await client.templates.setDirectLink(id, true);
    expect(published.template.directLink.url).toMatch(/\/t\/dl_/);
    const [signature] = made.fields;
    const put = await client.templates.putFields(id, [
      {
        id: signature.id,
        roleId: signature.roleId,
        type: 'signature',
        page: 1,
        x: 80,
        y: 100,
        width: 160,
        height: 40,
      },
    ]);
    expect(put.fields).toHaveLength(1);

    const doc = await client.templates.createDocument(id, {
      signees: [{ role: 'counterparty', email: 'cp@example.com', name: 'C. Party' }],
      externalId: 'deal-7',
      send: true,
    });
    expect(doc.document).toMatchObject({
      status: 'in_process',
      templateId: id,
      externalId: 'deal-7',
    });
    expect(doc.deliveries).toHaveLength(1);
    const refused = await client.templates
      .createDocument(id, { signees: [{ role: 'nobody', email: 'x@example.com', name: 'X' }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SignetApiError);
    expect((refused as SignetApiError).status).toBe(422);

    await client.templates.delete(id);
    expect(await client.templates.get(id).catch((e: SignetApiError) => e.status)).toBe(404);
  });

  it('bulk sends a CSV and JSON rows, and reads progress and failed rows', async () => {
    const made = await client.templates.create({
      tenantId,
      file: makePdf({ pages: 1 }),
      name: 'Offer',
      roles: [{ name: 'Candidate' }],
      fields: [{ role: 0, type: 'signature', page: 1, x: 72, y: 100, width: 160, height: 40 }],
    });
    const id = made.template.id;
    const csv = new TextEncoder().encode(
      'Candidate.email,Candidate.name\nann@example.com,Ann\nnot-an-address,Bob\n',
    );
    const bulk = await client.bulkSends.create(id, { csv });
    expect(bulk).toMatchObject({ templateId: id, total: 2 });
    const done = await client.bulkSends.waitUntilCompleted(bulk.id, { intervalMs: 100 });
    expect(done).toMatchObject({ status: 'completed', created: 1, failed: 1 });
    const failed = await client.bulkSends.rows(bulk.id, { status: 'failed' });
    expect(failed.rows).toEqual([
      {
        row: 2,
        status: 'failed',
        error: expect.stringContaining('Candidate.email'),
        documentId: null,
      },
    ]);
    const json = await client.bulkSends.create(id, {
      rows: [{ signees: [{ role: 'Candidate', email: 'cy@example.com', name: 'Cy' }] }],
    });
    expect((await client.bulkSends.waitUntilCompleted(json.id, { intervalMs: 100 })).created).toBe(
      1,
    );
    const list = await client.bulkSends.list(id);
    expect(list.bulkSends.map((b) => b.id)).toEqual([json.id, bulk.id]);
  });

  it('saves a draft as a template', async () => {
    const draft = await quickCreate(ctx, apiKey, { tenantId });
    const saved = await client.documents.saveAsTemplate(draft.body.document.id, {
      name: 'From a draft',
      roles: ['First', 'Second'],
    });
    expect(saved.template.roles.map((r) => r.name)).toEqual(['First', 'Second']);
  });
});
