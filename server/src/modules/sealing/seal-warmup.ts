import { createHash } from 'node:crypto';
import { PDF } from '@libpdf/core';
import type { SealCertificate } from './seal-certificate.js';
import type { SealField, SealPdfInput } from './seal-types.js';

let original: Promise<{ bytes: Uint8Array; sha256: string }> | undefined;

/** A 3-page contract of our own, made once per thread. */
function warmUpOriginal() {
  original ??= (async () => {
    const pdf = PDF.create();
    for (let i = 1; i <= 3; i++) {
      const page = pdf.addPage({ size: 'a4' });
      page.drawText(`Warm-up contract, page ${i}`, { x: 60, y: 760, size: 20 });
      page.drawText('The parties agree to the terms below. '.repeat(20), {
        x: 60,
        y: 720,
        size: 11,
        maxWidth: 470,
        lineHeight: 15,
      });
    }
    const bytes = await pdf.save();
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  })();
  return original;
}

const SIGNEE = { name: 'Zoë Ünal', email: 'zoe@example.com' };
const AT = '2026-01-01T10:00:00.000Z';

/**
 * What the n-th warm-up seal seals: the contract above, every other time with filled fields
 * (drawn into its pages) and otherwise with a signature page, so both paths are compiled. It
 * never names a time-stamp authority: warming up sends nothing anywhere.
 */
export async function warmUpInput(
  n: number,
  certificate: SealCertificate,
  sandbox: boolean,
): Promise<SealPdfInput> {
  const { bytes, sha256 } = await warmUpOriginal();
  const fields: SealField[] = (['signature', 'initials', 'date', 'text', 'checkbox'] as const).map(
    (type, i) => ({
      type,
      page: 1 + (i % 3),
      x: 60 + i * 90,
      y: 600,
      width: 80,
      height: type === 'checkbox' ? 14 : 36,
      label: type === 'text' ? 'Job title' : null,
      value:
        type === 'checkbox' ? true : type === 'date' ? 'January 1, 2026' : 'Head of operations',
      mark: type === 'signature' || type === 'initials' ? { typed: SIGNEE.name } : undefined,
      tagBox: null,
      signeeName: SIGNEE.name,
      signeeEmail: SIGNEE.email,
      filledAt: AT,
    }),
  );
  return {
    original: bytes,
    originalSha256: sha256,
    signatures: [{ ...SIGNEE, signedAt: AT, typedName: SIGNEE.name }],
    fields: n % 2 ? fields : [],
    auditEntries: ['created', 'sent', 'opened', 'signed'].map((action, i) => ({
      at: `2026-01-01T09:0${i}:00.000Z`,
      action,
      actor: SIGNEE.email,
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0',
    })),
    documentName: 'Warm-up contract',
    documentId: '00000000-0000-7000-8000-000000000000',
    sandbox,
    certificate,
  };
}
