import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousA11yProblems } from '../helpers/axe.js';
import { api } from '../helpers/documents.js';
import type { SmtpSink } from '../helpers/smtp.js';
import type { Dashboard } from './dashboard-support.js';
import { expectStep, expectStepPage } from './new-document-support.js';

const SHOTS = path.resolve('test-results/screenshots');

/** Saves the page as it is now: dashboard-new-{name}-{width}.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: path.join(SHOTS, `dashboard-new-${name}-${width}.png`),
    fullPage: true,
  });
}

/**
 * Steps 2 to 5 of a draft just uploaded with Ann as its first recipient: Ben and a copy to
 * Carl in a signing order, a signature field each (the warning for the one without), the
 * review's summary and settings, Send there and only there, and Ann's invitation e-mailed.
 */
export async function flowAfterUpload(
  d: Dashboard & { smtp: SmtpSink },
  page: Page,
  apiKey: string,
  documentId: string,
  size: string,
  ann: { name: string; email: string },
): Promise<void> {
  const title = `Lease ${size}`;
  const send = page.getByRole('button', { name: 'Send for signing' });
  const detail = async () => (await api(d.ctx, apiKey, 'GET', `/api/documents/${documentId}`)).body;

  // Step 2: recipients, in order, with roles.
  await expectStepPage(page, `Recipients: ${title}`);
  await shot(page, 'recipients');
  expect(await send.count()).toBe(0);
  const inOrder = page.getByLabel('Invite the recipients one after another');
  await inOrder.click();
  await expect.poll(() => inOrder.isChecked()).toBe(true);
  const first = page.getByRole('group', { name: `Signee 1: ${ann.name}` });
  await first.getByLabel('Order').fill('1');
  await first.getByRole('button', { name: 'Save signee 1' }).click();
  await expect.poll(async () => (await detail()).signees[0].signingOrder).toBe(1);
  const add = page.getByRole('group', { name: 'Add a signee' });
  const ben = { name: 'Ben Signer', email: `ben-${size}@example.com` };
  await add.getByLabel('Name').fill(ben.name);
  await add.getByLabel('E-mail').fill(ben.email);
  await add.getByLabel('Order').fill('2');
  await add.getByRole('button', { name: 'Add signee' }).click();
  await page.getByRole('group', { name: `Signee 2: ${ben.name}` }).waitFor();
  await add.getByLabel('Name').fill('Carl Copy');
  await add.getByLabel('E-mail').fill(`carl-${size}@example.com`);
  await add.getByLabel('Role').selectOption('cc');
  await add.getByRole('button', { name: 'Add signee' }).click();
  await page.getByRole('group', { name: 'Signee 3: Carl Copy (CC)' }).waitFor();
  await expectStepPage(page, `Recipients: ${title}`, false);
  await page.getByRole('link', { name: 'Continue to fields' }).click();

  // Step 3: the editor; without fields, both signers are named; Ben without one asks first.
  await expectStep(page, 3, 'Fields');
  await page.locator('.prepare-sheet[data-page-number="1"]').waitFor();
  await page.getByText(`No signature field yet for ${ann.name} and ${ben.name}.`).waitFor();
  await expectStepPage(page, `Prepare fields: ${title}`);
  await shot(page, 'fields');
  expect(await send.count()).toBe(0);
  await page.getByRole('button', { name: `Add Signature field for ${ann.name}` }).click();
  const next = page.getByRole('button', { name: 'Continue to review' });
  await next.click();
  const question = page.getByRole('group', { name: /^Ben Signer has no signature field/ });
  await question.waitFor();
  await expect(question.textContent()).resolves.toContain(
    'Ben Signer has no signature field, and sending is refused until they have one. Continue anyway?',
  );
  expect(
    (await api(d.ctx, apiKey, 'GET', `/api/documents/${documentId}/fields`)).body.fields,
  ).toHaveLength(1);
  expect(await seriousA11yProblems(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect.poll(() => question.count()).toBe(0);
  await expect.poll(() => next.evaluate((e) => e === document.activeElement)).toBe(true);
  await page.getByRole('button', { name: `Add Signature field for ${ben.name}` }).click();
  await next.click();

  // Step 4: the review's summary, its settings changed there, and Send.
  await expectStep(page, 4, 'Review');
  await expectStepPage(page, `Review and send: ${title}`);
  const rows = await page.locator('.review-list li').allTextContents();
  expect(rows).toEqual([
    expect.stringMatching(new RegExp(`^${ann.name} ${ann.email}Signer · order 1 · 1 field$`)),
    expect.stringMatching(new RegExp(`^${ben.name} ${ben.email}Signer · order 2 · 1 field$`)),
    expect.stringMatching(/^Carl Copy carl-.*CC · order none · no fields: gets a copy$/),
  ]);
  await page.getByText('2 fields placed on the pages.').waitFor();
  await page.getByLabel('Message to the signees').fill('Please sign by Friday.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Changes saved.').waitFor();
  await page.getByRole('button', { name: 'Set expiry' }).click();
  await page.getByLabel('Expires at').fill('2099-01-31T12:00');
  await page.getByRole('button', { name: 'Save expiry' }).click();
  await page.getByTestId('expiry').getByText('Expires').waitFor();
  await expectStepPage(page, `Review and send: ${title}`, false);
  await shot(page, 'review');
  await send.click();

  // Step 5: what sending did, the invitation in Ann's mailbox, and the way to the document.
  await expectStep(page, 5, 'Send');
  await expectStepPage(page, `Sent for signing: ${title}`);
  const results = page.locator('section', { hasText: 'Delivery results' });
  await expect(results.textContent()).resolves.toContain(`${ann.email}: sent invitation e-mailed`);
  await expect(results.textContent()).resolves.toContain(
    `${ben.email}: scheduled waits for its turn`,
  );
  await shot(page, 'sent');
  const mail = await d.smtp.waitFor((m) => JSON.stringify(m.to).includes(ann.email));
  expect(mail.text).toContain('Please sign by Friday.');
  expect(mail.text).toMatch(/\/sign\/sg_/);
  const after = await detail();
  expect(after.document).toMatchObject({
    status: 'in_process',
    signingMessage: 'Please sign by Friday.',
  });
  expect(after.document.expiresAt).toMatch(/^2099-01-31/);
  await page.getByRole('link', { name: 'Open the document' }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}
