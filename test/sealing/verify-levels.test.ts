import { HttpTimestampAuthority, PDF, PdfName, type RevocationProvider } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSignatureSlots } from '../../server/src/modules/sealing/find-signatures.js';
import {
  createRevocationSource,
  forgetRevocationAnswers,
} from '../../server/src/modules/sealing/revocation.js';
import type { SealCertificate } from '../../server/src/modules/sealing/seal-certificate.js';
import { ARCHIVE_TIMESTAMP_FIELD } from '../../server/src/modules/sealing/seal-levels.js';
import { sealPdf } from '../../server/src/modules/sealing/seal-pdf.js';
import type { SealLevel } from '../../server/src/modules/sealing/seal-types.js';
import { verifySealedPdf } from '../../server/src/modules/sealing/verify-pdf.js';
import { startLocalPki, type LocalPki } from '../helpers/local-pki.js';
import { makePdf, runOnPdf, scratchDir, sha256, verifyArchiveTimestamp } from './helpers.js';

// PAdES levels as the seal job makes them (sealPdf at B-B, B-T, B-LT and B-LTA) against the
// local PKI (test/helpers/local-pki.ts: root and intermediate CAs, a real OCSP responder, CRLs
// and an RFC 3161 TSA on loopback), and the files it does not make (a DSS update that also
// changes the document, a broken document time stamp, a change after it) built from those with
// @libpdf/core and a real revocation source; each verified from the file alone. pdfsig checks
// the CAdES signatures; it cannot check document time stamps (ETSI.RFC3161), so `openssl ts
// -verify` checks those.
const scratch = scratchDir();
let pki: LocalPki;
let certificate: SealCertificate;
let ours: { certificateFingerprints: string[] };
let bb: Uint8Array;
let bt: Uint8Array;
let lta: Uint8Array;
const sealedAt = new Date('2026-11-20T09:00:00Z');

async function seal(level: SealLevel): Promise<Uint8Array> {
  const original = await makePdf(2);
  const sealed = await sealPdf({
    original,
    signatures: [{ name: 'Ada', email: 'ada@example.com', signedAt: '2026-11-20T08:00:00Z' }],
    auditEntries: [],
    documentName: 'Levels',
    documentId: 'doc_levels',
    originalSha256: sha256(original),
    sandbox: false,
    certificate,
    sealedAt,
    tsaUrl: level === 'B-B' ? undefined : pki.tsa.url,
    level,
  });
  expect(sealed.level).toBe(level);
  return sealed.bytes;
}

// What the seal job fetches revocation data with, for the certificates named (by default the
// seal's and the TSA's chains); it gives null for any other.
function revocation(
  names: (keyof LocalPki['certificates'])[] = ['seal', 'intermediate', 'root', 'tsa'],
): RevocationProvider {
  const source = createRevocationSource();
  source.allow(names.map((name) => pki.certificates[name]));
  return source;
}

// With the PKI's OCSP responder and CRL server down (`services`), and nothing cached from
// them: the revocation data that `make` fetches is what is still up.
async function without<T>(services: ('ocsp' | 'crl')[], make: () => Promise<T>): Promise<T> {
  forgetRevocationAnswers();
  for (const service of services) await pki[service].stop();
  try {
    return await make();
  } finally {
    for (const service of services) await pki[service].start();
    forgetRevocationAnswers();
  }
}

const withValidationData = async (bytes: Uint8Array, provider: RevocationProvider) =>
  (await (await PDF.load(bytes)).addValidationData({ revocationProvider: provider })).bytes;

const withDocumentTimestamp = async (bytes: Uint8Array, provider?: RevocationProvider) =>
  (
    await (
      await PDF.load(bytes)
    ).addTimestamp({
      timestampAuthority: new HttpTimestampAuthority(pki.tsa.url),
      longTermValidation: provider !== undefined,
      revocationProvider: provider,
    })
  ).bytes;

function pdfsig(bytes: Uint8Array): string {
  return runOnPdf(scratch.dir, 'pdfsig', ['{}'], bytes).stdout;
}

// openssl's verdict on the file's last signature, a document time stamp, trusting the PKI.
const opensslTs = (bytes: Uint8Array) => verifyArchiveTimestamp(scratch.dir, bytes, pki.files);

beforeAll(async () => {
  pki = await startLocalPki();
  certificate = await pki.sealCertificate();
  ours = { certificateFingerprints: [certificate.fingerprint] };
  bb = await seal('B-B');
  bt = await seal('B-T');
  lta = await seal('B-LTA');
}, 60_000);
afterAll(async () => {
  await pki.close();
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
        signer: expect.stringContaining('CN=Signet Test Seal'),
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

  // The chains are seal → intermediate → root and TSA → intermediate → root: the seal, the
  // TSA and the intermediate need revocation data (the root, a trust anchor, none). With the
  // OCSP responder up that is three OCSP responses; with it down, the intermediate's CRL
  // (for the seal and the TSA) and the root's (for the intermediate).
  it.each([
    { kind: 'ocsp', down: [], ocsps: 3, crls: 0 },
    { kind: 'crl', down: ['ocsp'], ocsps: 0, crls: 2 },
  ] as const)(
    'reports B-LT once a DSS with $kind data for both chains follows the seal',
    async ({ down, ocsps, crls }) => {
      const lt = await without([...down], () => seal('B-LT'));
      const result = await verifySealedPdf(lt, ours);
      expect(result).toMatchObject({
        status: 'sealed',
        level: 'B-LT',
        coversWholeDocument: false,
        dss: { present: true, ocsps, crls, coversChains: true },
      });
      expect(result.dss.certificates).toBeGreaterThanOrEqual(4);
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
    const lt = await without(['ocsp', 'crl'], () => withValidationData(bt, revocation()));
    const result = await verifySealedPdf(lt, ours);
    expect(result).toMatchObject({
      status: 'sealed',
      level: 'B-T',
      dss: { present: true, ocsps: 0, crls: 0, coversChains: false },
    });
    expect(result.dss.certificates).toBeGreaterThanOrEqual(4);
  });

  // Every certificate of both chains needs its data, not only the seal's chain or the leaves.
  it.each([
    { lacking: "the TSA's certificate", names: ['seal', 'intermediate', 'root'] },
    { lacking: 'the intermediate CA', names: ['seal', 'tsa'] },
  ] as const)('stays B-T when the DSS lacks revocation data for $lacking', async ({ names }) => {
    const lt = await withValidationData(bt, revocation([...names]));
    const result = await verifySealedPdf(lt, ours);
    expect(result).toMatchObject({
      status: 'sealed',
      level: 'B-T',
      dss: { present: true, ocsps: 2, crls: 0, coversChains: false },
    });
  });

  it('reports B-LTA with a document time stamp over the DSS, whose time it gives', async () => {
    const result = await verifySealedPdf(lta, ours);
    expect(result).toMatchObject({
      status: 'sealed',
      level: 'B-LTA',
      dss: { present: true, coversChains: true },
    });
    expect(result.signatures).toHaveLength(2);
    const [signature, stamp] = result.signatures;
    expect(signature).toMatchObject({ kind: 'signature', ours: true, valid: true });
    expect(stamp).toMatchObject({
      kind: 'document_timestamp',
      fieldName: ARCHIVE_TIMESTAMP_FIELD,
      ours: false,
      signer: expect.stringContaining('CN=Signet Test TSA'),
      valid: true,
      coversRevision: true,
      coversWholeFile: true,
    });
    expect(stamp.signedAt).toBe(stamp.timestampedAt);
    expect(stamp.signedAt).not.toBeNull();
    // pdfsig validates the seal; openssl the document time stamp.
    expect(pdfsig(lta)).toContain('Signature is Valid');
    expect(opensslTs(lta)).toContain('Verification: OK');
  });

  it("stays B-LTA when the time stamp's own validation data follows it", async () => {
    const provider = revocation();
    const lt = await seal('B-LT');
    const stamped = await withDocumentTimestamp(lt, provider);
    const result = await verifySealedPdf(stamped, ours);
    expect(result).toMatchObject({ status: 'sealed', level: 'B-LTA' });
    expect(result.signatures[1]).toMatchObject({
      kind: 'document_timestamp',
      valid: true,
      coversWholeFile: false,
    });
    expect(opensslTs(stamped)).toContain('Verification: OK');
  });

  it('reports a broken document time stamp as invalid, and the level as B-LT', async () => {
    const slot = findSignatureSlots(lta)[1];
    // The token's signature value ends its DER: flip its last hex digit.
    const last = slot.byteRange[1] + 1 + slot.cms.length * 2 - 1;
    const broken = lta.slice();
    broken[last] = broken[last] === 0x30 ? 0x31 : 0x30;
    const result = await verifySealedPdf(broken, ours);
    expect(result).toMatchObject({ status: 'sealed', level: 'B-LT' });
    expect(result.signatures[1]).toMatchObject({ kind: 'document_timestamp', valid: false });
    expect(opensslTs(lta)).toContain('Verification: OK');
    expect(opensslTs(broken)).not.toContain('Verification: OK');
  });

  it('says altered when an update adding the DSS also changes a page', async () => {
    const pdf = await PDF.load(bt);
    pdf.getPage(0)?.drawText('Added with the validation data', { x: 60, y: 100 });
    const lt = (await pdf.addValidationData({ revocationProvider: revocation() })).bytes;
    // The same update without the page change is B-LT: the change alone makes it altered.
    expect(await verifySealedPdf(await withValidationData(bt, revocation()), ours)).toMatchObject({
      status: 'sealed',
      level: 'B-LT',
    });
    const result = await verifySealedPdf(lt, ours);
    expect(result).toMatchObject({ status: 'altered', level: null, dss: { ocsps: 3 } });
    expect(result.detail).toMatch(/bytes were added after the seal/);
    expect(result.signatures[0]).toMatchObject({ valid: true, coversWholeFile: false });
  });

  it.each([
    { change: 'retitles the document', make: (pdf: PDF) => pdf.setTitle('Retitled') },
    {
      change: 'changes the catalog',
      make: (pdf: PDF) => pdf.getCatalog().set('PageMode', PdfName.of('FullScreen')),
    },
  ])('says altered when an update adding the DSS also $change', async ({ make }) => {
    const pdf = await PDF.load(bt);
    make(pdf);
    const lt = await without(['ocsp'], async () => {
      return (await pdf.addValidationData({ revocationProvider: revocation() })).bytes;
    });
    expect(await verifySealedPdf(lt, ours)).toMatchObject({
      status: 'altered',
      level: null,
      dss: { ocsps: 0, crls: 2 },
    });
  });

  it('stays B-LT when the document time stamp covers a DSS that lacked revocation data', async () => {
    const incomplete = await without(['ocsp', 'crl'], () => withValidationData(bt, revocation()));
    const completed = await withValidationData(
      await withDocumentTimestamp(incomplete),
      revocation(),
    );
    const result = await verifySealedPdf(completed, ours);
    expect(result).toMatchObject({ status: 'sealed', level: 'B-LT', dss: { coversChains: true } });
    expect(result.signatures[1]).toMatchObject({
      kind: 'document_timestamp',
      valid: true,
      coversWholeFile: false,
    });
  });

  it('says altered when a B-LTA file is changed after its document time stamp', async () => {
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
    expect(opensslTs(stamped)).toContain('Verification: OK');
  });
});
