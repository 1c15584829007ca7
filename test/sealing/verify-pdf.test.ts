import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P12Signer, PDF } from '@libpdf/core';
import {
  createSelfSignedP12,
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf } from '../../server/src/modules/sealing/seal-pdf.js';
import { findSignatureSlots } from '../../server/src/modules/sealing/find-signatures.js';
import { verifySealedPdf } from '../../server/src/modules/sealing/verify-pdf.js';
import { makePdf, runOnPdf, scratchDir, sha256 } from './helpers.js';

const scratch = scratchDir();
let certificate: SealCertificate;
let original: Uint8Array;
let sealed: Uint8Array;
let ours: { certificateFingerprints: string[] };

beforeAll(async () => {
  certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
  ours = { certificateFingerprints: ['0'.repeat(64), certificate.fingerprint.toUpperCase()] };
  original = await makePdf(3);
  sealed = (
    await sealPdf({
      original,
      signatures: [
        { name: 'Ada Lovelace', email: 'ada@example.com', signedAt: '2024-05-01T10:00:00Z' },
      ],
      auditEntries: [
        {
          at: '2024-05-01T10:00:00Z',
          action: 'signed',
          actor: 'ada@example.com',
          ip: null,
          userAgent: null,
        },
      ],
      documentName: 'Agreement',
      documentId: 'doc_1',
      originalSha256: sha256(original),
      sandbox: false,
      certificate,
      sealedAt: new Date('2024-05-01T10:05:00Z'),
    })
  ).bytes;
});
afterAll(() => scratch.cleanup());

describe('verifySealedPdf', () => {
  it('accepts an untouched seal and reports its time', async () => {
    expect(await verifySealedPdf(sealed, ours)).toMatchObject({
      status: 'sealed',
      coversWholeDocument: true,
      signedAt: '2024-05-01T10:05:00.000Z',
      signerFingerprint: certificate.fingerprint,
    });
  });

  it('reports one flipped byte inside the signed range as altered (pdfsig agrees)', async () => {
    const [start1, length1] = findSignatureSlots(sealed)[0].byteRange;
    const tampered = sealed.slice();
    const at = start1 + Math.floor(length1 / 2);
    tampered[at] = tampered[at] ^ 0x01;
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], tampered).stdout;
    expect(pdfsig).not.toContain('Signature is Valid');
    expect(pdfsig).toMatch(/Signature is Invalid|Digest Mismatch/);
    expect(await verifySealedPdf(tampered, ours)).toMatchObject({
      status: 'altered',
      coversWholeDocument: true,
    });
  });

  it('reports a modified CMS signature value as altered', async () => {
    const slot = findSignatureSlots(sealed)[0];
    const gapStart = slot.byteRange[1];
    // The signature value ends the DER, so its last hex digit sits right before the padding.
    const lastHexDigit = gapStart + 1 + slot.cms.length * 2 - 1;
    const tampered = sealed.slice();
    tampered[lastHexDigit] = tampered[lastHexDigit] === 0x30 ? 0x31 : 0x30;
    const result = await verifySealedPdf(tampered, ours);
    expect(result.status).toBe('altered');
    expect(result.detail).toMatch(/signature/i);
  });

  it('reports an incremental update after sealing as altered and not covering', async () => {
    const pdf = await PDF.load(sealed);
    pdf.getPage(0)?.drawText('Added after sealing', { x: 60, y: 100 });
    const updated = await pdf.save({ incremental: true });
    expect(updated.length).toBeGreaterThan(sealed.length);
    const result = await verifySealedPdf(updated, ours);
    expect(result).toMatchObject({ status: 'altered', coversWholeDocument: false });
    expect(result.detail).toMatch(/bytes were added/);
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], updated).stdout;
    expect(pdfsig).not.toContain('Total document signed');
  });

  it('reports a truncated seal as altered', async () => {
    const result = await verifySealedPdf(sealed.subarray(0, sealed.length - 20), ours);
    expect(result).toMatchObject({ status: 'altered', coversWholeDocument: false });
  });

  it('says unknown for unsigned PDFs, non-PDFs and other certificates', async () => {
    expect(await verifySealedPdf(original, ours)).toMatchObject({
      status: 'unknown',
      coversWholeDocument: false,
    });
    expect((await verifySealedPdf(new TextEncoder().encode('not a pdf'), ours)).status).toBe(
      'unknown',
    );
    expect((await verifySealedPdf(new Uint8Array(0), ours)).status).toBe('unknown');
    expect(await verifySealedPdf(sealed, { certificateFingerprints: [] })).toMatchObject({
      status: 'unknown',
      coversWholeDocument: true,
    });

    const foreign = await P12Signer.create(createSelfSignedP12('Someone Else', 'pw'), 'pw');
    const signedElsewhere = (await (await PDF.load(original)).sign({ signer: foreign })).bytes;
    expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], signedElsewhere).stdout).toContain(
      'Signature is Valid',
    );
    const result = await verifySealedPdf(signedElsewhere, ours);
    expect(result.status).toBe('unknown');
    expect(result.detail).toMatch(/not by a seal certificate/);
  });

  it('ignores a /ByteRange that is only text inside a content stream', async () => {
    const pdf = PDF.create();
    const page = pdf.addPage();
    page.dict.set(
      'Contents',
      pdf.createStream({}, new TextEncoder().encode('% /ByteRange [0 10 20 30] <3003020100>\n')),
    );
    const bytes = await pdf.save({ compressStreams: false });
    expect(Buffer.from(bytes).includes('/ByteRange [0 10 20 30]')).toBe(true);
    expect(findSignatureSlots(bytes)).toEqual([]);
    expect((await verifySealedPdf(bytes, ours)).status).toBe('unknown');
  });
});
