import { deflateSync } from 'node:zlib';

// The files of issue 45's red-team report, generated: each passes the cheap check it meets
// first (the PDF structural check, the PNG header) and is hostile only to a full parse.

/**
 * A PDF with a plausible trailer (`/Root` named, `startxref` pointing at its cross-reference
 * section) and no catalog: `markers` unterminated `N 0 obj << /A (` objects. The section is a
 * table of garbage rows (the report's file), or a cross-reference stream of garbage (`stream`).
 * The lenient parser falls back to brute-force recovery, which parses every object looking for
 * a catalog, each string running to the end of the file: quadratic (3,000 markers, 56 KB: about
 * 4 s; 6,000, 113 KB: about 19 s).
 */
export function catalogHuntPdf(markers = 3000, xref: 'table' | 'stream' = 'table'): Buffer {
  const objects = Array.from({ length: markers }, (_, i) => `${i + 1} 0 obj << /A (\n`).join('');
  const body = `%PDF-1.7\n${objects}`;
  const section =
    xref === 'table'
      ? `xref\n0 20\n${'garbage garbage xx\n'.repeat(20)}trailer\n<< /Size 20 /Root 1 0 R >>\n`
      : `${markers + 1} 0 obj\n<< /Type /XRef /Size ${markers + 2} /W [1 4 2] /Root 1 0 R /Length 14 >>\n` +
        'stream\ngarbage garbag\nendstream\nendobj\n';
  return Buffer.from(`${body}${section}startxref\n${body.length}\n%%EOF\n`, 'latin1');
}

/**
 * A well-formed PDF 1.5 file (a cross-reference stream naming `/Root`) whose catalog, page tree
 * and page sit in an object stream padded to `inflatedBytes` once decompressed: about 250 KB on
 * disk for 250 MB in memory, decompressed by anything that reads its pages.
 */
export function objectStreamBombPdf(inflatedBytes = 250 * 1024 * 1024): Buffer {
  const inner = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
  ];
  let offset = 0;
  const header: string[] = [];
  inner.forEach((o, i) => {
    header.push(`${i + 1} ${offset}`);
    offset += o.length + 1;
  });
  const first = `${header.join(' ')}\n`;
  const content = Buffer.alloc(inflatedBytes, 0x20);
  content.write(first + inner.join('\n'), 'latin1');
  const packed = deflateSync(content, { level: 9 });
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n')];
  let length = parts[0].length;
  const objStmAt = length;
  const objStm = Buffer.concat([
    Buffer.from(
      `4 0 obj\n<< /Type /ObjStm /N 3 /First ${first.length} /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`,
    ),
    packed,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
  parts.push(objStm);
  length += objStm.length;
  const xrefAt = length;
  const row = (type: number, a: number, b: number) => {
    const r = Buffer.alloc(7);
    r[0] = type;
    r.writeUInt32BE(a, 1);
    r.writeUInt16BE(b, 5);
    return r;
  };
  const rows = Buffer.concat([
    row(0, 0, 65535),
    row(2, 4, 0),
    row(2, 4, 1),
    row(2, 4, 2),
    row(1, objStmAt, 0),
    row(1, xrefAt, 0),
  ]);
  parts.push(
    Buffer.from(
      `5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`,
    ),
    rows,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
}

function ihdr(width: number, height: number, bitDepth = 8, colourType = 6): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = bitDepth;
  data[9] = colourType;
  return pngChunk('IHDR', data);
}

const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');

/**
 * The report's drawn signature: a small first IHDR (which the header check read), a second one
 * of 10000 x 10000 (which the decoder used), and an IDAT inflating to `inflatedBytes` (400 MB
 * in the report; a sixth of that here keeps the test's own memory small, and is refused alike).
 */
export function doubleIhdrPng(inflatedBytes = 64 * 1024 * 1024): Buffer {
  return Buffer.concat([
    PNG_MAGIC,
    ihdr(100, 50),
    ihdr(10_000, 10_000),
    pngChunk('IDAT', deflateSync(Buffer.alloc(inflatedBytes), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PNG with one honest small IHDR whose IDAT inflates far past what its pixels need: the
 * decoder would inflate all of it before looking at the rows.
 */
export function overlongIdatPng(inflatedBytes = 64 * 1024 * 1024): Buffer {
  return Buffer.concat([
    PNG_MAGIC,
    ihdr(100, 50),
    pngChunk('IDAT', deflateSync(Buffer.alloc(inflatedBytes), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid RGBA PNG of `width` x `height` (blank), as a signature pad would draw. */
export function honestPng(width: number, height: number): Buffer {
  const rows = Buffer.alloc((1 + width * 4) * height);
  return Buffer.concat([
    PNG_MAGIC,
    ihdr(width, height),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A data URL as the signing page sends a drawn mark. */
export const pngDataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
