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

// Originals whose last cross-reference section does not lead to the catalog, as some writers
// leave them (an update's trailer without /Root; a linearized file read from its main section):
// @libpdf/core 0.4.2 refused them ("Document has no catalog") and they were sealed attached.
// patches/@libpdf+core+0.4.2.patch (docs/upstream/libpdf-core.md) makes the library take
// /Root, /Info, /ID and /Encrypt from the earlier sections and read a linearized file's
// first-page section. Each file is made here, with the library and qpdf.
const scratch = scratchDir();
let certificate: SealCertificate;

beforeAll(async () => {
  certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
});
afterAll(() => scratch.cleanup());

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

// An original with cross-reference streams, as Acrobat writes them.
async function xrefStreamPdf(): Promise<Uint8Array> {
  const pdf = PDF.create();
  pdf.addPage({ size: 'a4' }).drawText('Original page 1 of the contract', { x: 60, y: 760 });
  return pdf.save({ useXRefStream: true });
}

// An incremental update (a new title) whose cross-reference stream names no /Root: the
// trailer entries are only in the section its /Prev leads to. The entry is blanked in place,
// so every offset stays right.
async function updateWithoutRoot(original: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDF.load(original);
  pdf.setTitle('Updated');
  const updated = Buffer.from(await pdf.save({ incremental: true }));
  const text = latin1(updated);
  const dict = text.lastIndexOf('/Type /XRef');
  expect(dict).toBeGreaterThan(original.length);
  const root = /\/Root \d+ \d+ R/.exec(text.slice(dict));
  if (!root) throw new Error('the update names no /Root');
  updated.fill(' ', dict + root.index, dict + root.index + root[0].length);
  return new Uint8Array(updated);
}

// qpdf linearizes with cross-reference streams: the first-page section (after the
// linearization dictionary, holding /Root) and the main one (only /Size), which its /Prev names.
function linearized(original: Uint8Array) {
  const input = join(scratch.dir, `${sha256(original)}.pdf`);
  const output = join(scratch.dir, `${sha256(original)}-linearized.pdf`);
  writeFileSync(input, original);
  const args = ['--linearize', '--object-streams=generate', input, output];
  const result = spawnSync('qpdf', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`qpdf --linearize failed: ${result.stderr}`);
  const bytes = new Uint8Array(readFileSync(output));
  const text = latin1(bytes);
  const firstPage = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  const main = Number(/\/Prev (\d+)/.exec(text.slice(firstPage))?.[1]);
  expect(latin1(bytes.subarray(main, main + 20))).toMatch(/^\d+ 0 obj/);
  return { bytes, firstPage, main };
}

// The last startxref names the main section, its length kept (the linearization dictionary's
// /L stays right, so pdf.js and poppler still read the file from its first-page section).
function startingAtMainSection(original: Uint8Array): Uint8Array {
  const { bytes, main } = linearized(original);
  const text = latin1(bytes);
  const tail = /startxref\s+\d+\s+%%EOF\s*$/.exec(text)!;
  const replaced = `startxref\n${main}\n%%EOF`.padEnd(tail[0].length, '\n');
  expect(replaced.length).toBe(tail[0].length);
  return new Uint8Array(Buffer.from(text.slice(0, tail.index) + replaced, 'latin1'));
}

// An incremental update of a linearized file whose /Prev names the main section: the first-page
// section, with the catalog's entry, is left out of the chain.
async function updateAfterMainSection(original: Uint8Array): Promise<Uint8Array> {
  const { bytes, firstPage, main } = linearized(original);
  const pdf = await PDF.load(bytes);
  pdf.setTitle('Updated');
  const text = latin1(await pdf.save({ incremental: true }));
  const prev = text.lastIndexOf(`/Prev ${firstPage}`);
  expect(prev).toBeGreaterThan(bytes.length);
  const rewritten = `${text.slice(0, prev)}/Prev ${main}${text.slice(prev + `/Prev ${firstPage}`.length)}`;
  return new Uint8Array(Buffer.from(rewritten, 'latin1'));
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
    documentId: 'doc_xref',
    originalSha256: sha256(original),
    sandbox: false,
    certificate,
  });
}

function expectValidSeal(sealed: Uint8Array, signatures: number) {
  const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed);
  expect(pdfsig.stderr).toBe('');
  expect(pdfsig.stdout.match(/Signature is Valid/g)).toHaveLength(signatures);
  const seal = pdfsig.stdout.split(/^Signature #\d+:$/m).at(-1);
  expect(seal).toContain('Field Name: Signet seal');
  expect(seal).toContain('Total document signed');
  const check = runOnPdf(scratch.dir, 'qpdf', ['--check', '{}'], sealed);
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
}

describe.each([
  [
    'an update whose cross-reference stream has no /Root',
    async () => updateWithoutRoot(await xrefStreamPdf()),
  ],
  [
    'a linearized file whose startxref names its main section',
    async () => startingAtMainSection(await makePdf(1)),
  ],
  [
    'an update of a linearized file whose /Prev names its main section',
    async () => updateAfterMainSection(await makePdf(1)),
  ],
])('an unsigned original: %s', (_, make) => {
  let original: Uint8Array;
  beforeAll(async () => {
    original = await make();
  });

  it('opens in @libpdf/core with its one page', async () => {
    const pdf = await PDF.load(original);
    expect(pdf.getPageCount()).toBe(1);
  });

  it('is sealed rewritten, not attached, and the seal is valid', async () => {
    const sealed = await seal(original);
    expect(sealed.mode).toBe('normalised');
    expectValidSeal(sealed.bytes, 1);
  });
});

describe('a signed original whose later update has no /Root in its cross-reference stream', () => {
  let original: Uint8Array;
  beforeAll(async () => {
    const signer = await P12Signer.create(createSelfSignedP12('Ada Lovelace', 'pw'), 'pw');
    const unsigned = await PDF.load(await xrefStreamPdf());
    const signed = await unsigned.sign({
      signer,
      fieldName: 'Ada Lovelace',
      subFilter: 'ETSI.CAdES.detached',
      level: 'B-B',
    });
    original = await updateWithoutRoot(signed.bytes);
  });

  it('is sealed in place, after its bytes, every signature valid', async () => {
    const sealed = await seal(original);
    expect(sealed.mode).toBe('incremental');
    const prefix = Buffer.from(sealed.bytes.subarray(0, original.length));
    expect(prefix.equals(Buffer.from(original))).toBe(true);
    expectValidSeal(sealed.bytes, 2);
    // The seal's update names the catalog again, for readers that take the newest trailer.
    expect(latin1(sealed.bytes.subarray(original.length))).toMatch(/\/Root \d+ \d+ R/);
  });
});
