import { expect } from 'vitest';
import type { TestContext } from './context.js';
import { api, quickCreate } from './documents.js';
import type { SmtpSink } from './smtp.js';

/** The answer of a signing API call, with the verification cookie it set (`name=value`). */
export type LinkAnswer = {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
  setCookie: string[];
  cookie: string | null;
};

/**
 * Calls `/api/signing/{token}{path}` as a browser would: with `cookie` if given, from `from`
 * (X-Forwarded-For, for a service started with TRUST_PROXY=loopback).
 */
export async function linkCall(
  ctx: TestContext,
  token: string,
  path: string,
  options: { method?: string; body?: unknown; cookie?: string | null; from?: string } = {},
): Promise<LinkAnswer> {
  const res = await fetch(`${ctx.baseUrl}/api/signing/${token}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      'user-agent': 'SignetTest/1.0',
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.from ? { 'x-forwarded-for': options.from } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  const setCookie = res.headers.getSetCookie();
  const cookie = setCookie.length > 0 ? setCookie[0]!.split(';')[0]! : null;
  return { status: res.status, headers: res.headers, body, text, setCookie, cookie };
}

/** The signing token in the newest invitation the sink received for `to`. */
export async function invitationToken(smtp: SmtpSink, to: string): Promise<string> {
  const mail = await smtp.waitFor(
    (m) => (m.to as { text?: string } | undefined)?.text === to && /\/sign\/sg_/.test(m.text ?? ''),
    20_000,
  );
  return /\/sign\/(sg_[A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;
}

/** The 6-digit code in the newest verification e-mail the sink received for `to` after `after`. */
export async function mailedCode(smtp: SmtpSink, to: string, after = 0): Promise<string> {
  const mail = await smtp.waitFor(
    (m) =>
      smtp.messages.indexOf(m) >= after &&
      (m.to as { text?: string } | undefined)?.text === to &&
      /Your code to open/.test(m.subject ?? ''),
    20_000,
  );
  return /\b(\d{6})\b/.exec(mail.text ?? '')![1]!;
}

/**
 * A document made by quick-create with these signees (auth and accessCode as given) and sent:
 * its id, its signees as answered, and each signee's token from the invitation e-mails.
 */
export async function sentWithAuth(
  ctx: TestContext,
  smtp: SmtpSink,
  input: {
    apiKey: string;
    tenantId: string;
    name: string;
    signees: Array<{ email: string; name: string; auth?: string; accessCode?: string }>;
  },
) {
  const created = await quickCreate(ctx, input.apiKey, {
    tenantId: input.tenantId,
    signees: input.signees,
    extra: { name: input.name },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.document.id as string;
  const sent = await api(ctx, input.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const tokens: string[] = [];
  for (const s of input.signees) tokens.push(await invitationToken(smtp, s.email));
  return {
    id,
    created,
    signees: created.body.signees as Array<{ id: string; auth: string }>,
    tokens,
  };
}
