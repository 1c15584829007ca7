import { z } from 'zod';
import { format, type Catalogue } from '../../i18n/index.js';

/** How a signee's link was verified (decisions §13), as the evidence file records it. */
export const evidenceVerificationSchema = z
  .object({
    method: z
      .enum(['access_code', 'email_otp', 'identity'])
      .describe(
        "'access_code': the code the sender set; 'email_otp': a code e-mailed to `email`; 'identity': a token signed by the tenant's application",
      ),
    verifiedAt: z.string().describe('ISO 8601 time, UTC'),
    identity: z
      .object({
        issuer: z.string().nullable().describe("the token's iss"),
        subject: z
          .string()
          .nullable()
          .describe("the token's sub: the application's id of the person"),
        keyId: z.string().describe("the kid of the tenant's key that signed it"),
      })
      .strict()
      .nullable()
      .describe('what an identity token vouched for; null for a code'),
  })
  .strict();

/** One signee's verification in the evidence file. */
export type EvidenceVerification = z.infer<typeof evidenceVerificationSchema>;

/** A verification entry's facts, as the audit certificate prints them under it. */
export type SealVerification = {
  method: string;
  issuer: string | null;
  subject: string | null;
  keyId: string | null;
};

type TrailEntry = { action: string; details: Record<string, unknown> | null; createdAt: string };

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** The method (and vouched identity) of an `auth …` entry; undefined for any other entry. */
export function verificationOf(entry: Pick<TrailEntry, 'action' | 'details'>) {
  if (!entry.action.startsWith('auth ')) return undefined;
  const method = text(entry.details?.method);
  if (!method) return undefined;
  const verification: SealVerification = {
    method,
    issuer: text(entry.details?.issuer),
    subject: text(entry.details?.subject),
    keyId: text(entry.details?.keyId),
  };
  return verification;
}

/**
 * How a signee was verified: their last successful verification before they signed (or the last
 * one at all, for one who has not); null when their link asked for none and none was made.
 */
export function signeeVerification(own: TrailEntry[]): EvidenceVerification | null {
  const signed = own.findLastIndex((e) => e.action === 'signed');
  const before = signed === -1 ? own : own.slice(0, signed);
  const entry = before.findLast((e) => e.action === 'auth succeeded');
  const found = entry && verificationOf(entry);
  if (!entry || !found) return null;
  const method = evidenceVerificationSchema.shape.method.safeParse(found.method);
  if (!method.success) return null;
  return {
    method: method.data,
    verifiedAt: entry.createdAt,
    identity:
      method.data === 'identity' && found.keyId
        ? { issuer: found.issuer, subject: found.subject, keyId: found.keyId }
        : null,
  };
}

/** The line the certificate prints under a verification entry: its method, who vouched. */
export function verificationLine(v: SealVerification, m: Catalogue['seal']): string {
  const methods = m.authMethods as Record<string, string>;
  const line = format(m.verifiedWith, { method: methods[v.method] ?? v.method });
  if (v.method !== 'identity' || !v.keyId) return line;
  const vouched = format(m.vouchedIdentity, {
    subject: v.subject ?? '-',
    issuer: v.issuer ?? '-',
    kid: v.keyId,
  });
  return `${line}: ${vouched}`;
}
