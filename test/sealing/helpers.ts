import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDF, PdfDict } from '@libpdf/core';

export type Tool = { status: number | null; stdout: string; stderr: string };

/** A scratch directory removed by the returned cleanup function. */
export function scratchDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'signet-sealing-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs a poppler/qpdf command line tool on `bytes` written to a temp file. */
export function runOnPdf(dir: string, command: string, args: string[], bytes: Uint8Array): Tool {
  const file = join(dir, `${createHash('sha1').update(bytes).digest('hex')}.pdf`);
  writeFileSync(file, bytes);
  const result = spawnSync(command, [...args.map((a) => (a === '{}' ? file : a))], {
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the openssl command line in `dir` (certificates and P12s for the tests); throws if it fails. */
export function openssl(dir: string, args: string[]): void {
  const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
}

/** Text of each page, as pdftotext separates them with form feeds. */
export function pageTexts(dir: string, bytes: Uint8Array): string[] {
  const result = runOnPdf(dir, 'pdftotext', ['-enc', 'UTF-8', '{}', '-'], bytes);
  if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
  const pages = result.stdout.split('\f');
  return pages.slice(0, pages.length - 1);
}

/** A text-only PDF with `pages` pages, optionally some turned by /Rotate. */
export async function makePdf(
  pages: number,
  options: { rotate?: number } = {},
): Promise<Uint8Array> {
  const pdf = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: 'a4', rotate: i === 0 ? options.rotate : undefined });
    page.drawText(`Original page ${i + 1} of the contract`, { x: 60, y: 760, size: 18 });
  }
  return pdf.save();
}

/** A PDF whose only page inherits its /Resources (and so its font) from the page tree. */
export async function makeInheritedResourcesPdf(): Promise<Uint8Array> {
  const created = PDF.create();
  created.addPage({ size: 'a4' }).drawText('Inherited font text', { x: 60, y: 760, size: 18 });
  const pdf = await PDF.load(await created.save());
  const page = pdf.getPage(0);
  const pagesRef = pdf.getCatalog().getRef('Pages');
  const pagesNode = pagesRef ? pdf.getObject(pagesRef) : null;
  const resources = page?.dict.get('Resources');
  if (!page || !(pagesNode instanceof PdfDict) || !resources)
    throw new Error('unexpected PDF shape');
  pagesNode.set('Resources', resources);
  page.dict.delete('Resources');
  return pdf.save();
}

/** A minimal RGBA PNG (a dark diagonal stroke on transparency) for drawn signatures. */
export function makePng(width = 120, height = 40): Uint8Array {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    for (let x = 0; x < width; x++) {
      const on = Math.abs(y - (x * height) / width) < 2;
      raw.set(on ? [20, 30, 90, 255] : [0, 0, 0, 0], row + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('IDAT', deflateSync(raw)),
      pngChunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** SHA-256 hex, as callers of sealPdf compute it. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * What `openssl ts -verify` says of the file's last signature, a document time stamp: its
 * token (dumped by pdfsig) against the bytes its /ByteRange covers, trusting `files.root`.
 */
export function verifyArchiveTimestamp(
  dir: string,
  bytes: Uint8Array,
  files: { root: string; chain: string },
): string {
  const work = mkdtempSync(join(dir, 'archive-'));
  writeFileSync(join(work, 'in.pdf'), bytes);
  spawnSync('pdfsig', ['-dump', 'in.pdf'], { cwd: work });
  const tokens = readdirSync(work)
    .filter((name) => /\.sig\d+$/.test(name))
    .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')));
  const text = Buffer.from(bytes).toString('latin1');
  const at = text.lastIndexOf('/ByteRange');
  const [a, b, c, d] = text
    .slice(at, text.indexOf(']', at))
    .replace(/[^\d ]/g, ' ')
    .trim()
    .split(/\s+/)
    .map(Number);
  const covered = join(work, 'covered.bin');
  writeFileSync(covered, Buffer.concat([bytes.subarray(a!, a! + b!), bytes.subarray(c!, c! + d!)]));
  const result = spawnSync(
    'openssl',
    ['ts', '-verify', '-in', join(work, tokens.at(-1)!), '-token_in', '-data', covered].concat([
      '-CAfile',
      files.root,
      '-untrusted',
      files.chain,
    ]),
    { encoding: 'utf8' },
  );
  return `${result.stdout}${result.stderr}`;
}
