import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanOrphanFiles } from '../../server/src/modules/storage/orphan-cleanup.js';
import { templateFileKey } from '../../server/src/modules/storage/keys.js';
import { storedFiles } from '../faults/support.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';

// Orphan cleanup of template files: a file stays while its template, a document made from it
// or an unfinished bulk send needs it, and goes once nothing does (a crash between a delete's
// commit and its file's removal leaves it to cleanup).
describe.each(ENGINES)('template files and orphan cleanup on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  // Everything is older than a grace of 0 seconds a minute from now.
  const clean = () =>
    cleanOrphanFiles({
      db: ctx.db,
      storage: ctx.deps.storage,
      graceSeconds: 0,
      now: new Date(Date.now() + 60_000),
    });
  const templateFiles = () => storedFiles(ctx.config.dataDir, 'templates').map((f) => f.key);

  it('keeps a file while a template or a document needs it, removes it after', async () => {
    const made = await createTemplate(ctx, apiKey, { tenantId, fields: signatureFields(2) });
    const id = made.body.template.id as string;
    const key = templateFileKey(id);
    const doc = await api(ctx, apiKey, 'POST', `/api/templates/${id}/documents`, {
      signees: [
        { role: 0, email: 'a@example.com', name: 'A' },
        { role: 1, email: 'b@example.com', name: 'B' },
      ],
    });
    expect(doc.status).toBe(201);
    const stray = templateFileKey(randomUUID());
    await ctx.deps.storage.put(stray, makePdf(), 'application/pdf');
    await ctx.deps.storage.put('templates/ab/notes.pdf', makePdf(), 'application/pdf');

    let result = await clean();
    expect(result.deleted).toEqual([stray]);
    expect(templateFiles()).toContain(key);
    expect(templateFiles()).toContain('templates/ab/notes.pdf');

    // The template's row gone as by a crash before its file was released: the document
    // still needs the file.
    await ctx.db.kysely.deleteFrom('templates').where('id', '=', id).execute();
    result = await clean();
    expect(result.deleted).toEqual([]);
    const download = new URL(
      (await api(ctx, apiKey, 'GET', `/api/documents/${doc.body.document.id}`)).body.document
        .downloadUrl,
    );
    expect((await fetch(`${ctx.baseUrl}${download.pathname}${download.search}`)).status).toBe(200);

    await ctx.db.kysely.deleteFrom('documents').where('template_id', '=', id).execute();
    result = await clean();
    expect(result.deleted).toEqual([key]);
    expect(templateFiles()).not.toContain(key);
  });

  it('keeps the file of a bulk send with rows left, whatever became of its template', async () => {
    const made = await createTemplate(ctx, apiKey, { tenantId, fields: signatureFields(2) });
    const id = made.body.template.id as string;
    const now = new Date().toISOString();
    const bulkId = randomUUID();
    const user = await ctx.db.kysely
      .selectFrom('templates')
      .select('user_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await ctx.db.kysely
      .insertInto('bulk_sends')
      .values({
        id: bulkId,
        tenant_id: tenantId,
        template_id: id,
        user_id: user.user_id,
        sender_name: 'S',
        origin: null,
        template_snapshot: '{}',
        status: 'running',
        total: 1,
        created: 0,
        failed: 0,
        credits_reserved: 0,
        waiting_until: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })
      .execute();
    await ctx.db.kysely.deleteFrom('templates').where('id', '=', id).execute();
    expect((await clean()).deleted).toEqual([]);
    await ctx.db.kysely
      .updateTable('bulk_sends')
      .set({ status: 'completed' })
      .where('id', '=', bulkId)
      .execute();
    expect((await clean()).deleted).toEqual([templateFileKey(id)]);
  });
});
