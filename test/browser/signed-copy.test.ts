import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yProblems } from '../helpers/axe.js';
import { openRecordedPage, VIEWPORTS, type RecordedPage } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { makePdf } from '../helpers/pdf.js';
import { downloadFile, signingCall, waitForStatus } from '../helpers/signing.js';
import {
  closeCleanPages,
  startSigningBrowser,
  type SigningBrowser,
} from '../helpers/signing-browser.js';

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
const recipient = (m: ParsedMail) => (m.to as { text: string }).text;
const SHOTS = path.resolve('test-results/screenshots');

describe.each(ENGINES)('the signed copy on the signing page in Chromium on %s', (engine) => {
  let s: SigningBrowser;
  const opened: RecordedPage[] = [];
  beforeAll(async () => {
    s = await startSigningBrowser(engine);
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(() => s?.close());
  // The signing API's 410 (the closed document's session) is expected; nothing else may fail.
  afterEach(() => closeCleanPages(opened.splice(0), s.ctx.baseUrl, [410]));

  /** Creates and sends a document; each signee's e-mailed link, in order. */
  async function send(name: string, signees: { email: string; name: string }[], language = 'en') {
    const created = await quickCreate(s.ctx, s.apiKey, {
      tenantId: s.tenantId,
      file: makePdf({ pages: 1, title: name }),
      filename: 'contract.pdf',
      signees,
      extra: { name },
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    await api(s.ctx, s.apiKey, 'PATCH', `/api/documents/${id}`, { emailLanguage: language });
    expect(
      (await api(s.ctx, s.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
    const links: string[] = [];
    for (const signee of signees) {
      const mail = await s.smtp.waitFor((m) => recipient(m) === signee.email);
      links.push(/http:\/\/\S+\/sign\/sg_[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0]);
    }
    return { id, links };
  }

  async function open(link: string, viewport: { width: number; height: number }) {
    const recorded = await openRecordedPage(s.browser, viewport);
    opened.push(recorded);
    expect((await recorded.page.goto(link))?.status()).toBe(200);
    return recorded.page;
  }

  async function shot(page: Page, name: string) {
    await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()!.width}.png`) });
  }

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    it(`the last signer gets the signed copy on the page without reload (${label})`, async () => {
      const ann = { email: unique('ann'), name: 'Ann Early' };
      const ben = { email: unique('ben'), name: 'Ben Last' };
      const title = `Lease ${engine} ${label}`;
      const { id, links } = await send(title, [ann, ben]);
      const token = /sg_[A-Za-z0-9_-]+$/.exec(links[0])![0];
      const early = await signingCall(s.ctx, token, 'sign', {
        consent: true,
        signature: { type: 'typed', text: ann.name },
      });
      expect(early.status).toBe(200);

      // Ben signs last, at this width.
      const page = await open(links[1], viewport);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(await seriousA11yProblems(page)).toEqual([]);
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await page.getByRole('textbox', { name: 'Type your full name' }).fill(ben.name);
      await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
      await page.getByRole('button', { name: 'Sign document', exact: true }).click();
      await page.getByRole('heading', { name: /You have signed/ }).waitFor();
      const download = page.getByRole('link', { name: 'Download the signed copy' });
      await download.waitFor({ timeout: 30_000 });
      // The same page, never reloaded: the copy came by polling its status.
      expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
      expect(await page.locator('#signing').innerText()).toContain('Signed by everyone');
      await page.locator('#signing').scrollIntoViewIfNeeded();
      await shot(page, `signed-copy-${engine}-after-signing`);
      expect(await seriousA11yProblems(page)).toEqual([]);

      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toBe('contract-signed.pdf');
      const saved = path.join(SHOTS, `signed-copy-${engine}-${label}.pdf`);
      await file.saveAs(saved);
      const bytes = readFileSync(saved);
      const done = await waitForStatus(s.ctx, s.apiKey, id, 'signed');
      expect(bytes.equals(await downloadFile(s.ctx, done.document.downloadUrl))).toBe(true);
      expect(spawnSync('pdfsig', [saved], { encoding: 'utf8' }).stdout).toContain(
        'Signature is Valid',
      );

      // The link opened again later: what happened, with the copy.
      const again = await open(links[1], viewport);
      await again
        .getByRole('heading', { level: 1, name: `“${title}” has been signed by everyone` })
        .waitFor();
      await again.getByRole('link', { name: 'Download the signed copy' }).waitFor();
      await shot(again, `signed-copy-${engine}-reopened`);
      expect(await seriousA11yProblems(again)).toEqual([]);
      const trail = (await api(s.ctx, s.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
        .auditTrail as Array<{ action: string; details: { recipient?: string } }>;
      expect(trail.filter((e) => e.action === 'copy downloaded')).toEqual([
        expect.objectContaining({ details: { recipient: ben.email, downloads: 1 } }),
      ]);
    });
  }

  it('a link of a cancelled document says so in German, at both widths', async () => {
    const cleo = { email: unique('cleo'), name: 'Cleo Kunde' };
    const title = `Mietvertrag ${engine}`;
    const { id, links } = await send(title, [cleo], 'de');
    expect((await api(s.ctx, s.apiKey, 'POST', `/api/documents/${id}/cancel`, {})).status).toBe(
      200,
    );
    const page = await open(links[0], VIEWPORTS.phone);
    await page.getByRole('heading', { level: 1, name: `„${title}“ wurde storniert` }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('main').innerText()).toContain(
      'Olivia Owner hat dieses Dokument storniert',
    );
    expect(await page.getByRole('link', { name: /herunterladen/ }).count()).toBe(0);
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await shot(page, `signed-copy-${engine}-cancelled-de`);
      expect(await seriousA11yProblems(page)).toEqual([]);
    }
  });
});
