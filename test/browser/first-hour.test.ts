import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import {
  docsShot,
  expectAccessible,
  linkMailedTo,
  signUpAndLogIn,
  useMailedDashboard,
} from './first-hour-support.js';
import { CORPUS, expectStep, expectStepPage } from './new-document-support.js';

// Issue 50's whole first hour, as a new user and their signee live it, at a phone's and a
// desktop's width: sign-up → the empty Documents page → upload (a real PDF) → recipients →
// a signature field → review → send; the signee signs in their browser and downloads the
// signed copy from the same page; the sender sees it completed on the home counts and takes
// the audit certificate as a PDF. Every main screen passes axe-core (no serious or critical
// violation) at both widths. `npm run screenshots` runs this walk to refresh the pictures of
// docs/dashboard.md (SIGNET_SCREENSHOTS).

// The login page asks whether anyone is logged in (401); the signing API answers a sealed
// document's session with 410; the verification page has no icon.
const PROVOKED = /^console: Failed to load resource: .* status of (401|410) |favicon\.ico$/;
const CONTRACT = path.join(CORPUS, 'office-libreoffice-writer.pdf');

describe.skipIf(!existsSync(CONTRACT)).each(ENGINES)('the first hour on %s', (engine) => {
  const d = useMailedDashboard(engine, PROVOKED);

  // Steps 1 to 5 of the guided flow: the contract to one signer with a signature field.
  async function sendContract(page: Page, title: string, signee: { name: string; email: string }) {
    await page.getByRole('link', { name: 'Upload a document' }).first().click();
    await expectStep(page, 1, 'Upload');
    await expectStepPage(page, 'Upload a document');
    await page.getByLabel('Document name').fill(title);
    await page.getByLabel('Recipient name').fill(signee.name);
    await page.getByLabel('Recipient e-mail').fill(signee.email);
    await page.getByLabel('PDF file').setInputFiles(CONTRACT);
    await docsShot(page, 'upload');
    await page.getByRole('button', { name: 'Upload and continue' }).click();

    await expectStep(page, 2, 'Recipients');
    await expectStepPage(page, `Recipients: ${title}`);
    await docsShot(page, 'recipients');
    await expectAccessible(page, page.viewportSize()!);
    await page.getByRole('link', { name: 'Continue to fields' }).click();

    await expectStep(page, 3, 'Fields');
    await page.locator('.prepare-sheet[data-page-number="1"]').waitFor();
    await page.getByText(`No signature field yet for ${signee.name}.`).waitFor();
    await expectStepPage(page, `Prepare fields: ${title}`);
    await page.getByRole('button', { name: `Add Signature field for ${signee.name}` }).click();
    await docsShot(page, 'fields');
    await page.getByRole('button', { name: 'Continue to review' }).click();

    await expectStep(page, 4, 'Review');
    await expectStepPage(page, `Review and send: ${title}`);
    await page.getByText('1 field placed on the pages.').waitFor();
    await docsShot(page, 'review');
    await expectAccessible(page, page.viewportSize()!);
    await page.getByRole('button', { name: 'Send for signing' }).click();

    await expectStep(page, 5, 'Send');
    await expectStepPage(page, `Sent for signing: ${title}`);
    await docsShot(page, 'sent');
  }

  // The signee, in a browser of their own: signs, and takes the signed copy from the page.
  async function signAndDownload(
    viewport: { width: number; height: number },
    title: string,
    signee: { name: string; email: string },
  ): Promise<string> {
    const link = await linkMailedTo(d, signee.email, /http:\/\/\S+\/sign\/sg_[\w-]+/);
    const recorded = await openRecordedPage(d.browser, viewport);
    d.opened.push(recorded);
    const { page } = recorded;
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await docsShot(page, 'signing');
    await expectAccessible(page, viewport);
    await page.getByRole('button', { name: /^Signature(: .*)?$/ }).click();
    await page.getByRole('textbox', { name: 'Type your full name' }).fill(signee.name);
    await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await page.getByRole('button', { name: 'Sign document', exact: true }).click();
    await page.getByRole('heading', { name: /You have signed/ }).waitFor();
    const download = page.getByRole('link', { name: 'Download the signed copy' });
    await download.waitFor({ timeout: 30_000 });
    await docsShot(page, 'signed', page.locator('#signing'));
    await expectAccessible(page, viewport);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const saved = path.join(d.dir, `${engine}-${viewport.width}.pdf`);
    await file.saveAs(saved);
    return saved;
  }

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    it(`walks from sign-up to the signee's signed copy (${label})`, async () => {
      const { page } = await signUpAndLogIn(d, viewport, `Hour ${label} Ltd`);
      await docsShot(page, 'documents-empty');
      await expectAccessible(page, viewport);
      const title = `First contract ${label}`;
      const signee = { name: 'Sam Signee', email: `sam-${label}-${engine}@example.com` };
      await sendContract(page, title, signee);

      const saved = await signAndDownload(viewport, title, signee);
      const check = spawnSync('pdfsig', [saved], { encoding: 'utf8' }).stdout;
      expect(check).toContain('Signature is Valid');
      expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');

      // Back home: the document counts as completed, and its page offers the certificate.
      await page.goto(`${d.ctx.baseUrl}/app/documents`);
      await expect
        .poll(() => page.getByTestId('count-completed').textContent())
        .toBe('1Completed in the last 7 days');
      await docsShot(page, 'documents');
      await expectAccessible(page, viewport);
      await page.getByRole('link', { name: title }).first().click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      // The certificate beside the CSV (part 6): a sealed PDF of the audit certificate alone.
      const certificate = page.getByRole('link', { name: 'Download audit certificate (PDF)' });
      await page.getByRole('link', { name: 'Download audit trail (CSV)' }).waitFor();
      const [pdf] = await Promise.all([page.waitForEvent('download'), certificate.click()]);
      const certificateFile = path.join(d.dir, `${engine}-${viewport.width}-certificate.pdf`);
      await pdf.saveAs(certificateFile);
      expect(spawnSync('pdfsig', [certificateFile], { encoding: 'utf8' }).stdout).toContain(
        'Signature is Valid',
      );
      await docsShot(page, 'document');
      await expectAccessible(page, viewport);
    }, 180_000);
  }
});
