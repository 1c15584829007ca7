import { P12Signer, PDF, PdfArray, PdfDict, PdfName, PdfNumber, PdfRef } from '@libpdf/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createSelfSignedP12,
  loadOrCreateSealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf } from '../../server/src/modules/sealing/seal-pdf.js';
import { verifySealedPdf } from '../../server/src/modules/sealing/verify-pdf.js';
import { makePdf, runOnPdf, scratchDir, sha256 } from './helpers.js';

// A signed original that cannot be appended to (its cross-references must be rebuilt) is
// rewritten: its signatures cannot survive that, so they go, rather than stay as dictionaries
// whose /ByteRange points past the end of the rewritten file.
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

// 2 KiB of a mail footer after %%EOF: readers no longer find startxref and rebuild the
// cross-references by scanning the objects; a signature stays valid for its revision.
async function damage(bytes: Uint8Array): Promise<Uint8Array> {
  const footer = Buffer.from('<p>Sent from my phone</p>\n'.repeat(80));
  const damaged = new Uint8Array(Buffer.concat([bytes, footer]));
  expect((await PDF.load(damaged)).recoveredViaBruteForce).toBe(true);
  return damaged;
}

async function seal(damaged: Uint8Array) {
  const certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
  const sealed = await sealPdf({
    original: damaged,
    signatures: [{ name: 'Ada', email: 'ada@example.com', signedAt: '2026-11-01T10:00:00Z' }],
    auditEntries: [],
    documentName: 'Repaired',
    documentId: 'doc_repaired',
    originalSha256: sha256(damaged),
    sandbox: false,
    certificate,
  });
  expect(sealed.mode).toBe('normalised');
  return { sealed, certificate };
}

const foreignSigned = async () => {
  const foreign = await P12Signer.create(createSelfSignedP12('Third Party', 'pw'), 'pw');
  return (await (await PDF.load(await makePdf(2))).sign({ signer: foreign })).bytes;
};

describe('sealing a signed original that had to be repaired', () => {
  it('keeps only our seal, which pdfsig finds valid, with no ByteRange error', async () => {
    const signed = await foreignSigned();
    expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], signed).stdout).toContain('Signature is Valid');
    const { sealed, certificate } = await seal(await damage(signed));
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed.bytes);
    expect(`${pdfsig.stdout}${pdfsig.stderr}`).not.toMatch(/ByteRange/i);
    expect(pdfsig.stdout.match(/^Signature #\d+:/gm)).toHaveLength(1);
    expect(pdfsig.stdout).toContain('Signature Field Name: Signet seal');
    expect(pdfsig.stdout).toMatch(/Total document signed[\s\S]*Signature is Valid/);
    expect(pdfsig.stdout).not.toContain('Third Party');

    // No field of theirs is left; the sealed pages are the original's and ours.
    const pdf = await PDF.load(sealed.bytes);
    expect((pdf.getForm()?.getFields() ?? []).map((f) => f.name)).toEqual(['Signet seal']);
    expect(
      (await verifySealedPdf(sealed.bytes, { certificateFingerprints: [certificate.fingerprint] }))
        .signatures,
    ).toHaveLength(1);
  });

  it("keeps a visible signature's appearance as a locked stamp, not a field", async () => {
    const pdf = await PDF.load(await foreignSigned());
    const field = pdf.getForm()!.getFields()[0];
    const widget = field.getWidgets()[0];
    const appearance = pdf.createStream(
      {
        Type: PdfName.of('XObject'),
        Subtype: PdfName.of('Form'),
        BBox: new PdfArray([0, 0, 200, 50].map((n) => PdfNumber.of(n))),
      },
      new TextEncoder().encode('0 0 1 rg 0 0 200 50 re f'),
    );
    widget.dict.set('Rect', new PdfArray([50, 50, 250, 100].map((n) => PdfNumber.of(n))));
    widget.dict.set('AP', PdfDict.of({ N: pdf.context.registry.register(appearance) }));
    const { sealed } = await seal(await damage(await pdf.save({ incremental: true })));
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed.bytes).stdout;
    expect(pdfsig.match(/^Signature #\d+:/gm)).toHaveLength(1);
    const result = await PDF.load(sealed.bytes);
    const annots = result.getPage(0)!.dict.get('Annots');
    const list = annots instanceof PdfRef ? result.getObject(annots) : annots;
    const stamps = (list as PdfArray)
      .toArray()
      .map((entry) => (entry instanceof PdfRef ? result.getObject(entry) : entry))
      .filter((a): a is PdfDict => a instanceof PdfDict && a.getName('Subtype')?.value === 'Stamp');
    expect(stamps).toHaveLength(1);
    expect(stamps[0].getNumber('F')?.value).toBe(708);
    expect(stamps[0].has('AP')).toBe(true);
    expect(stamps[0].has('FT')).toBe(false);
  });
});
