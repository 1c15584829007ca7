import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, newId, newSecret, nowIso } from '../../server/src/lib/ids.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signAsOnlySignee } from '../helpers/signing.js';

describe.each(ENGINES)('audit rows of a copy link on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
  });
  afterAll(() => ctx.close());

  it('records the first download and then at most one an hour, counting every download', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const signee = { email: `copy.${engine}@example.com`, name: 'Copy Reader' };
    const made = await quickCreate(ctx, owner.apiKey, { tenantId, signees: [signee] });
    const documentId = made.body.document.id as string;
    await signAsOnlySignee(ctx, owner.apiKey, documentId, signee);
    // A copy link as the completion e-mail of a large copy carries one.
    const token = newSecret('sc_');
    const linkId = newId();
    await ctx.db.kysely
      .insertInto('copy_links')
      .values({
        id: linkId,
        document_id: documentId,
        tenant_id: tenantId,
        recipient: signee.email,
        token_hash: hashSecret(token),
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        revoked_at: null,
        created_at: nowIso(),
        downloads: 0,
        audited_at: null,
      })
      .execute();
    const download = () => ctx.app.inject({ url: `/api/copies/${token}` });
    const copies = async () =>
      (
        await api(ctx, owner.apiKey, 'GET', `/api/documents/${documentId}/audit-trail`)
      ).body.auditTrail.filter((e: { action: string }) => e.action === 'copy downloaded');

    for (let i = 0; i < 20; i++) expect((await download()).statusCode).toBe(200);
    expect(await copies()).toHaveLength(1);
    expect((await copies())[0].details).toEqual({ recipient: signee.email, downloads: 1 });

    // An hour later the next download is recorded again, with the count so far.
    await ctx.db.kysely
      .updateTable('copy_links')
      .set({ audited_at: new Date(Date.now() - 3_600_001).toISOString() })
      .where('id', '=', linkId)
      .execute();
    expect((await download()).statusCode).toBe(200);
    expect((await download()).statusCode).toBe(200);
    const rows = await copies();
    expect(rows).toHaveLength(2);
    expect(rows.map((r: { details: { downloads: number } }) => r.details.downloads).sort()).toEqual(
      [1, 21],
    );
    const link = await ctx.db.kysely
      .selectFrom('copy_links')
      .select('downloads')
      .where('id', '=', linkId)
      .executeTakeFirstOrThrow();
    expect(Number(link.downloads)).toBe(22);
  });
});
