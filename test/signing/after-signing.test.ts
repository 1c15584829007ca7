import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pageTexts } from '../sealing/helpers.js';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makeImagePdf } from '../helpers/pdf.js';
import { downloadFile, signAsOnlySignee, signingCall, waitForStatus } from '../helpers/signing.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const to = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address));

describe.each(ENGINES)('after signing on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    // Signed copies above 300 KB go as a link here, so both ways are seen with small files.
    ctx = await createTestContext(engine, {
      listen: true,
      env: { SMTP_URL: smtp.url, MAIL_ATTACHMENT_LIMIT_BYTES: '300000' },
    });
    owner = await createUser(ctx, { name: 'Sam Sender' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  const mailTo = (address: string, subject: RegExp) =>
    smtp.waitFor((m) => to(m).includes(address) && subject.test(m.subject ?? ''), 20_000);
  const tokenFor = async (address: string) => {
    const invitation = await mailTo(address, /sign|unterschr|signer/i);
    return /\/sign\/(sg_[\w-]+)/.exec(invitation.text ?? '')![1];
  };
  const create = async (
    signees: Array<{ email: string; name: string }>,
    extra = {},
    file?: Buffer,
  ) => {
    const res = await quickCreate(ctx, owner.apiKey, { tenantId, signees, extra, file });
    expect(res.status).toBe(201);
    return res.body.document.id as string;
  };
  const count = (address: string, subject: RegExp) =>
    smtp.messages.filter((m) => to(m).includes(address) && subject.test(m.subject ?? '')).length;

  it('e-mails every signee and the sender the sealed PDF, once, in the document language', async () => {
    const ann = `ann.${engine}@example.com`;
    const ben = `ben.${engine}@example.com`;
    const id = await create([
      { email: ann, name: 'Ann Example' },
      { email: ben, name: 'Ben Example' },
    ]);
    await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${id}`, { emailLanguage: 'de' });
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
    for (const [email, name] of [
      [ann, 'Ann Example'],
      [ben, 'Ben Example'],
    ]) {
      const token = await tokenFor(email);
      const signed = await signingCall(ctx, token, 'sign', {
        consent: true,
        signature: { type: 'typed', text: name },
      });
      expect(signed.status).toBe(200);
    }
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed', 30_000);
    const sealed = await downloadFile(ctx, done.document.downloadUrl);
    for (const address of [ann, ben, owner.email]) {
      const mail = await mailTo(address, /Von allen unterschrieben/);
      expect(mail.subject).toBe('Von allen unterschrieben: „contract“');
      expect(mail.text).toContain('Alle haben „contract“ unterschrieben');
      expect(mail.attachments, `sealed ${sealed.length} bytes`).toHaveLength(1);
      const [file] = mail.attachments;
      expect(file.filename).toBe('contract-signed.pdf');
      expect(file.contentType).toBe('application/pdf');
      expect(sha256(file.content)).toBe(sha256(sealed));
      expect(sha256(file.content)).toBe(done.document.hash);
    }
    // The pages the seal adds speak the document's language too.
    const pages = pageTexts(mkdtempSync(path.join(tmpdir(), 'after-signing-')), sealed);
    const added = pages.slice(1).join('\n');
    expect(added).toContain('Unterschriften');
    expect(added).toContain('Prüfprotokoll');
    expect(added).toContain('Unterzeichner 1');
    expect(added).toMatch(/Unterschrieben \d{1,2}\. [A-Z][a-zä]+ \d{4}, \d{2}:\d{2}:\d{2} UTC/);
    expect(added).toContain('versendet');
    expect(added).not.toContain('Audit certificate');
    // Never twice, whatever the job runner does after.
    await new Promise((r) => setTimeout(r, 1500));
    for (const address of [ann, ben, owner.email]) {
      expect(count(address, /Von allen unterschrieben/)).toBe(1);
    }
  });

  it('tells the sender who declined and why, and the other invited signees', async () => {
    const cy = `cy.${engine}@example.com`;
    const di = `di.${engine}@example.com`;
    const later = `later.${engine}@example.com`;
    const id = await create(
      [
        { email: cy, name: 'Cy Example', signingOrder: 1 } as never,
        { email: di, name: 'Di Example', signingOrder: 1 } as never,
        { email: later, name: 'Lee Later', signingOrder: 2 } as never,
      ],
      { signingOrderEnabled: 'true', name: 'Lease' },
    );
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const token = await tokenFor(cy);
    await tokenFor(di);
    expect((await signingCall(ctx, token, '')).status).toBe(200);
    const declined = await signingCall(ctx, token, 'decline', { reason: 'The rent is wrong.' });
    expect(declined.status).toBe(200);

    const toSender = await mailTo(owner.email, /declined to sign "Lease"/);
    expect(toSender.subject).toBe('Cy Example declined to sign "Lease"');
    expect(toSender.text).toContain('The rent is wrong.');
    expect(toSender.text).toContain(cy);
    const notice = await mailTo(di, /"Lease" will not be signed/);
    expect(notice.text).toContain('A signee ("Cy Example") declined');
    expect(notice.text).toContain('no longer works');
    await new Promise((r) => setTimeout(r, 1000));
    // Not the one who declined, not a signee never invited.
    expect(count(cy, /will not be signed/)).toBe(0);
    expect(count(later, /./)).toBe(0);

    const doc = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body;
    const signee = doc.signees.find((s: { email: string }) => s.email === cy);
    expect(signee).toMatchObject({ status: 'declined', declineReason: 'The rent is wrong.' });
    expect(signee.declinedAt).not.toBeNull();
    expect(signee.openedAt).not.toBeNull();
    expect(signee.invitedAt).not.toBeNull();
    const waiting = doc.signees.find((s: { email: string }) => s.email === later);
    expect(waiting).toMatchObject({ invitedAt: null, openedAt: null, declineReason: null });
  });

  it('tells the invited signees of a cancel, with its reason', async () => {
    const ed = `ed.${engine}@example.com`;
    const id = await create([{ email: ed, name: 'Ed Example' }], { name: 'Offer' });
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    await tokenFor(ed);
    const tooLong = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/cancel`, {
      reason: 'x'.repeat(1001),
    });
    expect(tooLong.status).toBe(422);
    expect((await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document.status).toBe(
      'in_process',
    );
    const cancelled = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/cancel`, {
      reason: 'Replaced by a new offer.',
    });
    expect(cancelled.status).toBe(200);
    const notice = await mailTo(ed, /"Offer" was cancelled/);
    expect(notice.text).toContain('"Offer" was cancelled by its sender ("Sam Sender")');
    expect(notice.text).toContain('Replaced by a new offer.');
    const trail = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail;
    expect(trail.find((e: { action: string }) => e.action === 'cancelled').details).toEqual({
      reason: 'Replaced by a new offer.',
    });
  });

  it('links a signed copy too large to attach: personal, audited, revocable', async () => {
    const fay = `fay.${engine}@example.com`;
    // An image that keeps the sealed file above the 300 KB attachment limit set above.
    const id = await create(
      [{ email: fay, name: 'Fay Example' }],
      { name: 'Big' },
      makeImagePdf(400_000),
    );
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const token = await tokenFor(fay);
    await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Fay Example' },
    });
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed', 30_000);
    const sealed = await downloadFile(ctx, done.document.downloadUrl);
    expect(sealed.length).toBeGreaterThan(300_000);
    const mail = await mailTo(fay, /Signed by everyone: "Big"/);
    expect(mail.attachments).toHaveLength(0);
    expect(mail.text).toMatch(/too large to attach/);
    const link = /(http:\/\/\S+\/api\/copies\/sc_[\w-]+)/.exec(mail.text ?? '')![1];
    // The link names PUBLIC_URL; the test reaches the same path on the listening address.
    const url = `${ctx.baseUrl}${new URL(link).pathname}`;
    const res = await fetch(url, { headers: { 'user-agent': 'CopyTest/1.0' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('contract-signed.pdf');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(sealed));
    const trail = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail;
    expect(trail.find((e: { action: string }) => e.action === 'copy downloaded')).toMatchObject({
      userAgent: 'CopyTest/1.0',
      details: { recipient: fay },
    });
    const revoked = await api(ctx, owner.apiKey, 'DELETE', `/api/documents/${id}/copy-links`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBe(2);
    const gone = await fetch(url);
    expect(gone.status).toBe(410);
    expect((await fetch(url.replace(/sc_[\w-]+$/, 'sc_nope'))).status).toBe(404);
    const stranger = await createUser(ctx);
    expect(
      (await api(ctx, stranger.apiKey, 'DELETE', `/api/documents/${id}/copy-links`)).status,
    ).toBe(404);
  });
});

describe('the signed copy in the sandbox dev mailbox', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { listen: true });
  });
  afterAll(() => ctx.close());

  it('stores the completion e-mail with its attachment, downloadable there', async () => {
    const owner = await createUser(ctx, { name: 'Mia Mailbox' });
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const signee = { email: 'gus@example.com', name: 'Gus Example' };
    const made = await quickCreate(ctx, owner.apiKey, { tenantId, signees: [signee] });
    const { sealed } = await signAsOnlySignee(ctx, owner.apiKey, made.body.document.id, signee);
    const end = Date.now() + 10_000;
    let copy: { attachment: { filename: string; url: string } | null } | undefined;
    while (!copy && Date.now() < end) {
      const res = await fetch(`${ctx.baseUrl}/dev/mailbox?to=${signee.email}`, {
        headers: { accept: 'application/json' },
      });
      const { emails } = (await res.json()) as {
        emails: Array<{ subject: string; attachment: { filename: string; url: string } | null }>;
      };
      copy = emails.find((e) => e.subject.startsWith('Signed by everyone'));
      if (!copy) await new Promise((r) => setTimeout(r, 50));
    }
    expect(copy?.attachment?.filename).toBe('contract-signed.pdf');
    const file = await fetch(`${ctx.baseUrl}${copy!.attachment!.url}`);
    expect(file.status).toBe(200);
    expect(sha256(Buffer.from(await file.arrayBuffer()))).toBe(sha256(sealed));
  });
});
