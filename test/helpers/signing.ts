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

/** Calls a signing endpoint (no API key: the token is the credential). */
export async function signingCall(
  ctx: TestContext,
  token: string,
  action: '' | 'sign' | 'decline',
  body?: unknown,
) {
  const res = await fetch(`${ctx.baseUrl}/api/signing/${token}${action ? `/${action}` : ''}`, {
    method: action ? 'POST' : 'GET',
    headers: {
      'user-agent': 'SignetTest/1.0',
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
