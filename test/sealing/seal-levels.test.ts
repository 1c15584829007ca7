// Issue 46: seals at PAdES B-B, B-T, B-LT and B-LTA against a real local PKI (openssl CA, OCSP
// responder, CRLs and RFC 3161 time-stamp authority on loopback: test/helpers/local-pki.ts),
// checked with tools we did not write (pdfsig, qpdf, openssl ts); and what an outside fault
// does: the seal fails for a retry (never the `attached` fallback), and on the job's last
// attempt (`settle`) it is sealed at the level reached, its certificate saying why.
import { PDF, PdfArray, PdfDict } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SealCertificate } from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf, type SealPdfInput } from '../../server/src/modules/sealing/seal-pdf.js';
import { verifySealedPdf } from '../../server/src/modules/sealing/verify-pdf.js';
import { verifyEvidence } from '../../sdk/src/index.js';
import { startLocalPki, type LocalPki } from '../helpers/local-pki.js';
import {
  makePdf,
  pageTexts,
  runOnPdf,
  scratchDir,
  sha256,
  verifyArchiveTimestamp,
} from './helpers.js';

const scratch = scratchDir();
let pki: LocalPki;
let certificate: SealCertificate;

beforeAll(async () => {
  pki = await startLocalPki();
  certificate = await pki.sealCertificate();
}, 60_000);
afterAll(async () => {
  await pki.close();
  scratch.cleanup();
});

function input(original: Uint8Array, overrides: Partial<SealPdfInput> = {}): SealPdfInput {
  return {
    original,
    signatures: [
      { name: 'Ada Lovelace', email: 'ada@example.com', signedAt: '2026-11-27T10:00:00.000Z' },
    ],
    auditEntries: [
      {
        at: '2026-11-27T09:00:00.000Z',
        action: 'created',
        actor: 'sender',
        ip: null,
        userAgent: null,
      },
    ],
    documentName: 'Long-term contract',
    documentId: 'doc-levels',
    originalSha256: sha256(original),
    sandbox: false,
    certificate,
    tsaUrl: pki.tsa.url,
    ...overrides,
  };
}

// The DSS of a sealed file: how many certificates, OCSP responses and CRLs it holds.
async function dssOf(bytes: Uint8Array) {
  const pdf = await PDF.load(bytes);
  const dss = pdf.getCatalog().get('DSS');
  const dict = dss instanceof PdfDict ? dss : dss ? pdf.getObject(dss as never) : null;
  if (!(dict instanceof PdfDict)) return null;
  const count = (key: string) => {
    const value = dict.get(key);
    const array = value instanceof PdfArray ? value : value ? pdf.getObject(value as never) : null;
    return array instanceof PdfArray ? array.length : 0;
  };
  return { certs: count('Certs'), ocsps: count('OCSPs'), crls: count('CRLs') };
}

describe('seal levels against a local PKI', () => {
  it('revocation sources down: a retry, then B-T on the last attempt; back up: B-LT', async () => {
    // First in this file: nothing is cached yet, so the revocation data must be fetched.
    const fresh = certificate;
    await pki.ocsp.stop();
    await pki.crl.stop();
    try {
      const original = await makePdf(1);
      await expect(
        sealPdf(input(original, { level: 'B-LT', certificate: fresh })),
      ).rejects.toMatchObject({ name: 'OutsideFault' });
      const settled = await sealPdf(
        input(original, { level: 'B-LT', certificate: fresh, settle: true }),
      );
      expect(settled.level).toBe('B-T');
      const text = pageTexts(scratch.dir, settled.bytes).join('\n').replace(/\s+/g, ' ');
      expect(text).toContain('B-T (PAdES); B-LT could not be reached');
    } finally {
      await pki.ocsp.start();
      await pki.crl.start();
    }
    const back = await sealPdf(input(await makePdf(1), { level: 'B-LT', certificate: fresh }));
    expect(back.level).toBe('B-LT');
  });

  it('B-LTA: signature time stamp, DSS with OCSP for both chains, archive time stamp', async () => {
    pki.tsa.mode = 'ok';
    const sealed = await sealPdf(input(await makePdf(3), { level: 'B-LTA' }));
    expect(sealed.level).toBe('B-LTA');
    expect(sealed.mode).toBe('normalised');
    // pdfsig checks the seal; it cannot check a document time stamp (openssl does, below), but
    // it shows that the archive time stamp covers the whole file.
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed.bytes).stdout;
    const [seal, archive] = pdfsig.split(/^Signature #\d+:$/m).slice(1);
    expect(seal).toContain('ETSI.CAdES.detached');
    expect(seal).toContain('Signature is Valid');
    expect(archive).toContain('Signet archive time stamp');
    expect(archive).toContain('Total document signed');
    expect(runOnPdf(scratch.dir, 'qpdf', ['--check', '{}'], sealed.bytes).status).toBe(0);
    const dss = await dssOf(sealed.bytes);
    // Seal, intermediate and TSA certificates have OCSP responses (the root needs none).
    expect(dss?.certs).toBeGreaterThanOrEqual(4);
    expect(dss?.ocsps).toBeGreaterThanOrEqual(3);
    // The archive time stamp is a token openssl accepts, for this PKI and these bytes.
    expect(verifyArchiveTimestamp(scratch.dir, sealed.bytes, pki.files)).toContain(
      'Verification: OK',
    );
    const text = pageTexts(scratch.dir, sealed.bytes).join('\n');
    expect(text).toContain('B-LTA (PAdES)');
    // Our own verification reads the level off the file; the evidence is still the seal's.
    const verified = await verifySealedPdf(sealed.bytes, {
      certificateFingerprints: [certificate.fingerprint],
    });
    expect(verified).toMatchObject({ status: 'sealed', level: 'B-LTA' });
    expect(verified.dss).toMatchObject({ present: true, coversChains: true });
    const evidence = verifyEvidence(sealed.bytes, {
      trustedFingerprints: [certificate.fingerprint],
    });
    expect(evidence.status).toBe('valid');
    expect(evidence.laterRevisionBytes).toBeGreaterThan(0);
  });

  it('B-LT: a DSS after the signature, no archive time stamp', async () => {
    pki.tsa.mode = 'ok';
    const sealed = await sealPdf(input(await makePdf(1), { level: 'B-LT' }));
    expect(sealed.level).toBe('B-LT');
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed.bytes).stdout;
    expect(pdfsig.match(/Signature is Valid/g)).toHaveLength(1);
    expect(pdfsig).not.toContain('ETSI.RFC3161');
    expect((await dssOf(sealed.bytes))?.ocsps).toBeGreaterThanOrEqual(3);
    const verified = await verifySealedPdf(sealed.bytes, {
      certificateFingerprints: [certificate.fingerprint],
    });
    expect(verified).toMatchObject({ status: 'sealed', level: 'B-LT' });
  });

  it('B-B needs no time-stamp authority and B-T asks it once', async () => {
    const before = pki.tsa.requests;
    const plain = await sealPdf(input(await makePdf(1), { level: 'B-B', tsaUrl: undefined }));
    expect(plain.level).toBe('B-B');
    expect(pki.tsa.requests).toBe(before);
    const stamped = await sealPdf(input(await makePdf(1), { level: 'B-T' }));
    expect(stamped.level).toBe('B-T');
    expect(pki.tsa.requests).toBe(before + 1);
    expect(await dssOf(stamped.bytes)).toBeNull();
  });

  it('a TSA that fails once fails the seal for a retry, never the attached fallback', async () => {
    pki.tsa.mode = 'fail-once-503';
    const original = await makePdf(2);
    await expect(sealPdf(input(original, { level: 'B-T' }))).rejects.toMatchObject({
      name: 'OutsideFault',
      message: expect.stringMatching(/time-stamp authority/),
    });
    // The retry: the same original, sealed in place at the level asked for.
    const again = await sealPdf(input(original, { level: 'B-T' }));
    expect(again).toMatchObject({ mode: 'normalised', level: 'B-T' });
  });

  it('a token for another hash or junk is refused, not embedded', async () => {
    for (const mode of ['wrong-imprint', 'junk'] as const) {
      pki.tsa.mode = mode;
      await expect(sealPdf(input(await makePdf(1), { level: 'B-T' }))).rejects.toMatchObject({
        name: 'OutsideFault',
      });
    }
    pki.tsa.mode = 'ok';
  });

  it('on the last attempt a TSA still down seals at B-B, and the certificate says why', async () => {
    pki.tsa.mode = 'always-503';
    try {
      const sealed = await sealPdf(input(await makePdf(1), { level: 'B-LTA', settle: true }));
      expect(sealed).toMatchObject({ level: 'B-B', mode: 'normalised' });
      const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed.bytes).stdout;
      expect(pdfsig).toContain('Signature is Valid');
      const text = pageTexts(scratch.dir, sealed.bytes).join('\n').replace(/\s+/g, ' ');
      expect(text).toContain('B-B (PAdES); B-LTA could not be reached');
      expect(text).toMatch(/time-stamp authority/);
    } finally {
      pki.tsa.mode = 'ok';
    }
  });
});
