import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { P12Signer, PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSelfSignedP12,
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf, type Sealed } from '../../server/src/modules/sealing/seal-pdf.js';
import { makePdf, runOnPdf, scratchDir, sha256 } from './helpers.js';

// Signed originals with permissions-only encryption (they open without a password) are sealed
// as an incremental update that keeps their encryption: patches/@libpdf+core+0.4.2.patch
// (docs/upstream/libpdf-core.md) makes @libpdf/core write the seal's /Contents in clear, reuse
// the original /Encrypt, write /EncryptMetadata as a boolean and not re-write the objects it
// only decrypted. Each file here is made by the test: qpdf encrypts, the library signs.
const scratch = scratchDir();
let certificate: SealCertificate;
let signer: P12Signer;

beforeAll(async () => {
  certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
  signer = await P12Signer.create(createSelfSignedP12('Ada Lovelace', 'throwaway'), 'throwaway');
});
afterAll(() => scratch.cleanup());

// `qpdf --encrypt "" owner …`: no user password, so it opens without one.
async function encryptedPdf(name: string, encryption: string[]): Promise<Uint8Array> {
  const plain = join(scratch.dir, `${name}-plain.pdf`);
  const encrypted = join(scratch.dir, `${name}.pdf`);
  writeFileSync(plain, await makePdf(1));
  const result = spawnSync('qpdf', [...encryption, '--', plain, encrypted], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`qpdf --encrypt failed: ${result.stderr}`);
  return new Uint8Array(readFileSync(encrypted));
}

// An earlier signature made by the library's own pdf.sign, kept encrypted (incremental).
async function signedByLibrary(original: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDF.load(original);
  const signed = await pdf.sign({
    signer,
    fieldName: 'Ada Lovelace',
    subFilter: 'ETSI.CAdES.detached',
    level: 'B-B',
  });
  return signed.bytes;
}

function seal(original: Uint8Array): Promise<Sealed> {
  return sealPdf({
    original,
    signatures: [
      {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        signedAt: '2024-05-01T10:00:00.000Z',
        typedName: 'Ada Lovelace',
      },
    ],
    auditEntries: [],
    documentName: 'Service agreement',
    documentId: 'doc_encrypted',
    originalSha256: sha256(original),
    sandbox: false,
    certificate,
  });
}

function tool(command: string, args: string[], bytes: Uint8Array) {
  return runOnPdf(scratch.dir, command, args, bytes);
}

// The last signature's /Contents as written in the file: `<` hex `>`, at ByteRange's gap.
function lastSignatureContents(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString('latin1');
  const byteRange = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  const ranges = [...text.matchAll(byteRange)].at(-1);
  if (!ranges) throw new Error('no /ByteRange');
  return text.slice(Number(ranges[2]), Number(ranges[3]));
}

const ENCRYPTIONS: Array<[string, string[]]> = [
  ['AES-128', ['--encrypt', '', 'owner', '128', '--use-aes=y']],
  ['AES-256', ['--encrypt', '', 'owner', '256']],
  ['RC4-128', ['--allow-weak-crypto', '--encrypt', '', 'owner', '128', '--use-aes=n']],
  [
    'AES-128 with cleartext metadata',
    ['--encrypt', '', 'owner', '128', '--use-aes=y', '--cleartext-metadata'],
  ],
];

describe.each(ENCRYPTIONS)('a signed original encrypted with %s', (name, encryption) => {
  let encrypted: Uint8Array;
  let original: Uint8Array;
  let sealed: Sealed;
  beforeAll(async () => {
    encrypted = await encryptedPdf(name.replace(/\W+/g, '-'), encryption);
    original = await signedByLibrary(encrypted);
    sealed = await seal(original);
  });

  it('is signed by the library with its encryption kept, its signature over the whole file', () => {
    expect(tool('qpdf', ['--show-encryption', '{}'], original).stdout).toBe(
      tool('qpdf', ['--show-encryption', '{}'], encrypted).stdout,
    );
    const pdfsig = tool('pdfsig', ['{}'], original).stdout;
    expect(pdfsig).toContain('Signature is Valid');
    expect(pdfsig).toContain('Total document signed');
  });

  it('is sealed in place, after its bytes', () => {
    expect(sealed.mode).toBe('incremental');
    const prefix = Buffer.from(sealed.bytes.subarray(0, original.length));
    expect(prefix.equals(Buffer.from(original))).toBe(true);
  });

  it("leaves the seal's /Contents unencrypted: the CMS, then zeros", () => {
    expect(lastSignatureContents(sealed.bytes)).toMatch(/^<30[0-9A-F]+?0{64,}>$/);
  });

  it('has every signature valid in pdfsig, the seal over the whole file', () => {
    const pdfsig = tool('pdfsig', ['{}'], sealed.bytes);
    expect(pdfsig.stderr).toBe('');
    expect(pdfsig.stdout.match(/Signature is Valid/g)).toHaveLength(2);
    const [, earlier, seal] = pdfsig.stdout.split(/^Signature #\d+:$/m);
    expect(earlier).toContain('Field Name: Ada Lovelace');
    expect(seal).toContain('Field Name: Signet seal');
    expect(seal).toContain('Total document signed');
  });

  it('opens in qpdf without a password, its encryption unchanged', () => {
    const check = tool('qpdf', ['--check', '{}'], sealed.bytes);
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('No syntax or stream encoding errors found');
    expect(tool('qpdf', ['--show-encryption', '{}'], sealed.bytes).stdout).toBe(
      tool('qpdf', ['--show-encryption', '{}'], encrypted).stdout,
    );
  });

  it('keeps the original encryption dictionary: the update writes none and names the same', () => {
    const update = Buffer.from(sealed.bytes.subarray(original.length)).toString('latin1');
    expect(update).not.toContain('/Standard');
    const encryptRefs = (text: string) =>
      [...text.matchAll(/\/Encrypt\s+(\d+ \d+) R/g)].map((m) => m[1]);
    const originalRef = encryptRefs(Buffer.from(encrypted).toString('latin1')).at(-1);
    expect(originalRef).toBeDefined();
    expect(new Set(encryptRefs(update))).toEqual(new Set([originalRef]));
  });

  it('does not re-write the objects it only read: the document information stays where it was', () => {
    const text = Buffer.from(sealed.bytes).toString('latin1');
    const info = /\/Info\s+(\d+) (\d+) R/.exec(text);
    expect(info).not.toBeNull();
    const update = text.slice(encrypted.length);
    expect(update).not.toMatch(new RegExp(`(^|\\s)${info![1]} ${info![2]} obj`));
  });
});

describe('@libpdf/core saving an encrypted file', () => {
  it('adds nothing to an unchanged file it read', async () => {
    const encrypted = await encryptedPdf('unchanged', ['--encrypt', '', 'owner', '256']);
    const pdf = await PDF.load(encrypted);
    expect(pdf.getPages()).toHaveLength(1);
    expect(pdf.getForm()).toBeNull();
    const saved = await pdf.save({ incremental: true });
    expect(Buffer.from(saved).equals(Buffer.from(encrypted))).toBe(true);
  });

  it('rewrites a file with cleartext metadata so that it still opens without a password', async () => {
    const encrypted = await encryptedPdf('rewritten', [
      '--encrypt',
      '',
      'owner',
      '128',
      '--use-aes=y',
      '--cleartext-metadata',
    ]);
    const pdf = await PDF.load(encrypted);
    pdf.getPage(0)!.drawText('Rewritten', { x: 60, y: 700, size: 12 });
    const rewritten = await pdf.save({ incremental: false });
    // A full save writes the encryption dictionary anew: /EncryptMetadata is a boolean.
    expect(Buffer.from(rewritten).toString('latin1')).toMatch(/\/EncryptMetadata false/);
    const check = tool('qpdf', ['--check', '{}'], rewritten);
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    expect(tool('qpdf', ['--show-encryption', '{}'], rewritten).stdout).toBe(
      tool('qpdf', ['--show-encryption', '{}'], encrypted).stdout,
    );
    expect(tool('pdftotext', ['{}', '-'], rewritten).stdout).toContain('Rewritten');
  });
});
