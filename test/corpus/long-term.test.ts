// Issue 46: every real PDF of ../shared/corpus that Signet accepts, sealed at PAdES B-LTA
// against a local PKI (openssl CA, OCSP, TSA on loopback), and checked with tools we did not
// write: pdfsig (the seal and the archive time stamp valid, the archive time stamp covering the
// whole file, every earlier signature still valid), qpdf --check, and the original's pages kept.
// Sealed in this process (sealPdf), not through HTTP: corpus.test.ts covers the HTTP path.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SealCertificate } from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf } from '../../server/src/modules/sealing/seal-pdf.js';
import { startLocalPki, type LocalPki } from '../helpers/local-pki.js';
import { verifyArchiveTimestamp } from '../sealing/helpers.js';

const CORPUS = path.resolve(__dirname, '../../../shared/corpus');

type Entry = {
  file: string;
  expect: string;
  pages: number | null;
  qpdfCheck: number | null;
  signatures: number;
  signaturesValid: number;
};

const accepted: Entry[] = existsSync(path.join(CORPUS, 'manifest.json'))
  ? (
      JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { files: Entry[] }
    ).files.filter((e) => e.expect === 'accept')
  : [];

const scratch = mkdtempSync(path.join(tmpdir(), 'signet-corpus-lta-'));

function run(bytes: Uint8Array, cmd: string, args: string[]) {
  const file = path.join(scratch, `${createHash('sha1').update(bytes).digest('hex')}.pdf`);
  writeFileSync(file, bytes);
  const result = spawnSync(
    cmd,
    args.map((a) => (a === '{}' ? file : a)),
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

function signaturesOf(bytes: Uint8Array) {
  return run(bytes, 'pdfsig', ['{}'])
    .out.split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      valid: /Signature Validation: Signature is Valid/.test(block),
      wholeFile: /Total document signed/.test(block),
      timestamp: /Signet archive time stamp/.test(block),
    }));
}

describe.skipIf(accepted.length === 0)('the real-PDF corpus sealed at B-LTA', () => {
  let pki: LocalPki;
  let certificate: SealCertificate;
  beforeAll(async () => {
    pki = await startLocalPki();
    certificate = await pki.sealCertificate();
  }, 60_000);
  afterAll(async () => {
    await pki.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it.each(accepted.map((e) => [e.file, e] as const))(
    'seals %s at B-LTA, every signature valid',
    async (_, entry) => {
      const original = new Uint8Array(readFileSync(path.join(CORPUS, 'files', entry.file)));
      const sealed = await sealPdf({
        original,
        signatures: [
          { name: 'Corpus Signee', email: 'c@example.com', signedAt: new Date().toISOString() },
        ],
        auditEntries: [],
        documentName: entry.file,
        documentId: 'corpus',
        originalSha256: createHash('sha256').update(original).digest('hex'),
        sandbox: false,
        certificate,
        tsaUrl: pki.tsa.url,
        level: 'B-LTA',
      });
      expect(sealed.level).toBe('B-LTA');
      expect(sealed.mode).toBe(entry.signatures > 0 ? 'incremental' : 'normalised');

      const signatures = signaturesOf(sealed.bytes);
      const [seal, archive] = signatures.slice(-2);
      expect(seal).toMatchObject({ valid: true, timestamp: false });
      // pdfsig cannot check a document time stamp: openssl does.
      expect(archive).toMatchObject({ wholeFile: true, timestamp: true });
      expect(verifyArchiveTimestamp(scratch, sealed.bytes, pki.files)).toContain(
        'Verification: OK',
      );
      const before = signaturesOf(original).filter((s) => s.valid).length;
      expect(signatures.slice(0, -2).filter((s) => s.valid).length).toBe(before);

      const pages = Number(/^Pages:\s+(\d+)/m.exec(run(sealed.bytes, 'pdfinfo', ['{}']).out)?.[1]);
      expect(pages).toBeGreaterThan(entry.pages!);
      const check = run(sealed.bytes, 'qpdf', ['--check', '{}']);
      expect(entry.qpdfCheck === 3 ? [0, 3] : [0], check.out).toContain(check.status);
    },
    120_000,
  );
});
