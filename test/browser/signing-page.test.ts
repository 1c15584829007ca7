import type { ParsedMail } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  openRecordedPage,
  screenshotBothWidths,
  VIEWPORTS,
  waitForVisiblePagesDrawn,
  type RecordedPage,
} from '../helpers/browser.js';
import { createTestContext, ENGINES, findFreePort, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { waitForStatus } from '../helpers/signing.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

type User = Awaited<ReturnType<typeof createUser>>;

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
const recipient = (m: ParsedMail) => (m.to as { text: string }).text;

describe.each(ENGINES)('signing page in Chromium on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let browser: Browser;
  let owner: User;
  let tenantId: string;
  const opened: RecordedPage[] = [];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    const port = await findFreePort();
    // PUBLIC_URL is the real listening address, so the e-mailed links open this very service.
    ctx = await createTestContext(engine, {
      listen: true,
      env: { SMTP_URL: smtp.url, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    expect(ctx.baseUrl).toBe(`http://127.0.0.1:${port}`);
    owner = await createUser(ctx, { name: 'Olivia Owner' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
    await smtp?.close();
  });

  // Every page a test opened asked only this service for anything (the pdf.js worker included),
  // and nothing went wrong in it: no script error, no request the strict CSP had to refuse.
  afterEach(async () => {
    const pages = opened.splice(0);
    await Promise.all(pages.map((p) => p.close()));
    const origin = new URL(ctx.baseUrl).origin;
    for (const { requests, problems } of pages) {
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      // The API's own 404/410 answers are expected; Chromium logs them as failed loads.
      const expected = /^console: Failed to load resource: .* (404|410) .*@ .*\/api\/signing\//;
      expect(problems.filter((p) => !expected.test(p))).toEqual([]);
    }
  });

  /** Creates and sends a document; returns its id and each signee's e-mailed link. */
  async function sendDocument(options: {
    name: string;
    pages: number;
    signees: { email: string; name: string }[];
    signingMessage?: string;
  }) {
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file: makePdf({ pages: options.pages, title: options.name }),
      filename: 'contract.pdf',
      signees: options.signees,
      extra: {
        name: options.name,
        ...(options.signingMessage ? { signingMessage: options.signingMessage } : {}),
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    const sent = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(sent.status).toBe(200);
    const links: string[] = [];
    for (const signee of options.signees) {
      const mail = await smtp.waitFor((m) => recipient(m) === signee.email);
      const escaped = ctx.baseUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      const link = new RegExp(`${escaped}/sign/sg_[A-Za-z0-9_-]+`).exec(mail.text ?? '');
      expect(link, `invitation to ${signee.email} links to ${ctx.baseUrl}`).not.toBeNull();
      links.push(link![0]);
    }
    return { id, links };
  }

  async function open(link: string, viewport: { width: number; height: number }) {
    const recorded = await openRecordedPage(browser, viewport);
    opened.push(recorded);
    const response = await recorded.page.goto(link);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    return recorded;
  }

  /** Scrolls through the document and checks every page was drawn: ink on a canvas, real text. */
  async function expectEveryPageRendered(page: Page, pages: number, title: string) {
    const items = page.locator('.pdf-page');
    await page.waitForFunction((n) => document.querySelectorAll('.pdf-page').length === n, pages);
    expect(await page.locator('.pdf-page canvas').count()).toBe(pages);
    for (let i = 0; i < pages; i++) {
      const item = items.nth(i);
      await item.scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (n) =>
          document.querySelector<HTMLElement>(`.pdf-page[data-page-number="${n}"]`)?.dataset
            .rendered === 'true',
        i + 1,
      );
      // The text layer carries the page's own words; the canvas holds dark pixels (drawn text).
      expect(await item.textContent()).toContain(`${title} - page ${i + 1}`);
      const ink = await item.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let dark = 0;
        for (let p = 0; p < data.length; p += 4) if (data[p + 3] > 0 && data[p] < 128) dark++;
        return { dark, width: canvas.width, cssWidth: canvas.getBoundingClientRect().width };
      });
      expect(ink.dark).toBeGreaterThan(100);
      expect(ink.width).toBeGreaterThan(0);
      // Sized to the column: never wider than the viewport.
      expect(ink.cssWidth).toBeLessThanOrEqual(page.viewportSize()!.width);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
  }

  it('signs with a typed signature, then a drawn one, from the e-mailed links', async () => {
    const alice = { email: unique('alice'), name: 'Alice Example' };
    const bob = { email: unique('bob'), name: 'Bob Drawer' };
    const title = `Consulting Agreement ${engine}`;
    const { id, links } = await sendDocument({
      name: title,
      pages: 3,
      signees: [alice, bob],
      signingMessage: 'Please sign by Friday.\nThanks!',
    });

    // Alice, on a desktop: reads, trips over the validation, then signs with her typed name.
    const first = await open(links[0], VIEWPORTS.desktop);
    const p1 = first.page;
    await p1.getByRole('heading', { level: 1, name: title }).waitFor();
    const intro = await p1.locator('.intro').innerText();
    expect(intro).toContain('Alice Example');
    expect(intro).toContain('Olivia Owner');
    expect(intro).toContain('Please sign by Friday.');
    await expectEveryPageRendered(p1, 3, title);
    await screenshotBothWidths(p1, `signing-${engine}-typed-before`);

    expect(await p1.getByRole('radio', { name: 'Type' }).isChecked()).toBe(true);
    await p1.getByRole('button', { name: 'Sign document', exact: true }).click();
    await p1.getByText('Type your full name to sign.').waitFor();
    await p1.getByText('Tick this box to agree to sign electronically.').waitFor();
    const nameBox = p1.getByRole('textbox', { name: 'Type your full name' });
    await p1.waitForFunction(() => document.activeElement?.id === 'typed-signature');
    expect(await nameBox.getAttribute('aria-invalid')).toBe('true');
    await screenshotBothWidths(p1, `signing-${engine}-typed-errors`);

    // Keyboard only from here: type the name, tab to the consent box, tick it, submit.
    await p1.keyboard.type('Alice Example');
    expect(await nameBox.inputValue()).toBe('Alice Example');
    await p1.keyboard.press('Tab');
    expect(await p1.evaluate(() => document.activeElement?.id)).toBe('consent');
    await p1.keyboard.press('Space');
    expect(
      await p1.getByRole('checkbox', { name: /I agree to sign electronically/ }).isChecked(),
    ).toBe(true);
    await screenshotBothWidths(p1, `signing-${engine}-typed-filled`);
    await p1.keyboard.press('Tab');
    expect(await p1.evaluate(() => document.activeElement?.textContent)).toBe('Sign document');
    await p1.keyboard.press('Enter');
    await p1.getByRole('heading', { name: /You have signed/ }).waitFor();
    expect(await p1.locator('#signing').innerText()).toContain(`You have signed “${title}”`);
    expect(await p1.getByRole('button', { name: 'Sign document' }).count()).toBe(0);
    await screenshotBothWidths(p1, `signing-${engine}-typed-signed`);

    const doc = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    const signees = doc.body.signees as { email: string; status: string }[];
    expect(signees.find((s) => s.email === alice.email)?.status).toBe('signed');
    expect(signees.find((s) => s.email === bob.email)?.status).toBe('pending');

    // Alice opens her link again: the page knows she has signed.
    await p1.reload();
    await p1.getByRole('heading', { name: 'You have signed this document' }).waitFor();
    expect(await p1.getByRole('checkbox').count()).toBe(0);

    // Bob, on a phone: draws his signature with the mouse.
    const second = await open(links[1], VIEWPORTS.phone);
    const p2 = second.page;
    await p2.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await p2.locator('.intro').innerText()).toContain('Bob Drawer');
    await expectEveryPageRendered(p2, 3, title);
    // Small print on a phone: zoom in, and the page is redrawn wider (and sharper), scrolling sideways.
    const firstPage = p2.locator('.pdf-page').first();
    const fitWidth = (await firstPage.boundingBox())!.width;
    await p2.getByRole('button', { name: 'Zoom in' }).click();
    await p2.getByText('150%').waitFor();
    await waitForVisiblePagesDrawn(p2);
    expect((await firstPage.boundingBox())!.width).toBeCloseTo(fitWidth * 1.5, -1);
    expect(
      await firstPage.locator('canvas').evaluate((c: HTMLCanvasElement) => c.width),
    ).toBeGreaterThanOrEqual(Math.floor(fitWidth * 1.5) - 1);
    await p2.getByRole('button', { name: 'Zoom out' }).click();
    await p2.getByText('100%').waitFor();
    await waitForVisiblePagesDrawn(p2);
    await p2.getByRole('radio', { name: 'Draw' }).check();
    const pad = p2.getByRole('img', { name: 'Draw your signature' });
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    expect(box.width).toBeGreaterThan(250);
    const stroke = async (points: [number, number][]) => {
      await p2.mouse.move(box.x + points[0][0] * box.width, box.y + points[0][1] * box.height);
      await p2.mouse.down();
      for (const [x, y] of points.slice(1)) {
        await p2.mouse.move(box.x + x * box.width, box.y + y * box.height, { steps: 6 });
      }
      await p2.mouse.up();
    };
    await stroke([
      [0.12, 0.65],
      [0.2, 0.3],
      [0.28, 0.7],
      [0.36, 0.35],
      [0.44, 0.68],
    ]);
    await stroke([
      [0.5, 0.6],
      [0.6, 0.4],
      [0.7, 0.62],
      [0.82, 0.45],
    ]);
    await p2.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await screenshotBothWidths(p2, `signing-${engine}-drawn-before`);
    await p2.getByRole('button', { name: 'Sign document', exact: true }).click();
    await p2.getByRole('heading', { name: /You have signed/ }).waitFor();
    await screenshotBothWidths(p2, `signing-${engine}-drawn-signed`);

    const sealed = await waitForStatus(ctx, owner.apiKey, id, 'signed');
    expect(sealed.signees.map((s: { status: string }) => s.status)).toEqual(['signed', 'signed']);

    // The document is finished: the link's signing answers 410, and the page says what happened,
    // with the signed copy.
    await p2.reload();
    await p2.getByRole('heading', { name: `“${title}” has been signed by everyone` }).waitFor();
    await p2.getByRole('link', { name: 'Download the signed copy' }).waitFor();
  }, 180_000);

  it('shows names in every script with the fonts the seal draws them in, and e-mails them as written', async () => {
    const wang = { email: unique('wang'), name: '王小明' };
    const title = `合同 عقد Договор ${engine}`;
    const { links } = await sendDocument({ name: title, pages: 1, signees: [wang] });
    const mail = await smtp.waitFor((m) => recipient(m).includes(wang.email));
    expect(mail.subject).toContain(title);
    expect(mail.html).toContain(wang.name);
    expect(mail.text).toContain(title);

    const { page } = await open(links[0], VIEWPORTS.phone);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.locator('.intro').innerText()).toContain(wang.name);
    const typed = 'محمد 王小明';
    await page.getByRole('textbox', { name: 'Type your full name' }).fill(typed);
    await page.locator('.typed-preview-text').getByText(typed).waitFor();
    // The Chinese and Arabic fallbacks were fetched from this service and drew the text.
    await page.waitForFunction(async () => {
      await document.fonts.ready;
      return (
        document.fonts.check('16px "Signet Scripts"', '王小明') &&
        document.fonts.check('16px "Signet Scripts"', 'محمد')
      );
    });
    const loaded = await page.evaluate(() =>
      [...document.fonts]
        .filter((f) => f.family.replace(/"/g, '') === 'Signet Scripts' && f.status === 'loaded')
        .map((f) => f.unicodeRange),
    );
    expect(loaded.some((range) => range.includes('U+4E00-9FFF'))).toBe(true);
    expect(
      loaded.some((range) => range.includes('U+600-6FF') || range.includes('U+0600-06FF')),
    ).toBe(true);
    // Only the fonts of the scripts on the page were fetched: not Thai, not Korean.
    expect(loaded.some((range) => /U\+0?E00-0?E7F/i.test(range))).toBe(false);
    await screenshotBothWidths(page, `signing-${engine}-scripts`);
  }, 120_000);

  it('declines with a reason, and the link is no longer valid afterwards', async () => {
    const carol = { email: unique('carol'), name: 'Carol Decliner' };
    const dave = { email: unique('dave'), name: 'Dave Bystander' };
    const title = `Supply Contract ${engine}`;
    const { id, links } = await sendDocument({ name: title, pages: 2, signees: [carol, dave] });

    const { page } = await open(links[0], VIEWPORTS.phone);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.locator('.intro').innerText()).toContain('Carol Decliner');
    await expectEveryPageRendered(page, 2, title);

    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    const reason = page.getByRole('textbox', { name: 'Reason' });
    await reason.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'decline-reason');
    await page.getByRole('button', { name: 'Confirm decline' }).click();
    await page.getByText('Write a short reason').waitFor();
    await reason.fill('The delivery dates in clause 2 are wrong.');
    await screenshotBothWidths(page, `signing-${engine}-decline-form`);
    await page.getByRole('button', { name: 'Confirm decline' }).click();
    await page.getByRole('heading', { name: /You declined/ }).waitFor();
    expect(await page.locator('#signing').innerText()).toContain(`You declined to sign “${title}”`);
    await screenshotBothWidths(page, `signing-${engine}-declined`);

    const doc = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(doc.body.document.status).toBe('declined');

    await page.reload();
    await page.getByRole('heading', { name: `“${title}” was declined` }).waitFor();
    expect(await page.locator('main').innerText()).toContain('You declined to sign');
    expect(await page.getByRole('button', { name: 'Sign document' }).count()).toBe(0);
    await screenshotBothWidths(page, `signing-${engine}-link-expired`);

    // The other signee's link is closed too, and says who declined (never why).
    const other = await open(links[1], VIEWPORTS.desktop);
    await other.page.getByRole('heading', { name: `“${title}” was declined` }).waitFor();
    const told = await other.page.locator('main').innerText();
    expect(told).toContain('Carol Decliner declined to sign');
    expect(told).not.toContain('clause 2');
  }, 120_000);

  it('serves the built page and its assets from the service, cached and compressed', async () => {
    const page = await fetch(`${ctx.baseUrl}/sign/sg_${'y'.repeat(40)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => /\/assets\/sign-[\w-]+\.js$/.test(a))).toBe(true);
    expect(html).not.toMatch(/<script>|<script type="module">[^<]/);
    for (const asset of assets) {
      const res = await fetch(`${ctx.baseUrl}${asset}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      await res.arrayBuffer();
    }
    const script = assets.find((a) => a.endsWith('.js'))!;
    const raw = await fetch(`${ctx.baseUrl}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(raw.headers.get('content-encoding')).toBe('br');
    for (const outside of ['/assets/nope-123.js', '/assets/%2e%2e/sign.html', '/assets/.env']) {
      const res = await fetch(`${ctx.baseUrl}${outside}`);
      expect(res.status, outside).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    }
  });

  it('says so when the link is not a signing link at all', async () => {
    const { page } = await open(`${ctx.baseUrl}/sign/sg_${'x'.repeat(40)}`, VIEWPORTS.phone);
    await page.getByRole('heading', { name: 'This signing link is not valid' }).waitFor();
  });
});
