// The client methods added for full coverage of the OpenAPI document, against a live service on
// both engines: service and account, tenant settings and members, remind, cancel, the audit
// trail and certificate, downloads, the text-tag preview, verify and delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignetClient, SignetApiError, type SignetClient } from '../../sdk/src/index.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createUser } from '../helpers/factories.js';
import { minimalPdf, WEBHOOK_TEST_ENV } from '../webhooks/fixtures.js';

describe.each(ENGINES)('SDK client operations on %s', (engine) => {
  let ctx: TestContext;
  let client: SignetClient;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { env: WEBHOOK_TEST_ENV, listen: true });
    const user = await createUser(ctx);
    client = createSignetClient({ baseUrl: ctx.baseUrl, apiKey: user.apiKey });
    tenantId = (await client.tenants.create({ name: 'Operations' })).id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('service, account and tenant', async () => {
    expect(await client.service.health()).toEqual({ status: 'ok' });
    expect(await client.service.readiness()).toEqual({ status: 'ready' });
    expect((await client.service.meta()).environment).toBe('sandbox');
    expect(await client.service.metrics()).toMatch(/^# HELP /m);
    const me = await client.account.me();
    const members = await client.tenants.members(tenantId);
    expect(members.map((m) => [m.userId, m.role])).toEqual([[me.id, 'owner']]);
    expect(await client.tenants.invitations(tenantId)).toEqual([]);
    expect(typeof (await client.tenants.credits(tenantId)).balance).toBe('number');
    expect(await client.tenants.logo(tenantId)).toBeNull();
    const settings = await client.tenants.updateSettings(tenantId, { brandName: 'Ops Ltd' });
    expect(settings.brandName).toBe('Ops Ltd');
    expect((await client.tenants.settings(tenantId)).brandName).toBe('Ops Ltd');
    // The change is the newest entry of the tenant's activity log.
    const { activity, nextCursor } = await client.tenants.activity(tenantId, { limit: 1 });
    expect(activity[0]).toMatchObject({ action: 'settings.updated', actor: { userId: me.id } });
    expect(nextCursor).toEqual(expect.any(String));
  });

  it('a document from preview to delete', async () => {
    const preview = await client.documents.previewTextTags({ file: minimalPdf(), signees: 1 });
    expect(preview.fields).toEqual([]);

    const { document } = await client.documents.quickCreate({
      tenantId,
      file: minimalPdf(),
      signees: [
        { email: 'a@example.com', name: 'A', signingGroupId: 'g' },
        { email: 'b@example.com', name: 'B', signingGroupId: 'g' },
      ],
      signingGroupsEnabled: true,
    });
    expect(document.signingGroupsEnabled).toBe(true);
    const notSent = await client.documents.getAuditCertificate(document.id).catch((e) => e);
    expect(notSent).toMatchObject({ status: 409, code: 'document_not_sent' });

    await client.documents.sendForSigning(document.id);
    const reminded = await client.documents.remind(document.id);
    expect(reminded.document.id).toBe(document.id);
    const certificate = await client.documents.getAuditCertificate(document.id);
    expect(Buffer.from(certificate.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const original = await client.documents.download(document.id);
    expect(Buffer.from(original).equals(minimalPdf())).toBe(true);
    const actions = (await client.documents.auditTrail(document.id)).map((e) => e.action);
    expect(actions.length).toBeGreaterThan(1);

    const cancelled = await client.documents.cancel(document.id, { reason: 'wrong file' });
    expect(cancelled.document.status).toBe('cancelled');
    expect(await client.documents.revokeCopyLinks(document.id)).toEqual({ revoked: 0 });
    await client.documents.delete(document.id);
    const gone = await client.documents.get(document.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(SignetApiError);
    expect(gone).toMatchObject({ status: 404 });
  });

  it('verify answers for any PDF, without an API key', async () => {
    const anonymous = createSignetClient({ baseUrl: ctx.baseUrl });
    const result = await anonymous.verify(minimalPdf());
    expect(result.status).not.toBe('valid');
    expect(result.signatures).toEqual([]);
  });
});
