import { expect } from 'vitest';
import type { TestContext } from './context.js';
import { api } from './documents.js';

/** The signing token e-mailed to an address (dev mailbox), newest first. */
export async function signingTokenFromMailbox(ctx: TestContext, email: string): Promise<string> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    const row = await ctx.db.kysely
      .selectFrom('emails')
      .select('text')
      .where('to_address', '=', email)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    const token = row && /\/sign\/(sg_[A-Za-z0-9_-]+)/.exec(row.text)?.[1];
    if (token) return token;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no invitation for ${email}`);
}

/** Polls a document until it reaches a status. */
export async function waitForStatus(
  ctx: TestContext,
  apiKey: string,
  documentId: string,
  status: string,
  timeoutMs = 20_000,
) {
  const end = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < end) {
    const res = await api(ctx, apiKey, 'GET', `/api/documents/${documentId}`);
    last = res.body.document.status;
    if (last === status) return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(last).toBe(status);
  throw new Error('unreachable');
}

/**
 * Calls a signing endpoint (no API key: the token is the credential). `from` is the client's
 * address, sent as X-Forwarded-For: for a service started with TRUST_PROXY=loopback, so that
 * signees who sign from different places are limited each on their own.
 */
export async function signingCall(
  ctx: TestContext,
  token: string,
  action: '' | 'sign' | 'decline',
  body?: unknown,
  from?: string,
) {
  const res = await fetch(`${ctx.baseUrl}/api/signing/${token}${action ? `/${action}` : ''}`, {
    method: action ? 'POST' : 'GET',
    headers: {
      'user-agent': 'SignetTest/1.0',
      ...(from === undefined ? {} : { 'x-forwarded-for': from }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A tiny valid PNG (1x1), as a drawn signature would be. */
export const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A file by the short-lived download URL the API answered, fetched from this service. */
export async function downloadFile(ctx: TestContext, downloadUrl: string): Promise<Buffer> {
  const url = new URL(downloadUrl);
  const res = await fetch(`${ctx.baseUrl}${url.pathname}${url.search}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * Sends a created document to its one signee, signs it with their typed name and waits until it
 * is signed: the document as the API then answers it, and the sealed file.
 */
export async function signAsOnlySignee(
  ctx: TestContext,
  apiKey: string,
  documentId: string,
  signee: { email: string; name: string; from?: string },
  timeoutMs = 30_000,
) {
  const sent = await api(ctx, apiKey, 'POST', `/api/documents/${documentId}/send-for-signing`);
  expect(sent.status).toBe(200);
  const token = await signingTokenFromMailbox(ctx, signee.email);
  const signed = await signingCall(
    ctx,
    token,
    'sign',
    { consent: true, signature: { type: 'typed', text: signee.name } },
    signee.from,
  );
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  const done = await waitForStatus(ctx, apiKey, documentId, 'signed', timeoutMs);
  return { done, sealed: await downloadFile(ctx, done.document.downloadUrl) };
}

/** A document's field values by label (by type for a field without one), as the API answers them. */
export function valuesByLabel(fields: unknown): Record<string, unknown> {
  return Object.fromEntries(
    (fields as { label: string | null; type: string; value: unknown }[]).map((f) => [
      f.label ?? f.type,
      f.value,
    ]),
  );
}
