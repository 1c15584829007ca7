import { afterAll, beforeAll, expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EngineName } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall } from '../helpers/signing.js';
import { useMailingContext } from '../helpers/smtp.js';

/** A signee as the tests read it. */
export type Signee = {
  id: string;
  email: string;
  role: string;
  status: string;
  invitedAt: unknown;
};
/** An audit entry as the tests read it. */
export type Entry = { action: string; actor: string; signeeId: string | null; details: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A field's place on page 1. */
export const box = { page: 1, x: 72, y: 100, width: 160, height: 40 };

/**
 * The recipient-role tests' fixture on `engine`: a listening service mailing a real SMTP
 * listener, a sender with a tenant, a scratch folder, and the calls the tests share.
 */
export function useRolesContext(engine: EngineName) {
  const m = useMailingContext(engine, {
    listen: true,
    env: (url) => ({ SMTP_URL: url, MAIL_RETRY_BASE_MS: '100' }),
  });
  const f = { apiKey: '', tenantId: '', scratch: '' };
  beforeAll(async () => {
    f.apiKey = (await createUser(m.ctx, { name: 'Sam Sender' })).apiKey;
    f.tenantId = (await createTenant(m.ctx, f.apiKey)).id;
    f.scratch = mkdtempSync(path.join(tmpdir(), 'signet-roles-'));
  });
  afterAll(() => rmSync(f.scratch, { recursive: true, force: true }));

  const toOf = (mail: { to?: unknown }) => (mail.to as { text: string } | undefined)?.text;
  const call = (method: string, url: string, body?: unknown) =>
    api(m.ctx, f.apiKey, method, url, body);
  const mailTo = (to: string, pattern: RegExp) =>
    m.smtp.waitFor((x) => toOf(x) === to && pattern.test(`${x.subject}\n${x.text}`));
  return {
    m,
    f,
    toOf,
    call,
    mailTo,
    addr: (label: string) => `${label}.${Math.random().toString(36).slice(2, 8)}@ex.io`,
    credits: async () =>
      (await call('GET', `/api/tenants/${f.tenantId}/credits`)).body.balance as number,
    trail: async (id: string) =>
      (await call('GET', `/api/documents/${id}/audit-trail`)).body.auditTrail as Entry[],
    create: async (signees: object[], extra: Record<string, string> = {}) => {
      const res = await quickCreate(m.ctx, f.apiKey, { tenantId: f.tenantId, signees, extra });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { id: res.body.document.id as string, signees: res.body.signees as Signee[] };
    },
    tokenMailedTo: async (to: string) => {
      const mail = await mailTo(to, /\/sign\/sg_/);
      return { token: /\/sign\/(sg_[A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1], mail };
    },
    sign: async (token: string) => {
      const res = await signingCall(m.ctx, token, 'sign', {
        consent: true,
        signature: { type: 'typed', text: 'Signed' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
    approve: (token: string, body?: unknown) =>
      fetch(`${m.ctx.baseUrl}/api/signing/${token}/approve`, {
        method: 'POST',
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' } }),
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, body: await res.json() })),
    /** Whether the trail has an `e-mailed` entry to `to` of `kind`. */
    emailed: (entries: Entry[], to: string, kind: string) =>
      entries.some(
        (e) => e.action === 'e-mailed' && e.details?.to === to && e.details?.kind === kind,
      ),
  };
}
