import { P12Signer, PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSignatureSlots } from '../../server/src/modules/sealing/find-signatures.js';
import {
  createSelfSignedP12,
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf, type SealPdfInput } from '../../server/src/modules/sealing/seal-pdf.js';
import { verifyPdfFile, verifySealedPdf } from '../../server/src/modules/sealing/verify-pdf.js';
import { startFakeTsa } from './fake-tsa.js';
import { makePdf, runOnPdf, scratchDir, sha256 } from './helpers.js';

// Issue 46's low-severity verification defects: a signature pasted from another file, a
// truncated file, and an attached-mode seal reporting its own original as active content.
const scratch = scratchDir();
let certificate: SealCertificate;
let ours: { certificateFingerprints: string[] };

function input(original: Uint8Array, extra: Partial<SealPdfInput> = {}): SealPdfInput {
  return {
    original,
    signatures: [{ name: 'Ada', email: 'ada@example.com', signedAt: '2026-11-01T10:00:00Z' }],
    auditEntries: [],
    documentName: 'Agreement',
    documentId: 'doc_defects',
    originalSha256: sha256(original),
    sandbox: false,
    certificate,
    ...extra,
  };
}

// Every occurrence of `from` (latin1) in `bytes` replaced by `to`, of the same length.
function replaceAll(bytes: Uint8Array, from: string, to: string): Uint8Array {
  expect(to.length).toBe(from.length);
  const text = Buffer.from(bytes).toString('latin1');
  expect(text).toContain(from);
  return new Uint8Array(Buffer.from(text.split(from).join(to), 'latin1'));
}

beforeAll(async () => {
  certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
  ours = { certificateFingerprints: [certificate.fingerprint] };
});
afterAll(() => scratch.cleanup());

describe('verifying defective seals', () => {
  it('reports a signature pasted from another file with no time, as not for these bytes', async () => {
    const tsa = await startFakeTsa();
    try {
      const first = await sealPdf(
        input(await makePdf(2), { tsaUrl: tsa.url, sealedAt: new Date('2026-01-05T08:00:00Z') }),
      );
      const second = await sealPdf(
        input(await makePdf(3), { tsaUrl: tsa.url, sealedAt: new Date('2026-11-05T08:00:00Z') }),
      );
      const donor = findSignatureSlots(first.bytes)[0];
      const target = findSignatureSlots(second.bytes)[0];
      const hex = (bytes: Uint8Array, range: number[]) =>
        Buffer.from(bytes.subarray(range[1] + 1, range[2] - 1)).toString('latin1');
      let pasted = replaceAll(
        second.bytes,
        hex(second.bytes, target.byteRange),
        hex(first.bytes, donor.byteRange),
      );
      pasted = replaceAll(pasted, '/M (D:20261105080000Z)', '/M (D:20260105080000Z)');

      const result = await verifySealedPdf(pasted, ours);
      expect(result.status).toBe('altered');
      expect(result.detail).toMatch(/not for these bytes/);
      expect(result.detail).toMatch(/copied from another document/);
      expect(result.signedAt).toBeUndefined();
      expect(result.signatures[0]).toMatchObject({
        valid: false,
        signedAt: null,
        timestampedAt: null,
      });
      // The donor, intact, still says when it was stamped.
      expect((await verifySealedPdf(first.bytes, ours)).signedAt).toBeDefined();
      expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], pasted).stdout).not.toContain(
        'Signature is Valid',
      );
    } finally {
      await tsa.close();
    }
  });

  it('explains a truncated file as truncated, with both lengths', async () => {
    const sealed = (await sealPdf(input(await makePdf(1)))).bytes;
    const truncated = sealed.subarray(0, sealed.length - 20);
    const result = await verifySealedPdf(truncated, ours);
    expect(result).toMatchObject({ status: 'altered', coversWholeDocument: false });
    expect(result.detail).toBe(
      `The file is truncated: the seal signs bytes up to ${sealed.length}, but the file has ${truncated.length}.`,
    );
  });

  it('does not report the original an attached-mode seal carries as active content', async () => {
    const sealed = await sealPdf(input(await makePdf(1)), { attachOnly: 'for the test' });
    expect(sealed.mode).toBe('attached');
    const result = await verifyPdfFile(sealed.bytes, ours);
    expect(result).toMatchObject({ status: 'sealed', activeContent: [] });

    // A file attached after the seal is reported (and the file is altered).
    const pdf = await PDF.load(sealed.bytes);
    pdf.attachments.add('invoice.pdf', await makePdf(1), { mimeType: 'application/pdf' });
    const added = await pdf.save({ incremental: true });
    expect(await verifyPdfFile(added, ours)).toMatchObject({
      status: 'altered',
      activeContent: ['embedded_files'],
    });
  });

  it('reports an attachment of the signed original even under the name of our evidence', async () => {
    const carrier = await PDF.load(await makePdf(1));
    carrier.attachments.add('evidence.json', new TextEncoder().encode('{"forged":true}'), {
      mimeType: 'application/json',
    });
    const foreign = await P12Signer.create(createSelfSignedP12('Someone Else', 'pw'), 'pw');
    const signed = (await (await PDF.load(await carrier.save())).sign({ signer: foreign })).bytes;
    const sealed = await sealPdf(input(signed));
    expect(sealed.mode).toBe('incremental');
    expect(await verifyPdfFile(sealed.bytes, ours)).toMatchObject({
      status: 'sealed',
      activeContent: ['embedded_files'],
    });
    // Any other PDF carrying an original.pdf is not vouched for either.
    const other = await PDF.load(await makePdf(1));
    other.attachments.add('original.pdf', await makePdf(1), { mimeType: 'application/pdf' });
    expect(await verifyPdfFile(await other.save(), ours)).toMatchObject({
      status: 'unknown',
      activeContent: ['embedded_files'],
    });
  });
});
