import type { ParsedMail } from 'mailparser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  openRecordedPage,
  screenshotBothWidths,
  VIEWPORTS,
  waitForVisiblePagesDrawn,
  type RecordedPage,
} from '../helpers/browser.js';
import { ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { makePdf } from '../helpers/pdf.js';
import { signingCall, waitForStatus } from '../helpers/signing.js';
import type { SmtpSink } from '../helpers/smtp.js';
import {
  closeCleanPages,
  startSigningBrowser,
  type SigningBrowser,
} from '../helpers/signing-browser.js';

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
const recipient = (m: ParsedMail) => (m.to as { text: string }).text;

// An approver and a cc recipient in a real browser (decisions §12): the approver's page offers
// Approve and Reject instead of a signature; the cc recipient gets no link, and their mailbox
// receives the signed copy (or the decline notice).
describe.each(ENGINES)('approver and cc in Chromium on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let browser: Browser;
  let apiKey: string;
  let tenantId: string;
  const opened: RecordedPage[] = [];

  let setup: SigningBrowser | undefined;

  beforeAll(async () => {
    setup = await startSigningBrowser(engine);
    ({ smtp, ctx, browser, apiKey, tenantId } = setup);
  });

  afterAll(() => setup?.close());

  // Nothing went wrong in any page a test opened, and it asked only this service for anything.
  // (The API's 410 once the document is over.)
  afterEach(() => closeCleanPages(opened.splice(0), ctx.baseUrl, [410]));

  /** A sent document: a signer (first), an approver (second), a cc; each link e-mailed. */
  async function sendDocument(title: string, language?: string) {
    const people = {
      signer: { email: unique('sig'), name: 'Sam Signer', signingOrder: 1 },
      approver: { email: unique('app'), name: 'Ann Approver', signingOrder: 2, role: 'approver' },
      cc: { email: unique('cc'), name: 'Cid Copy', role: 'cc' },
    };
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      file: makePdf({ pages: 1, title }),
      signees: [people.signer, people.approver, people.cc],
      extra: { name: title, signingOrderEnabled: 'true' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id as string;
    if (language) {
      const patched = await api(ctx, apiKey, 'PATCH', `/api/documents/${id}`, {
        emailLanguage: language,
      });
      expect(patched.status).toBe(200);
    }
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    const link = async (email: string) => {
      const mail = await smtp.waitFor(
        (m) => recipient(m) === email && /\/sign\//.test(m.text ?? ''),
      );
      return /http:\/\/127\.0\.0\.1:\d+\/sign\/sg_[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
    };
    // The signer signs first (through the API); then it is the approver's turn.
    const signerLink = await link(people.signer.email);
    const signed = await signingCall(ctx, signerLink.split('/sign/')[1], 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Sam Signer' },
    });
    expect(signed.status).toBe(200);
    return { id, people, approverLink: await link(people.approver.email) };
  }

  async function open(link: string) {
    const recorded = await openRecordedPage(browser, VIEWPORTS.desktop);
    opened.push(recorded);
    expect((await recorded.page.goto(link))?.status()).toBe(200);
    return recorded.page;
  }

  it('the approver approves on the page, and the cc recipient gets the signed copy', async () => {
    const title = `Approved lease ${engine}`;
    const { id, people, approverLink } = await sendDocument(title);
    const page = await open(approverLink);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.locator('.intro').textContent()).toContain('Approval requested');
    await page.getByRole('heading', { name: 'Approve as Ann Approver' }).waitFor();
    // No signature to give: no consent box, no name to type, no Sign document.
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Type your full name' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign document' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Reject', exact: true }).waitFor();
    await screenshotBothWidths(page, `approver-${engine}-before`);

    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('heading', { name: `You approved “${title}”` }).waitFor();
    expect(await page.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);

    const done = await waitForStatus(ctx, apiKey, id, 'signed', 60_000);
    expect(done.signees.map((s: { role: string; status: string }) => [s.role, s.status])).toEqual([
      ['signer', 'signed'],
      ['approver', 'signed'],
      ['cc', 'pending'],
    ]);
    // The cc recipient was never sent a link, and receives the sealed PDF.
    const copy = await smtp.waitFor(
      (m) => recipient(m) === people.cc.email && /Signed by everyone/.test(m.subject ?? ''),
      20_000,
    );
    expect(copy.attachments).toHaveLength(1);
    expect(copy.attachments[0].contentType).toBe('application/pdf');
    expect(copy.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
    const toCc = smtp.messages.filter((m) => recipient(m) === people.cc.email);
    expect(toCc.map((m) => m.subject)).toEqual([`Signed by everyone: "${title}"`]);
  });

  it('the approver rejects with a reason, in the document language, and the cc is told', async () => {
    const title = `Abgelehnter Vertrag ${engine}`;
    const { id, people, approverLink } = await sendDocument(title, 'de');
    const page = await open(approverLink);
    await page.getByRole('heading', { name: 'Freigeben als Ann Approver' }).waitFor();
    await waitForVisiblePagesDrawn(page);
    await page.getByRole('button', { name: 'Freigeben', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Zurückweisen', exact: true }).click();
    await page.getByRole('textbox', { name: 'Grund' }).fill('Die Zahlen stimmen nicht.');
    await page.getByRole('button', { name: 'Zurückweisung bestätigen' }).click();
    await page.getByRole('heading', { name: `Sie haben „${title}“ zurückgewiesen` }).waitFor();

    const read = await api(ctx, apiKey, 'GET', `/api/documents/${id}`);
    expect(read.body.document.status).toBe('declined');
    expect(read.body.signees[1]).toMatchObject({
      role: 'approver',
      status: 'declined',
      declineReason: 'Die Zahlen stimmen nicht.',
    });
    const notice = await smtp.waitFor((m) => recipient(m) === people.cc.email);
    expect(notice.text).toContain('Sie erhalten diese Nachricht in Kopie');
  });
});
