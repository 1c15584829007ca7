import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  openRecordedPage,
  screenshotBothWidths,
  VIEWPORTS,
  type RecordedPage,
} from '../helpers/browser.js';
import { ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { makePdf } from '../helpers/pdf.js';
import { inkIn, renderPage } from '../helpers/pdf-render.js';
import { signingCall, valuesByLabel, waitForStatus } from '../helpers/signing.js';
import type { SmtpSink } from '../helpers/smtp.js';
import { startSigningBrowser, type SigningBrowser } from '../helpers/signing-browser.js';

const unique = (label: string) => `${label}.${Math.random().toString(36).slice(2, 9)}@example.com`;

// Places on the 595 × 842 pages makePdf draws, in points from the top-left.
const BOX = {
  adaTitle: { page: 1, x: 72, y: 120, width: 220, height: 24 },
  adaSignature: { page: 2, x: 330, y: 600, width: 180, height: 48 },
  terms: { page: 1, x: 72, y: 700, width: 16, height: 16 },
  initials: { page: 1, x: 470, y: 700, width: 70, height: 34 },
  department: { page: 1, x: 72, y: 420, width: 220, height: 24 },
  plan: { page: 2, x: 72, y: 150, width: 150, height: 24 },
  signature: { page: 2, x: 72, y: 600, width: 180, height: 48 },
  date: { page: 2, x: 72, y: 680, width: 140, height: 20 },
};

describe.each(ENGINES)('signing a document with fields in Chromium on %s', (engine) => {
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

  afterEach(async () => {
    const pages = opened.splice(0);
    await Promise.all(pages.map((p) => p.close()));
    for (const { problems } of pages) expect(problems).toEqual([]);
  });

  /** The signing link e-mailed to an address. */
  async function linkFor(email: string): Promise<string> {
    const mail = await smtp.waitFor((m) => (m.to as { text: string }).text === email);
    return /http:\/\/127\.0\.0\.1:\d+\/sign\/sg_[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
  }

  it('fills, applies and signs the fields on the pages, and the seal shows them in place', async () => {
    const ada = { email: unique('ada'), name: 'Ada Lovelace' };
    const ben = { email: unique('ben'), name: 'Ben Okafor' };
    const fields = [
      { signee: 0, type: 'text', label: 'Job title', required: true, ...BOX.adaTitle },
      { signee: 0, type: 'signature', ...BOX.adaSignature },
      { signee: 1, type: 'checkbox', label: 'I accept the terms', required: true, ...BOX.terms },
      { signee: 1, type: 'initials', ...BOX.initials },
      { signee: 1, type: 'text', label: 'Department', ...BOX.department },
      {
        signee: 1,
        type: 'dropdown',
        label: 'Plan',
        required: true,
        options: ['Basic', 'Pro'],
        ...BOX.plan,
      },
      { signee: 1, type: 'signature', ...BOX.signature },
      { signee: 1, type: 'date', ...BOX.date },
    ];
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      file: makePdf({ pages: 2, title: 'Service Agreement' }),
      signees: [ada, ben],
      extra: { name: `Service Agreement ${engine}`, fields: JSON.stringify(fields) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id as string;
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    const [adaLink, benLink] = [await linkFor(ada.email), await linkFor(ben.email)];

    // Ada signs through the API with her job title.
    const adaToken = adaLink.split('/sign/')[1];
    const adaView = await signingCall(ctx, adaToken, '');
    const titleField = (adaView.body.fields as { id: string; type: string }[]).find(
      (f) => f.type === 'text',
    )!;
    const adaSigned = await signingCall(ctx, adaToken, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Ada Lovelace' },
      fields: [{ id: titleField.id, value: 'Chief Engineer' }],
    });
    expect(adaSigned.status, JSON.stringify(adaSigned.body)).toBe(200);

    // Ben, on a phone, with the keyboard.
    const recorded = await openRecordedPage(browser, VIEWPORTS.phone);
    opened.push(recorded);
    const { page } = recorded;
    await page.goto(benLink);
    await page.getByRole('heading', { level: 1, name: `Service Agreement ${engine}` }).waitFor();

    // Ada's filled values show in place; her empty fields would not; Ben's own are controls.
    const others = page.locator('.field-other');
    await others.first().waitFor();
    expect(await others.allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Chief Engineer')]),
    );
    const terms = page.getByRole('checkbox', { name: 'I accept the terms' });
    const plan = page.getByRole('combobox', { name: 'Plan' });
    const department = page.getByRole('textbox', { name: 'Department' });
    const signature = page.getByRole('button', { name: /^Signature(: .*)?$/ });
    const initials = page.getByRole('button', { name: /^Initials(: .*)?$/ });
    for (const control of [terms, plan, department, signature, initials]) {
      expect(await control.count()).toBe(1);
    }
    // Each control sits where its field is: inside its page, at the field's share of it.
    const page2 = (await page.locator('.pdf-page[data-page-number="2"]').boundingBox())!;
    const sigBox = (await signature.boundingBox())!;
    expect(sigBox.x - page2.x).toBeCloseTo((BOX.signature.x / 595) * page2.width, 0);
    expect(sigBox.y - page2.y).toBeCloseTo((BOX.signature.y / 842) * page2.height, 0);
    expect(sigBox.width).toBeCloseTo((BOX.signature.width / 595) * page2.width, 0);

    const signButton = page.getByRole('button', { name: 'Sign document', exact: true });
    const left = page.locator('#fields-left');
    expect(await signButton.isDisabled()).toBe(true);
    expect(await left.innerText()).toBe('4 required fields left to fill on the document.');
    await screenshotBothWidths(page, `signing-fields-${engine}-before`);

    // "Go to the next field" walks the required fields in reading order.
    const next = page.getByRole('button', { name: 'Go to the next field' });
    const focusedField = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el?.closest<HTMLElement>('[data-field-type]')?.dataset.fieldType ?? null;
      });
    await next.focus();
    await page.keyboard.press('Enter');
    expect(await focusedField()).toBe('checkbox');
    await page.keyboard.press('Space');
    expect(await terms.isChecked()).toBe(true);

    await next.focus();
    await page.keyboard.press('Enter');
    expect(await focusedField()).toBe('initials');
    await page.keyboard.press('Enter');
    expect(await initials.getAttribute('aria-pressed')).toBe('true');
    expect(await initials.innerText()).toBe('BO');

    await next.focus();
    await page.keyboard.press('Enter');
    expect(await focusedField()).toBe('dropdown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await plan.inputValue()).toBe('Pro');

    // The signature field before any signature: it waits for one, and focus goes to the name.
    await next.focus();
    await page.keyboard.press('Enter');
    expect(await focusedField()).toBe('signature');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('typed-signature');
    expect(await signButton.isDisabled()).toBe(true);
    await page.keyboard.type('Ben Okafor');
    await expect.poll(() => signature.innerText()).toBe('Ben Okafor');
    await expect.poll(() => left.innerText()).toBe('Every required field is filled.');
    expect(await next.count()).toBe(0);

    // An optional field, typed into; then consent and sign.
    await department.focus();
    await page.keyboard.type('Research');
    await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await expect.poll(() => signButton.isDisabled()).toBe(false);
    await page
      .locator('.pdf-page[data-page-number="1"]')
      .screenshot({ path: `test-results/screenshots/signing-fields-${engine}-page1-375.png` });
    await screenshotBothWidths(page, `signing-fields-${engine}-filled`);
    await signButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /You have signed/ }).waitFor();

    // The values, read back through the API, and drawn in place on the sealed pages.
    const done = await waitForStatus(ctx, apiKey, id, 'signed');
    const values = valuesByLabel(done.fields);
    expect(values).toMatchObject({
      'Job title': 'Chief Engineer',
      'I accept the terms': true,
      Plan: 'Pro',
      Department: 'Research',
      initials: 'BO',
    });
    const url = new URL(done.document.downloadUrl);
    const sealed = Buffer.from(
      await (await fetch(`${ctx.baseUrl}${url.pathname}${url.search}`)).arrayBuffer(),
    );
    const scratch = mkdtempSync(path.join(tmpdir(), 'signet-signing-fields-'));
    try {
      const file = path.join(scratch, 'sealed.pdf');
      writeFileSync(file, sealed);
      expect(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout).toContain(
        'Signature is Valid',
      );
      const text = (n: number) =>
        spawnSync('pdftotext', ['-f', String(n), '-l', String(n), file, '-'], {
          encoding: 'utf8',
        }).stdout;
      expect(text(1)).toContain('Chief Engineer');
      expect(text(1)).toContain('Research');
      expect(text(2)).toContain('Pro');
      const p1 = renderPage(file, 1);
      const p2 = renderPage(file, 2);
      for (const [render, box] of [
        [p1, BOX.terms],
        [p1, BOX.initials],
        [p2, BOX.signature],
        [p2, BOX.adaSignature],
      ] as const) {
        expect(inkIn(render, box)).toBeGreaterThan(0.01);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 180_000);
});
