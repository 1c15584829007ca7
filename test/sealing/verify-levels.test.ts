import { HttpTimestampAuthority, PDF, type RevocationProvider } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSignatureSlots } from '../../server/src/modules/sealing/find-signatures.js';
import { sealPdf } from '../../server/src/modules/sealing/seal-pdf.js';
import { verifySealedPdf } from '../../server/src/modules/sealing/verify-pdf.js';
import { startFakeTsa, type FakeTsa } from './fake-tsa.js';
import { makePdf, runOnPdf, scratchDir, sha256 } from './helpers.js';
import { makeLevelsPki, type LevelsPki } from './levels-pki.js';

// PAdES levels made the way the seal job makes them (our seal, then @libpdf/core's
// addValidationData and addTimestamp), with a CA of our own whose OCSP answers and CRL are real,
// and verified from the file alone. pdfsig checks the CAdES signatures; it cannot check
// document time stamps (ETSI.RFC3161), so `openssl ts -verify` checks those.
const scratch = scratchDir();
let pki: LevelsPki;
let tsa: FakeTsa;
let bb: Uint8Array;
let bt: Uint8Array;
let ours: { certificateFingerprints: string[] };
const sealedAt = new Date('2026-11-20T09:00:00Z');

async function seal(tsaUrl?: string): Promise<Uint8Array> {
  const original = await makePdf(2);
  const input = {
    original,
    signatures: [{ name: 'Ada', email: 'ada@example.com', signedAt: '2026-11-20T08:00:00Z' }],
    auditEntries: [],
    documentName: 'Levels',
    documentId: 'doc_levels',
    originalSha256: sha256(original),
    sandbox: false,
    certificate: pki.seal,
    sealedAt,
    tsaUrl,
  };
  return (await sealPdf(input)).bytes;
}

const withValidationData = async (bytes: Uint8Array, provider: RevocationProvider) =>
  (await (await PDF.load(bytes)).addValidationData({ revocationProvider: provider })).bytes;

const withDocumentTimestamp = async (bytes: Uint8Array, provider?: RevocationProvider) =>
  (
    await (
      await PDF.load(bytes)
    ).addTimestamp({
      timestampAuthority: new HttpTimestampAuthority(tsa.url),
      longTermValidation: provider !== undefined,
      revocationProvider: provider,
    })
  ).bytes;

function pdfsig(bytes: Uint8Array): string {
  return runOnPdf(scratch.dir, 'pdfsig', ['{}'], bytes).stdout;
}

// openssl's verdict on the document time stamp of `slot`'s ranges.
function opensslTs(bytes: Uint8Array, index: number) {
  const slot = findSignatureSlots(bytes)[index];
  const [start1, length1, start2, length2] = slot.byteRange;
  const data = Buffer.concat([
    bytes.subarray(start1, start1 + length1),
    bytes.subarray(start2, start2 + length2),
  ]);
  return pki.verifyToken(slot.cms, data);
}

beforeAll(async () => {
  pki = await makeLevelsPki(scratch.dir);
  tsa = await startFakeTsa({ identity: pki.tsa });
  ours = { certificateFingerprints: [pki.seal.fingerprint] };
  bb = await seal();
  bt = await seal(tsa.url);
}, 60_000);
afterAll(async () => {
  await tsa.close();
  scratch.cleanup();
});

describe('verification levels', () => {
  it('reports B-B with the claimed time, and B-T with the time stamp time', async () => {
    const basic = await verifySealedPdf(bb, ours);
    expect(basic).toMatchObject({
      status: 'sealed',
      level: 'B-B',
      signedAt: sealedAt.toISOString(),
      dss: { present: false, certificates: 0, ocsps: 0, crls: 0, coversChains: false },
    });
    expect(basic.signatures).toEqual([
      {
        kind: 'signature',
        fieldName: 'Signet seal',
        ours: true,
        signer: expect.stringContaining('CN=Levels seal'),
        signedAt: sealedAt.toISOString(),
        timestampedAt: null,
        valid: true,
        coversRevision: true,
        coversWholeFile: true,
      },
    ]);
    const stamped = await verifySealedPdf(bt, ours);
    expect(stamped.level).toBe('B-T');
    const time = stamped.signatures[0].timestampedAt!;
    expect(Math.abs(Date.parse(time) - Date.now())).toBeLessThan(120_000);
    expect(stamped.signedAt).toBe(time);
    expect(stamped.signatures[0].signedAt).toBe(time);
  });

  it.each(['ocsp', 'crl'] as const)(
    'reports B-LT once a DSS with %s data for both chains follows the seal',
    async (kind) => {
      const lt = await withValidationData(bt, pki.revocation(kind));
      const result = await verifySealedPdf(lt, ours);
      expect(result).toMatchObject({
        status: 'sealed',
        level: 'B-LT',
        coversWholeDocument: false,
        dss: {
          present: true,
          ocsps: kind === 'ocsp' ? 2 : 0,
          crls: kind === 'crl' ? 1 : 0,
          coversChains: true,
        },
      });
      expect(result.dss.certificates).toBeGreaterThanOrEqual(3);
      expect(result.detail).toMatch(/followed only by validation data/);
      expect(result.signatures).toHaveLength(1);
      expect(result.signatures[0]).toMatchObject({
        valid: true,
        coversRevision: true,
        coversWholeFile: false,
      });
      const sig = pdfsig(lt);
      expect(sig).toContain('Signature is Valid');
      expect(sig).toContain('Not total document signed');
    },
  );

  it('stays B-T when the DSS lacks revocation data for the chains', async () => {
    const lt = await withValidationData(bt, pki.revocation('none'));
    const result = await verifySealedPdf(lt, ours);
    expect(result).toMatchObject({
      status: 'sealed',
      level: 'B-T',
      dss: { present: true, ocsps: 0, crls: 0, coversChains: false },
    });
  });

  it('reports B-LTA with a document time stamp over the DSS, whose time it gives', async () => {
    const lta = await withDocumentTimestamp(await withValidationData(bt, pki.revocation('ocsp')));
    const result = await verifySealedPdf(lta, ours);
    expect(result).toMatchObject({ status: 'sealed', level: 'B-LTA' });
    expect(result.signatures).toHaveLength(2);
    const [signature, stamp] = result.signatures;
    expect(signature).toMatchObject({ kind: 'signature', ours: true, valid: true });
    expect(stamp).toMatchObject({
      kind: 'document_timestamp',
      fieldName: 'Timestamp_1',
      ours: false,
      signer: expect.stringContaining('CN=Levels tsa'),
      valid: true,
      coversRevision: true,
      coversWholeFile: true,
    });
    expect(stamp.signedAt).toBe(stamp.timestampedAt);
    expect(stamp.signedAt).not.toBeNull();
    // pdfsig validates the seal; openssl the document time stamp.
    expect(pdfsig(lta)).toContain('Signature is Valid');
    expect(opensslTs(lta, 1).out).toContain('Verification: OK');
  });

  it("stays B-LTA when the time stamp's own validation data follows it", async () => {
    const provider = pki.revocation('ocsp');
    const lta = await withDocumentTimestamp(await withValidationData(bt, provider), provider);
    const result = await verifySealedPdf(lta, ours);
    expect(result).toMatchObject({ status: 'sealed', level: 'B-LTA' });
    expect(result.signatures[1]).toMatchObject({ valid: true, coversWholeFile: false });
  });

  it('reports a broken document time stamp as invalid, and the level as B-LT', async () => {
    const lta = await withDocumentTimestamp(await withValidationData(bt, pki.revocation('crl')));
    const slot = findSignatureSlots(lta)[1];
    // The token's signature value ends its DER: flip its last hex digit.
    const last = slot.byteRange[1] + 1 + slot.cms.length * 2 - 1;
    const broken = lta.slice();
    broken[last] = broken[last] === 0x30 ? 0x31 : 0x30;
    const result = await verifySealedPdf(broken, ours);
    expect(result).toMatchObject({ status: 'sealed', level: 'B-LT' });
    expect(result.signatures[1]).toMatchObject({ kind: 'document_timestamp', valid: false });
    expect(opensslTs(broken, 1).out).not.toContain('Verification: OK');
  });

  it('says altered when an update adding the DSS also changes a page', async () => {
    const pdf = await PDF.load(bt);
    pdf.getPage(0)?.drawText('Added with the validation data', { x: 60, y: 100 });
    const lt = (await pdf.addValidationData({ revocationProvider: pki.revocation('ocsp') })).bytes;
    const result = await verifySealedPdf(lt, ours);
    expect(result).toMatchObject({ status: 'altered', level: null });
    expect(result.detail).toMatch(/bytes were added after the seal/);
    expect(result.signatures[0]).toMatchObject({ valid: true, coversWholeFile: false });
  });

  it('says altered when an update adding the DSS also retitles the document', async () => {
    const pdf = await PDF.load(bt);
    pdf.setTitle('Retitled with the validation data');
    const lt = (await pdf.addValidationData({ revocationProvider: pki.revocation('crl') })).bytes;
    expect(await verifySealedPdf(lt, ours)).toMatchObject({ status: 'altered', level: null });
  });

  it('says altered when a B-LTA file is changed after its document time stamp', async () => {
    const lta = await withDocumentTimestamp(await withValidationData(bt, pki.revocation('ocsp')));
    const pdf = await PDF.load(lta);
    pdf.getPage(1)?.drawText('Added after the time stamp', { x: 60, y: 100 });
    const changed = await pdf.save({ incremental: true });
    const result = await verifySealedPdf(changed, ours);
    expect(result).toMatchObject({ status: 'altered', level: null });
    expect(result.signatures.map((s) => s.valid)).toEqual([true, true]);
  });

  it('reports a document time stamp without a DSS as B-T, still sealed', async () => {
    const stamped = await withDocumentTimestamp(bt);
    const result = await verifySealedPdf(stamped, ours);
    expect(result).toMatchObject({ status: 'sealed', level: 'B-T' });
    expect(result.signatures[1]).toMatchObject({ kind: 'document_timestamp', valid: true });
  });
});
