import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser, type TestUser } from '../helpers/factories.js';
import { signingCall, waitForStatus } from '../helpers/signing.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { waitUntil } from '../faults/support.js';
import {
  checkPages,
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  startService,
  type Dashboard,
} from './dashboard-support.js';

// The refusals the test provokes (a bad default expiry, a deadline in the past) and the login
// page's question whether anyone is logged in.
const PROVOKED = /^console: Failed to load resource: .* status of (401|422) /;

// The workflow around the signature in the dashboard (issue 48): the tenant's default expiry and
// opt-in webhook events, a document's deadline, and each signee's timeline from the audit
// trail, with a real SMTP listener that refuses one address for good (550).
describe.each(ENGINES)('dashboard: expiry, events and signee timelines on %s', (engine) => {
  const d = { opened: [] } as unknown as Dashboard & { smtp: SmtpSink };
  let owner: TestUser;
  let tenantId: string;
  beforeAll(async () => {
    d.smtp = await startSmtpSink();
    d.ctx = await startService(engine, { SMTP_URL: d.smtp.url, MAIL_RETRY_BASE_MS: '100' });
    d.browser = await launchChromium();
    owner = await createUser(d.ctx, { name: 'Wanda Workflow' });
    tenantId = (await createTenant(d.ctx, owner.apiKey, 'Flow Ltd')).id;
  });
  afterAll(async () => {
    await d.browser?.close();
    await d.ctx?.close();
    await d.smtp?.close();
  });
  afterEach(() => checkPages(d.ctx, d.opened, PROVOKED));

  const address = (label: string) => `${label}.${Math.random().toString(36).slice(2, 7)}@ex.io`;
  const create = async (signees: unknown, extra: Record<string, string> = {}) => {
    const res = await quickCreate(d.ctx, owner.apiKey, { tenantId, signees, extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { document: { id: string }; signees: Array<{ id: string }> };
  };
  const document = async (id: string) =>
    (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document;
  const tokenMailedTo = async (to: string) => {
    const mail = await d.smtp.waitFor(
      (m) =>
        m.to !== undefined && JSON.stringify(m.to).includes(to) && /\/sign\/sg_/.test(m.text ?? ''),
    );
    return /\/sign\/(sg_[A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1];
  };
  // Every e-mail of the document is settled (sent or refused), so its audit trail is complete.
  const settled = (documentId: string, rows: number) =>
    waitUntil(async () => {
      const outbox = await d.ctx.db.kysely
        .selectFrom('emails')
        .select('status')
        .where('document_id', '=', documentId)
        .execute();
      return outbox.length === rows && outbox.every((r) => ['sent', 'refused'].includes(r.status));
    }, `${rows} e-mails of ${documentId} to settle`);
  // The labels of a signee's timeline, in the order shown.
  const steps = (page: Page, name: string) =>
    page
      .getByRole('list', { name: `Timeline of ${name}` })
      .locator('.step-label')
      .allTextContents();

  it('sets the default expiry and two opt-in events in settings, explained refusals on the field', async () => {
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/workspace`);
    await page.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    const expiry = page.getByLabel('Default expiry (days)');
    await expect(expiry.inputValue()).resolves.toBe('');

    // The service's rule, said next to the field; then a word the form itself refuses.
    await expiry.fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => expiry.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Default expiry must be at least 1.').waitFor();
    await expiry.fill('a month');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Default expiry must be a whole number of days, like 30.').waitFor();

    await expiry.fill('30');
    await page.getByLabel(/^signee\.viewed/).check();
    await page.getByLabel(/^email\.failed/).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await expect(expiry.getAttribute('aria-invalid')).resolves.toBeNull();
    const read = async () =>
      (await api(d.ctx, owner.apiKey, 'GET', `/api/tenants/${tenantId}/settings`)).body.settings;
    expect(await read()).toMatchObject({
      expiryDays: 30,
      webhookEvents: ['signee.viewed', 'email.failed'],
    });

    // Read back into the form after a reload.
    await page.reload();
    await expect.poll(() => page.getByLabel('Default expiry (days)').inputValue()).toBe('30');
    await expect(page.getByLabel(/^signee\.viewed/).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel(/^email\.failed/).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel(/^signee\.reminded/).isChecked()).resolves.toBe(false);
    await screenshotPage(page, 'workflow-settings');
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNoSidewaysScroll(page);
  });

  it('sets a draft’s expiry, refuses a past one at the field, and clears it once in process', async () => {
    const { document: created } = await create([{ email: address('dora'), name: 'Dora Draft' }], {
      name: 'Expiring lease',
    });
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/documents/${created.id}`);
    const shown = page.getByTestId('expiry');
    await expect.poll(() => shown.textContent()).toBe('No expiry');
    // A draft without its own deadline: the tenant's default applies when it is sent.
    await page.getByText('sending gives it the workspace’s 30 days').waitFor();

    await page.getByRole('button', { name: 'Set expiry' }).click();
    const input = page.getByLabel('Expires at');
    await input.fill('2020-01-31T17:00');
    await page.getByRole('button', { name: 'Save expiry' }).click();
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Expiry must be in the future.').waitFor();

    const later = new Date(Date.now() + 3 * 86_400_000);
    const local = `${later.getFullYear()}-${String(later.getMonth() + 1).padStart(2, '0')}-${String(later.getDate()).padStart(2, '0')}T17:30`;
    await input.fill(local);
    await page.getByRole('button', { name: 'Save expiry' }).click();
    await expect.poll(() => shown.textContent()).toMatch(/^Expires /);
    const expected = await page.evaluate((v) => new Date(v).toISOString(), local);
    expect((await document(created.id)).expiresAt).toBe(expected);
    await page.locator('.timeline').getByText('updated: expiry').waitFor();

    // Sent: the document keeps its own deadline (not the tenant's 30 days), and can lose it.
    await page.getByRole('button', { name: 'Send for signing' }).click();
    // No field is placed: sending asks first (issue 50).
    await page.getByRole('button', { name: 'Send anyway' }).click();
    await page.getByRole('heading', { name: 'Delivery results' }).waitFor();
    expect((await document(created.id)).expiresAt).toBe(expected);
    await page.getByRole('button', { name: 'Change expiry' }).click();
    await page.getByRole('button', { name: 'Remove expiry' }).click();
    await expect.poll(() => shown.textContent()).toBe('No expiry');
    expect((await document(created.id)).expiresAt).toBeNull();
    expect((await document(created.id)).status).toBe('in_process');
  });

  it('shows each signee’s steps in order: two waves, a view, a signature, a reminder', async () => {
    const [a, b] = [address('ann'), address('ben')];
    const created = await create(
      [
        { email: a, name: 'Ann First', signingOrder: 1 },
        { email: b, name: 'Ben Second', signingOrder: 2 },
      ],
      { name: 'Two waves', signingOrderEnabled: 'true' },
    );
    const id = created.document.id;
    expect(
      (await api(d.ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
    const annToken = await tokenMailedTo(a);
    expect((await signingCall(d.ctx, annToken, '')).status).toBe(200);
    const signed = await signingCall(d.ctx, annToken, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Ann First' },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    // The second wave is invited by the outbox once Ann has signed.
    await tokenMailedTo(b);
    await settled(id, 2);

    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/documents/${id}`);
    await expect.poll(() => steps(page, 'Ben Second')).toEqual(['Invited']);
    await page.getByRole('button', { name: 'Remind' }).click();
    await page.getByText('Reminders sent to the signees whose turn it is.').waitFor();
    await settled(id, 3);
    await page.reload();
    await expect.poll(() => steps(page, 'Ann First')).toEqual(['Invited', 'Viewed', 'Signed']);
    await expect.poll(() => steps(page, 'Ben Second')).toEqual(['Invited', 'Reminded']);
    const ben = page.getByRole('list', { name: 'Timeline of Ben Second' });
    await expect(ben.locator('li').nth(1).textContent()).resolves.toMatch(
      /Reminded.*by you, e-mailed/,
    );
    await expect(ben.locator('li').first().textContent()).resolves.toMatch(/Invited.*e-mailed/);
    // Ben's invitation came with the second wave, after Ann's signature.
    const times = await page
      .locator('.signee-timeline time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    expect(times[3] > times[2]).toBe(true);
    // Each signee's role beside their name: both of these are signers.
    await expect(page.locator('.role-label').allTextContents()).resolves.toEqual([
      'Signer',
      'Signer',
    ]);
    await screenshotPage(page, 'workflow-signee-timeline');
    await page.setViewportSize({ width: 360, height: 740 });
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('shows an address the mail server refused with 550 as bounced', async () => {
    const bad = address('bounce');
    d.smtp.rejectRecipients(/^bounce\./);
    try {
      const created = await create([{ email: bad, name: 'Bea Bounce' }], { name: 'Bounced' });
      const id = created.document.id;
      const sent = await api(d.ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
      expect(sent.status).toBe(200);
      await settled(id, 1);
      const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
      await page.goto(`${d.ctx.baseUrl}/app/documents/${id}`);
      await expect.poll(() => steps(page, 'Bea Bounce')).toEqual(['Bounced']);
      const line = page.getByRole('list', { name: 'Timeline of Bea Bounce' }).locator('li');
      await expect(line.textContent()).resolves.toMatch(
        new RegExp(`invitation to ${bad.replace('.', '\\.')} refused: .*550`),
      );
    } finally {
      d.smtp.rejectRecipients(null);
    }
  });

  it('names an expired document so, with its references and the expiry notice', async () => {
    const c = address('cleo');
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const created = await create([{ email: c, name: 'Cleo Late' }], {
      name: 'Too late',
      expiresAt,
      externalId: 'crm-deal-1042',
      metadata: JSON.stringify({ dealId: '1042', stage: 'negotiation' }),
      redirectUrl: 'https://app.example.com/contracts/1042/done',
    });
    const id = created.document.id;
    expect(
      (await api(d.ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
    await waitForStatus(d.ctx, owner.apiKey, id, 'cancelled', 20_000);
    expect((await document(id)).cancelReason).toBe('expired');
    await settled(id, 2);

    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/documents/${id}`);
    await page.getByText('Cancelled: expired').waitFor();
    await expect(page.getByTestId('expiry').textContent()).resolves.toMatch(/^Expired /);
    // Finished: the deadline can no longer change.
    await expect(page.getByRole('button', { name: /expiry/i }).count()).resolves.toBe(0);
    const facts = (await page.locator('.facts').textContent()) ?? '';
    expect(facts).toContain('crm-deal-1042');
    expect(facts).toContain('https://app.example.com/contracts/1042/done');
    expect(facts).toMatch(/dealId\s*1042/);
    await expect.poll(() => steps(page, 'Cleo Late')).toEqual(['Invited', 'Expiry notice']);
    await screenshotPage(page, 'workflow-expired');
  });
});
