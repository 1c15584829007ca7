import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  openRecordedPage,
  VIEWPORTS,
  waitForVisiblePagesDrawn,
  type RecordedPage,
} from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { makePdf } from '../helpers/pdf.js';
import { downloadFile, waitForStatus } from '../helpers/signing.js';
import { startSigningBrowser, type SigningBrowser } from '../helpers/signing-browser.js';

const unique = (label: string) => `${label}.${Math.random().toString(36).slice(2, 9)}@example.com`;

// A signature-like picture: dark ink across a white strip.
const signaturePng = () =>
  sharp({ create: { width: 320, height: 100, channels: 3, background: '#ffffff' } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="320" height="100"><path d="M20 70 C 80 10, 140 90, 300 30" stroke="#14215a" stroke-width="6" fill="none"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();

describe.each(ENGINES)('attachments and uploaded signatures in Chromium on %s', (engine) => {
  let setup: SigningBrowser | undefined;
  let scratch: string;
  const opened: RecordedPage[] = [];
  beforeAll(async () => {
    setup = await startSigningBrowser(engine);
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-attach-browser-'));
  });
  afterAll(async () => {
    await setup?.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  afterEach(async () => {
    const pages = opened.splice(0);
    await Promise.all(pages.map((p) => p.close()));
    for (const { problems } of pages) expect(problems).toEqual([]);
  });

  async function linkFor(email: string): Promise<string> {
    const mail = await setup!.smtp.waitFor((m) => (m.to as { text: string }).text === email);
    return /http:\/\/127\.0\.0\.1:\d+\/sign\/sg_[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
  }

  it.each([
    ['phone', VIEWPORTS.phone],
    ['desktop', VIEWPORTS.desktop],
  ] as const)(
    'attaches a file and signs with an uploaded picture at %s size, by keyboard',
    async (size, viewport) => {
      const { ctx, apiKey, tenantId, browser } = setup!;
      const signee = { email: unique('ada'), name: 'Ada Lovelace' };
      const fields = [
        { signee: 0, type: 'signature', page: 1, x: 72, y: 600, width: 180, height: 48 },
        {
          signee: 0,
          type: 'attachment',
          label: 'Copy of ID',
          required: true,
          page: 1,
          x: 72,
          y: 680,
          width: 220,
          height: 24,
        },
      ];
      const created = await quickCreate(ctx, apiKey, {
        tenantId,
        file: makePdf({ pages: 1, title: 'Lease' }),
        signees: [signee],
        extra: { name: `Lease ${engine} ${size}`, fields: JSON.stringify(fields) },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.document.id as string;
      expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
        200,
      );
      const recorded = await openRecordedPage(browser, viewport);
      opened.push(recorded);
      const { page } = recorded;
      await page.goto(await linkFor(signee.email));
      await page.getByRole('heading', { level: 1, name: `Lease ${engine} ${size}` }).waitFor();

      await waitForVisiblePagesDrawn(page);
      // The attachment field: a button that opens the file picker from the keyboard.
      const attach = page.getByRole('button', { name: /^Copy of ID: Choose a file$/ });
      await attach.focus();
      expect(
        await page.evaluate(() => document.activeElement?.getAttribute('data-field-type')),
      ).toBe('attachment');
      const proof = makePdf({ pages: 1, title: 'Passport' });
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        attach.press('Enter'),
      ]);
      await chooser.setFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: proof });
      await page.getByRole('button', { name: 'Copy of ID: Attached: passport.pdf' }).waitFor();

      // Upload: chosen with the arrow keys in the signature choices, then the picture.
      await page.getByRole('radio', { name: 'Draw' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('radio', { name: 'Upload' }).isChecked()).toBe(true);
      const picker = page.getByLabel('Picture of your signature');
      await picker.setInputFiles({
        name: 'signature.png',
        mimeType: 'image/png',
        buffer: await signaturePng(),
      });
      await page.locator('.uploaded-signature-image').waitFor();
      // Applied to the signature field, which then shows the picture.
      await page.getByRole('button', { name: /^Signature(: .*)?$/ }).click();
      await page.locator('.field-signature .field-mark-image').waitFor();
      await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
      const sign = page.getByRole('button', { name: 'Sign document', exact: true });
      await expect.poll(() => sign.isDisabled()).toBe(false);
      await page.screenshot({
        path: `test-results/screenshots/signing-attachments-${engine}-${size}.png`,
        fullPage: true,
      });
      await sign.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: /You have signed/ }).waitFor();

      const done = await waitForStatus(ctx, apiKey, id, 'signed', 30_000);
      const file = path.join(scratch, `${id}.pdf`);
      writeFileSync(file, await downloadFile(ctx, done.document.downloadUrl));
      const listed = spawnSync('pdfdetach', ['-list', file], { encoding: 'utf8' }).stdout;
      expect(listed).toContain('attachment-1-passport.pdf');
      const text = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout;
      expect(text).toContain('Uploaded signature');
    },
    60_000,
  );
});
