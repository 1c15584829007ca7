import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { P12Signer, PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPdf } from '../../server/src/modules/sealing/pades-signature.js';
import { loadOrCreateSealCertificate } from '../../server/src/modules/sealing/seal-certificate.js';
import { makePdf, openssl, runOnPdf, scratchDir } from './helpers.js';

// signPdf makes the signature @libpdf/core's pdf.sign() makes, without its per-signature
// certificate parsing: an RSA PKCS #1 v1.5 signature is deterministic, so for the same file,
// time and key the two must agree byte for byte, CMS included.
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

  it("writes the very bytes @libpdf/core's sign() writes, valid in pdfsig", async () => {
    const { library, ours } = await bothWays(await makePdf(3), sandboxSigner);
    expect(ours.equals(library)).toBe(true);
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
    expect(ours.equals(library)).toBe(true);
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], ours).stdout;
    expect(pdfsig.match(/Signature is Valid/g)).toHaveLength(2);
  });

  it("carries the P12's chain, the signer's issuer and a long serial number as the library does", async () => {
    const { p12, password } = chainedP12(scratch.dir);
    const signer = await P12Signer.create(p12, password);
    expect(signer.certificateChain?.length).toBe(1);
    const { library, ours } = await bothWays(await makePdf(2), signer);
    expect(ours.equals(library)).toBe(true);
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], ours);
    expect(pdfsig.stdout).toContain('Signature is Valid');
    expect(pdfsig.stdout).toContain('Acme Seal');
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
