import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { seriousA11yProblems } from '../helpers/axe.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { flowAfterUpload, shot } from './new-document-flow.js';
import {
  checkPages,
  openLoggedIn,
  screenshotPage,
  startService,
  type Dashboard,
} from './dashboard-support.js';
import {
  CORPUS,
  expectStep,
  expectStepPage,
  recordProgress,
  throttleUploads,
} from './new-document-support.js';

// The login page asks whether anyone is logged in (401); the cancelled upload is cut off.
const PROVOKED = /^console: Failed to load resource: .* status of 401 |net::ERR_ABORTED/;
const REAL_PDF = path.join(CORPUS, 'office-libreoffice-writer.pdf');

// Issue 50: the guided way from a PDF to a sent contract, at a phone's and a desktop's width.
describe.skipIf(!existsSync(REAL_PDF)).each(ENGINES)(
  'dashboard: new document flow on %s',
  (engine) => {
    const d = { opened: [] } as unknown as Dashboard & { smtp: SmtpSink; dir: string };
    beforeAll(async () => {
      d.smtp = await startSmtpSink();
      d.ctx = await startService(engine, { SMTP_URL: d.smtp.url });
      d.browser = await launchChromium();
      d.dir = mkdtempSync(path.join(os.tmpdir(), 'signet-new-doc-'));
    });
    afterAll(async () => {
      await d.browser?.close();
      await d.ctx?.close();
      await d.smtp?.close();
      rmSync(d.dir, { recursive: true, force: true });
    });
    afterEach(() => checkPages(d.ctx, d.opened, PROVOKED));

    it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
      'uploads with progress (cancel, size limit), adds recipients, fields, reviews and sends at %s width',
      async (size) => {
        const owner = await createUser(d.ctx, { name: `Nora ${size}` });
        const tenant = await createTenant(d.ctx, owner.apiKey, `New ${size} Ltd`);
        const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
        await page.setViewportSize(VIEWPORTS[size]);
        const documents = async () =>
          (await api(d.ctx, owner.apiKey, 'GET', `/api/documents?tenantId=${tenant.id}`)).body
            .documents as Array<{ id: string }>;
        const uploads: string[] = [];
        page.on('request', (r) => {
          if (r.url().endsWith('/api/documents/quick-create')) uploads.push(r.method());
        });

        // Step 1: the upload page, reached from the Documents page.
        await page.getByRole('link', { name: 'Upload a document' }).first().click();
        await expectStep(page, 1, 'Upload');
        await expectStepPage(page, 'Upload a document');
        const ann = { name: 'Ann Signer', email: `ann-${size}-${engine}@example.com` };
        await page.getByLabel('Document name').fill(`Lease ${size}`);
        await page.getByLabel('Recipient name').fill(ann.name);
        await page.getByLabel('Recipient e-mail').fill(ann.email);

        // A file of 51 MB (sparse) is refused in the browser: no request leaves.
        const huge = path.join(d.dir, `huge-${size}.pdf`);
        writeFileSync(huge, '%PDF-1.7\n');
        truncateSync(huge, 51 * 1024 * 1024);
        await page.getByLabel('PDF file').setInputFiles(huge);
        await page.getByRole('button', { name: 'Upload and continue' }).click();
        await page
          .getByText(/PDF file is 51\.0 MB: the limit is 50 MB\. Nothing was uploaded/)
          .waitFor();
        await expect(page.getByLabel('PDF file').getAttribute('aria-invalid')).resolves.toBe(
          'true',
        );
        expect(uploads).toEqual([]);
        await screenshotPage(page, `new-upload-too-big-${size}`);

        // A bigger generated PDF, sent slowly: the bar moves, and Cancel stops it, nothing kept.
        await throttleUploads(page, 1024 * 1024);
        const seen = await recordProgress(page);
        await page.getByLabel('PDF file').setInputFiles({
          name: 'big.pdf',
          mimeType: 'application/pdf',
          buffer: makePdf({ pages: 1, padBytes: 6 * 1024 * 1024, title: 'Big' }),
        });
        await page.getByRole('button', { name: 'Upload and continue' }).click();
        const bar = page.locator('.upload-progress progress');
        await expect
          .poll(() => bar.evaluate((b: HTMLProgressElement) => b.value))
          .toBeGreaterThan(5);
        expect(await seriousA11yProblems(page)).toEqual([]);
        await shot(page, 'uploading');
        await page.getByRole('button', { name: 'Cancel upload' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: 'Upload cancelled: nothing was saved.' })
          .waitFor();
        expect((await seen()).some((v) => v > 0 && v < 100)).toBe(true);
        expect(uploads).toEqual(['POST']);
        // The service saw the request cut off: no document, now or a moment later.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await documents()).toEqual([]);

        // The real PDF from the corpus, at full speed: the bar shows while it goes up (a file
        // this small leaves in one piece, so the values between 0 and 100 are the big file's).
        await throttleUploads(page, -1);
        const before = (await seen()).length;
        await page.getByLabel('PDF file').setInputFiles(REAL_PDF);
        await page.getByRole('button', { name: 'Upload and continue' }).click();
        await expectStep(page, 2, 'Recipients');
        expect((await seen()).length).toBeGreaterThan(before);
        const [created] = await documents();
        expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(
          `/app/documents/${created.id}/setup?step=recipients`,
        );
        await throttleUploads(page, -1);
        await flowAfterUpload(d, page, owner.apiKey, created.id, size, ann);
      },
    );

    it('leads a draft on from its page: Continue setup first, Send asks when no field is placed', async () => {
      const owner = await createUser(d.ctx, { name: 'Dora Draft' });
      const tenant = await createTenant(d.ctx, owner.apiKey, 'Draft Ltd');
      const made = await quickCreate(d.ctx, owner.apiKey, {
        tenantId: tenant.id,
        signees: [{ name: 'Ann Signer', email: 'ann-draft@example.com' }],
        extra: { name: 'Bare draft' },
      });
      const id = made.body.document.id as string;
      const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
      await page.goto(`${d.ctx.baseUrl}/app/documents/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Bare draft' }).waitFor();
      const next = page.getByRole('link', { name: 'Continue setup' });
      await expect(next.getAttribute('class')).resolves.toContain('primary');
      const send = page.getByRole('button', { name: 'Send for signing' });
      await expect(send.getAttribute('class')).resolves.not.toContain('primary');

      // Send asks first; Escape keeps the draft and gives the focus back to Send.
      await send.click();
      const question = page.getByRole('group', { name: /^No fields are placed/ });
      await expect(question.textContent()).resolves.toContain(
        'No fields are placed: Ann Signer will sign on a page added at the end. Send anyway?',
      );
      expect(await seriousA11yProblems(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => question.count()).toBe(0);
      await expect.poll(() => send.evaluate((e) => e === document.activeElement)).toBe(true);
      const status = async () =>
        (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document.status;
      expect(await status()).toBe('draft');

      // Continue setup goes to the fields step, which names the signer without a field.
      await next.click();
      await expectStep(page, 3, 'Fields');
      await page.getByText('No signature field yet for Ann Signer.').waitFor();
      await page.getByRole('link', { name: 'Review' }).click();
      await expectStep(page, 4, 'Review');
      await page
        .getByText('No signature field for Ann Signer: without fields, they sign on a page added')
        .waitFor();
      await page.getByRole('button', { name: 'Send for signing' }).click();
      await page.getByRole('button', { name: 'Send anyway' }).click();
      await expectStep(page, 5, 'Send');
      expect(await status()).toBe('in_process');
    });
  },
);
