import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import {
  signingCall,
  signingTokenFromMailbox,
  TINY_PNG,
  waitForStatus,
} from '../helpers/signing.js';

const run = promisify(execFile);

describe.each(ENGINES)('signing and sealing on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx, { name: 'Sam Sender' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      signeeEvents: true,
    });
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-sign-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const unique = (label: string) => `${label}${Math.random().toString(36).slice(2, 7)}@ex.io`;
  const download = async (url: string) => {
    const u = new URL(url);
    const res = await fetch(`${ctx.baseUrl}${u.pathname}${u.search}`);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const tool = (cmd: string, args: string[], bytes: Buffer) => {
    const file = path.join(scratch, `${createHash('sha1').update(bytes).digest('hex')}.pdf`);
    writeFileSync(file, bytes);
    return { file, ...spawnSync(cmd, [...args, file], { encoding: 'utf8' }) };
  };
  const verify = async (bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'check.pdf');
    const res = await fetch(`${ctx.baseUrl}/api/verify`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('signs typed and drawn, seals with PAdES, and verifies', async () => {
    const [zoe, bob] = [unique('zoe'), unique('bob')];
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file: makePdf({ pages: 3, title: 'Rental contract' }),
      signees: [
        { email: zoe, name: 'Zoë Ünal' },
        { email: bob, name: 'Bob Builder' },
      ],
      extra: { name: 'Rental contract' },
    });
    const id = created.body.document.id;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const [tZoe, tBob] = [
      await signingTokenFromMailbox(ctx, zoe),
      await signingTokenFromMailbox(ctx, bob),
    ];

    const view = await signingCall(ctx, tZoe, '');
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      signee: { name: 'Zoë Ünal', email: zoe, status: 'pending' },
      document: { id, name: 'Rental contract', status: 'in_process', senderName: 'Sam Sender' },
      canSign: true,
      reason: null,
      fileUrl: `/api/signing/${tZoe}/file`,
    });
    const file = await fetch(`${ctx.baseUrl}${view.body.fileUrl}`);
    expect(file.headers.get('content-type')).toBe('application/pdf');

    const noConsent = await signingCall(ctx, tZoe, 'sign', {
      consent: false,
      signature: { type: 'typed', text: 'Zoë Ünal' },
    });
    expect(noConsent.status).toBe(422);
    const badPng = await signingCall(ctx, tZoe, 'sign', {
      consent: true,
      signature: { type: 'drawn', image: 'data:image/png;base64,AAAA' },
    });
    expect(badPng.status).toBe(422);

    const typed = await signingCall(ctx, tZoe, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Zoë Ünal' },
    });
    expect(typed.status).toBe(200);
    expect(typed.body.signee.status).toBe('signed');
    expect(typed.body.document.status).toBe('in_process');
    const twice = await signingCall(ctx, tZoe, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Zoë Ünal' },
    });
    expect(twice.status).toBe(409);
    const mid = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(mid.body.signees[0].signedAt).toMatch(/Z$/);

    const drawn = await signingCall(ctx, tBob, 'sign', {
      consent: true,
      signature: { type: 'drawn', image: TINY_PNG },
    });
    expect(drawn.status).toBe(200);
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed');
    const sealed = await download(done.document.downloadUrl);
    expect(done.document.hash).toBe(createHash('sha256').update(sealed).digest('hex'));
    expect(done.document.downloadUrl).toContain('/sealed?');

    const sig = tool('pdfsig', [], sealed);
    expect(sig.stdout).toContain('ETSI.CAdES.detached');
    expect(sig.stdout).toContain('Signature is Valid');
    expect(sig.stdout).toContain('Total document signed');
    expect(tool('qpdf', ['--check'], sealed).status).toBe(0);
    const text = tool('pdftotext', ['-enc', 'UTF-8'], sealed);
    const pages = spawnSync('pdftotext', ['-enc', 'UTF-8', text.file, '-'], { encoding: 'utf8' })
      .stdout.split('\f')
      .slice(0, -1);
    expect(pages.length).toBeGreaterThanOrEqual(5);
    for (const page of pages) expect(page).toContain('SANDBOX - NOT LEGALLY BINDING');
    const all = pages.join('\n');
    expect(all).toContain('Rental contract - page 1');
    expect(all).toContain('Zoë Ünal');
    expect(all).toContain('Bob Builder');
    expect(all).toContain(zoe);
    const original = await ctx.db.kysely
      .selectFrom('documents')
      .select('original_sha256')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(all.replace(/\s+/g, '')).toContain(original.original_sha256);

    const events = await ctx.db.kysely
      .selectFrom('events')
      .selectAll()
      .where('document_id', '=', id)
      .orderBy('occurred_at')
      .execute();
    expect(events.map((e) => `${e.type.split('.')[0]}:${e.old_status}>${e.new_status}`)).toEqual([
      'document:draft>in_process',
      'signee:pending>signed',
      'signee:pending>signed',
      'document:in_process>pending_seal',
      'document:pending_seal>signed',
    ]);
    const trail = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail;
    const actions = trail.map((e: { action: string }) => e.action);
    for (const a of ['created', 'sent', 'e-mailed', 'opened', 'signed', 'sealed'])
      expect(actions).toContain(a);
    const signedEntry = trail.find((e: { action: string }) => e.action === 'signed');
    expect(signedEntry).toMatchObject({ ip: '127.0.0.1', userAgent: 'SignetTest/1.0' });

    expect((await signingCall(ctx, tZoe, '')).status).toBe(410);

    expect(await verify(sealed)).toMatchObject({
      status: 'sealed',
      documentId: id,
      level: 'B-B',
      signatures: [{ kind: 'signature', ours: true, valid: true, coversWholeFile: true }],
      dss: { present: false, coversChains: false },
    });
    const flipped = Buffer.from(sealed);
    const at = Math.floor(flipped.length / 3);
    flipped[at] = flipped[at] ^ 0x01;
    expect((await verify(flipped)).status).toBe('altered');
    expect(tool('pdfsig', [], flipped).stdout).not.toContain('Signature is Valid');
    expect((await verify(makePdf())).status).toBe('unknown');

    const env = {
      ...process.env,
      DATA_DIR: ctx.config.dataDir,
      ...(ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl } : {}),
    };
    const good = await run('node', ['bin/signet.mjs', 'verify', tool('true', [], sealed).file], {
      env,
    });
    expect(good.stdout).toContain('sealed');
    expect(good.stdout).toContain('level B-B');
    expect(good.stdout).toMatch(
      /signature 1 "Signet seal" \(ours\): valid, .*covers the whole file/,
    );
    const json = await run(
      'node',
      ['bin/signet.mjs', 'verify', '--json', tool('true', [], sealed).file],
      { env },
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'sealed',
      level: 'B-B',
      documentId: id,
    });
    const bad = await run('node', ['bin/signet.mjs', 'verify', tool('true', [], flipped).file], {
      env,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (err: { code: number; stdout: string }) => err,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toContain('altered');
  });

  it('enforces signing order, inviting the next wave when one completes', async () => {
    const [a, b] = [unique('first'), unique('second')];
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [
        { email: a, name: 'First', signingOrder: 1 },
        { email: b, name: 'Second', signingOrder: 2 },
      ],
      extra: { signingOrderEnabled: 'true' },
    });
    const id = doc.body.document.id;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const tA = await signingTokenFromMailbox(ctx, a);
    const invitedB = await ctx.db.kysely
      .selectFrom('emails')
      .select('id')
      .where('to_address', '=', b)
      .execute();
    expect(invitedB).toHaveLength(0);
    // Second's link exists (derived) but it is not their turn yet.
    const signeeB = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.signees[1];
    const { signingTokenFor } =
      await import('../../server/src/modules/documents/sending.service.js');
    const tB = signingTokenFor(ctx.config.secretKey, signeeB.id);
    // Not yet issued: the link does not exist until the signee is invited.
    expect((await signingCall(ctx, tB, '')).status).toBe(404);
    await signingCall(ctx, tA, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'First' },
    });
    expect(await signingTokenFromMailbox(ctx, b)).toBe(tB);
    const viewB = await signingCall(ctx, tB, '');
    expect(viewB.body.canSign).toBe(true);
    await signingCall(ctx, tB, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Second' },
    });
    await waitForStatus(ctx, owner.apiKey, id, 'signed');
  });

  it('answers not_your_turn when an invited signee is ahead of their wave', async () => {
    const [a, b] = [unique('one'), unique('two')];
    const t = (await createTenant(ctx, owner.apiKey, 'Links')).id;
    await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${t}/settings`, {
      invitationEmails: false,
    });
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId: t,
      signees: [
        { email: a, name: 'One', signingOrder: 1 },
        { email: b, name: 'Two', signingOrder: 2 },
      ],
      extra: { signingOrderEnabled: 'true' },
    });
    const sent = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${doc.body.document.id}/send-for-signing`,
    );
    const tA = sent.body.deliveries[0].signingUrl.split('/sign/')[1];
    // Give Two a link early, as a sender could by reminding after a wave change.
    const { signingTokenFor } =
      await import('../../server/src/modules/documents/sending.service.js');
    const { hashSecret } = await import('../../server/src/lib/ids.js');
    const tB = signingTokenFor(ctx.config.secretKey, sent.body.signees[1].id);
    await ctx.db.kysely
      .updateTable('signees')
      .set({ token_hash: hashSecret(tB) })
      .where('id', '=', sent.body.signees[1].id)
      .execute();
    const early = await signingCall(ctx, tB, '');
    expect(early.body).toMatchObject({ canSign: false, reason: 'not_your_turn' });
    const tryIt = await signingCall(ctx, tB, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Two' },
    });
    expect(tryIt.status).toBe(409);
    expect(tryIt.body.code).toBe('not_your_turn');
    expect((await signingCall(ctx, tA, '')).body.canSign).toBe(true);
  });

  it('lets the first of a signing group sign for the group', async () => {
    const [g1, g2, other] = [unique('g1'), unique('g2'), unique('other')];
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [
        { email: g1, name: 'Legal One', signingGroupId: 'legal' },
        { email: g2, name: 'Legal Two', signingGroupId: 'legal' },
        { email: other, name: 'Customer' },
      ],
      extra: { signingGroupsEnabled: 'true' },
    });
    const id = doc.body.document.id;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const [t1, t2, t3] = [
      await signingTokenFromMailbox(ctx, g1),
      await signingTokenFromMailbox(ctx, g2),
      await signingTokenFromMailbox(ctx, other),
    ];
    await signingCall(ctx, t2, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Legal Two' },
    });
    expect((await signingCall(ctx, t1, '')).body).toMatchObject({
      canSign: false,
      reason: 'group_signed',
    });
    expect(
      (
        await signingCall(ctx, t1, 'sign', {
          consent: true,
          signature: { type: 'typed', text: 'x' },
        })
      ).status,
    ).toBe(409);
    await signingCall(ctx, t3, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Customer' },
    });
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed');
    expect(done.signees.map((s: { status: string }) => s.status)).toEqual([
      'pending',
      'signed',
      'signed',
    ]);
  });

  it('declines: signee and document declined, links answer 410', async () => {
    const [a, b] = [unique('dec'), unique('other')];
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [
        { email: a, name: 'Decliner' },
        { email: b, name: 'Other' },
      ],
    });
    const id = doc.body.document.id;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const [tA, tB] = [await signingTokenFromMailbox(ctx, a), await signingTokenFromMailbox(ctx, b)];
    expect((await signingCall(ctx, tA, 'decline', { reason: '' })).status).toBe(422);
    const res = await signingCall(ctx, tA, 'decline', { reason: 'Wrong amount in clause 3' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      signee: { status: 'declined' },
      document: { status: 'declined' },
    });
    expect((await signingCall(ctx, tA, '')).status).toBe(410);
    expect(
      (
        await signingCall(ctx, tB, 'sign', {
          consent: true,
          signature: { type: 'typed', text: 'Other' },
        })
      ).status,
    ).toBe(410);
    const events = await ctx.db.kysely
      .selectFrom('events')
      .selectAll()
      .where('document_id', '=', id)
      .orderBy('occurred_at')
      .execute();
    expect(events.map((e) => `${e.type.split('.')[0]}:${e.new_status}`)).toEqual([
      'document:in_process',
      'signee:declined',
      'document:declined',
    ]);
    const trail = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail;
    expect(trail.find((e: { action: string }) => e.action === 'declined').details.reason).toBe(
      'Wrong amount in clause 3',
    );
  });

  it('answers 410 after cancellation and 404 for unknown links', async () => {
    const a = unique('cancel');
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: a, name: 'C' }],
    });
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${doc.body.document.id}/send-for-signing`);
    const token = await signingTokenFromMailbox(ctx, a);
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${doc.body.document.id}/cancel`);
    const res = await signingCall(ctx, token, '');
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('link_expired');
    expect((await signingCall(ctx, 'sg_doesnotexist_0000000000000', '')).status).toBe(404);
  });
});
