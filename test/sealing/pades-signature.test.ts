import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { P12Signer, PDF } from '@libpdf/core';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSignatureSlots } from '../../server/src/modules/sealing/find-signatures.js';
import { signPdf } from '../../server/src/modules/sealing/pades-signature.js';
import { loadOrCreateSealCertificate } from '../../server/src/modules/sealing/seal-certificate.js';
import { makePdf, openssl, runOnPdf, scratchDir } from './helpers.js';

// signPdf makes the signature @libpdf/core's pdf.sign() makes, without its per-signature
// certificate parsing: for the same file, time and key the two files agree byte for byte
// outside the signature's /Contents, and the CMS inside it agrees element for element but for
// two deliberate differences, so its signature value differs too: no signing-time attribute
// among the signed attributes (PAdES baseline forbids it; the time is the dictionary's /M), and
// NULL parameters in the SignerInfo's sha256WithRSAEncryption, as in the algorithm-protection
// attribute (the library leaves them out there).
const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const signingTime = new Date('2026-11-26T21:30:00.000Z');
const options = {
  fieldName: 'Signet seal',
  reason: 'Sealed by Signet after all signatures were collected',
  signingTime,
};

async function bothWays(original: Uint8Array, signer: P12Signer, fieldName = options.fieldName) {
  const library = await (
    await PDF.load(original)
  ).sign({
    ...options,
    fieldName,
    signer,
    subFilter: 'ETSI.CAdES.detached',
    level: 'B-B',
    estimatedSize: 12_288,
  });
  const ours = await signPdf(await PDF.load(original), {
    ...options,
    fieldName,
    signer,
    reservedBytes: 12_288,
  });
  return { library: Buffer.from(library.bytes), ours: Buffer.from(ours) };
}

const SIGNING_TIME = '1.2.840.113549.1.9.5';

function signerInfoOf(cms: Uint8Array) {
  const signedData = new pkijs.SignedData({
    schema: pkijs.ContentInfo.fromBER(Uint8Array.from(cms)).content,
  });
  return { signedData, signerInfo: signedData.signerInfos[0] };
}

const hexOf = (element: { toSchema: () => asn1js.AsnType } | asn1js.AsnType) =>
  Buffer.from(('toSchema' in element ? element.toSchema() : element).toBER(false)).toString('hex');

/** The two files agree but for the deliberate differences (see the comment at the top). */
function expectSameButDeliberate(library: Buffer, ours: Buffer) {
  const librarySlot = findSignatureSlots(library).at(-1)!;
  const ourSlot = findSignatureSlots(ours).at(-1)!;
  expect(ourSlot.byteRange).toEqual(librarySlot.byteRange);
  const [, gapStart, gapEnd] = ourSlot.byteRange;
  expect(ours.subarray(0, gapStart).equals(library.subarray(0, gapStart))).toBe(true);
  expect(ours.subarray(gapEnd).equals(library.subarray(gapEnd))).toBe(true);

  const theirs = signerInfoOf(librarySlot.cms);
  const mine = signerInfoOf(ourSlot.cms);
  const { signedData: a, signerInfo: x } = theirs;
  const { signedData: b, signerInfo: y } = mine;
  expect(b.version).toBe(a.version);
  expect(b.digestAlgorithms.map(hexOf)).toEqual(a.digestAlgorithms.map(hexOf));
  expect(hexOf(b.encapContentInfo)).toBe(hexOf(a.encapContentInfo));
  expect((b.certificates ?? []).map((c) => hexOf(c as pkijs.Certificate))).toEqual(
    (a.certificates ?? []).map((c) => hexOf(c as pkijs.Certificate)),
  );
  expect(b.signerInfos).toHaveLength(1);
  expect(y.version).toBe(x.version);
  expect(hexOf(y.sid as pkijs.IssuerAndSerialNumber)).toBe(
    hexOf(x.sid as pkijs.IssuerAndSerialNumber),
  );
  expect(hexOf(y.digestAlgorithm)).toBe(hexOf(x.digestAlgorithm));
  // The library's signed attributes less its signing-time, in the same order, are ours.
  const libraryAttributes = x.signedAttrs!.attributes;
  expect(libraryAttributes.map((a) => a.type)).toContain(SIGNING_TIME);
  expect(y.signedAttrs!.attributes.map(hexOf)).toEqual(
    libraryAttributes.filter((a) => a.type !== SIGNING_TIME).map(hexOf),
  );
  expect(y.signatureAlgorithm.algorithmId).toBe(x.signatureAlgorithm.algorithmId);
  expect(x.signatureAlgorithm.algorithmParams).toBeUndefined();
  expect(y.signatureAlgorithm.algorithmParams).toBeInstanceOf(asn1js.Null);
  expect(y.unsignedAttrs).toBe(x.unsignedAttrs);
}

/** What `openssl cms -verify` says of the file's last signature over its byte ranges. */
function opensslVerifies(dir: string, bytes: Uint8Array): { status: number | null; out: string } {
  const slot = findSignatureSlots(bytes).at(-1)!;
  const [start1, length1, start2, length2] = slot.byteRange;
  const content = Buffer.concat([
    bytes.subarray(start1, start1 + length1),
    bytes.subarray(start2, start2 + length2),
  ]);
  writeFileSync(join(dir, 'content.bin'), content);
  writeFileSync(join(dir, 'signature.der'), slot.cms);
  const result = spawnSync(
    'openssl',
    ['cms', '-verify', '-binary', '-inform', 'DER', '-in', 'signature.der', '-content'].concat([
      'content.bin',
      '-noverify',
      '-out',
      '/dev/null',
    ]),
    { cwd: dir, encoding: 'utf8' },
  );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

// A leaf certificate issued by a CA of our own, in a P12 that carries the CA as its chain.
function chainedP12(dir: string): { p12: Uint8Array; password: string } {
  const run = (command: string, ...rest: string[]) =>
    openssl(dir, [...command.split(' '), ...rest]);
  run(
    'req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 30',
    '-subj',
    '/CN=Acme Root CA/O=Acme',
  );
  run(
    'req -newkey rsa:2048 -nodes -keyout leaf.key -out leaf.csr',
    '-subj',
    '/CN=Acme Seal/O=Acme',
  );
  run(
    'x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -set_serial 0x00c0ffee1234567890 -days 30 -out leaf.pem',
  );
  run(
    'pkcs12 -export -inkey leaf.key -in leaf.pem -certfile ca.pem -out seal.p12 -passout pass:s3cret',
  );
  return { p12: new Uint8Array(readFileSync(join(dir, 'seal.p12'))), password: 's3cret' };
}

describe('signPdf', () => {
  let sandboxSigner: P12Signer;
  beforeAll(async () => {
    const certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
    sandboxSigner = await P12Signer.create(certificate.p12, certificate.password);
  });

  it("writes the bytes @libpdf/core's sign() writes but for the deliberate differences, valid in pdfsig", async () => {
    const { library, ours } = await bothWays(await makePdf(3), sandboxSigner);
    expectSameButDeliberate(library, ours);
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], ours).stdout;
    expect(pdfsig).toContain('Signature is Valid');
    expect(pdfsig).toContain('Total document signed');
  });

  it('signs after an earlier signature, leaving it valid, as the library does', async () => {
    const once = await signPdf(await PDF.load(await makePdf(1)), {
      ...options,
      signer: sandboxSigner,
      reservedBytes: 12_288,
    });
    const { library, ours } = await bothWays(once, sandboxSigner, 'Signet seal 2');
    expectSameButDeliberate(library, ours);
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], ours).stdout;
    expect(pdfsig.match(/Signature is Valid/g)).toHaveLength(2);
  });

  it("carries the P12's chain, the signer's issuer and a long serial number as the library does", async () => {
    const { p12, password } = chainedP12(scratch.dir);
    const signer = await P12Signer.create(p12, password);
    expect(signer.certificateChain?.length).toBe(1);
    const { library, ours } = await bothWays(await makePdf(2), signer);
    expectSameButDeliberate(library, ours);
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], ours);
    expect(pdfsig.stdout).toContain('Signature is Valid');
    expect(pdfsig.stdout).toContain('Acme Seal');
  });

  it('makes a CMS that openssl cms -verify accepts, without a signing-time attribute', async () => {
    const signed = await signPdf(await PDF.load(await makePdf(1)), {
      ...options,
      signer: sandboxSigner,
      reservedBytes: 12_288,
    });
    const verified = opensslVerifies(scratch.dir, signed);
    expect(verified.out).toContain('Verification successful');
    expect(verified.status).toBe(0);
    const { signerInfo } = signerInfoOf(findSignatureSlots(signed)[0].cms);
    const types = signerInfo.signedAttrs!.attributes.map((a) => a.type);
    expect(types).toContain('1.2.840.113549.1.9.4');
    expect(types).not.toContain(SIGNING_TIME);
    // The time is the dictionary's: pdfsig reads it from /M.
    expect(Buffer.from(signed).toString('latin1')).toContain('/M (D:20261126213000Z)');
    expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], signed).stdout).toContain('Nov 26 2026');
  });

  it('refuses a signature larger than the room reserved for it, writing nothing', async () => {
    await expect(
      signPdf(await PDF.load(await makePdf(1)), {
        ...options,
        signer: sandboxSigner,
        reservedBytes: 200,
      }),
    ).rejects.toThrow(/needs \d+ bytes, 200 were reserved/);
  });
});
