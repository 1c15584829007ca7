// Finds the evidence file of a Signet seal in a PDF's bytes, with no PDF library: the signatures
// by their /ByteRange, and the evidence as the JSON embedded-file stream written in the same
// revision as a signature (the objects its cross-reference section lists). Objects of earlier
// revisions (an uploaded original's attachments) or inside other streams are never taken for it.
import { inflateSync } from 'node:zlib';

/** A signature located by its /ByteRange. */
export type PdfSignature = {
  byteRange: [number, number, number, number];
  /** The CMS from /Contents, zero padding removed. */
  cms: Uint8Array;
  /** The byte ranges lie inside the file and end where it ends. */
  coversWholeFile: boolean;
  inBounds: boolean;
};

/** An embedded evidence file and the signature whose revision wrote it. */
export type FoundEvidence = {
  /** The file's bytes, decoded. */
  bytes: Uint8Array;
  /** Offset of its stream object in the PDF. */
  offset: number;
  /** Offset just after its `endstream`. */
  end: number;
  signature: PdfSignature;
};

// Bounds for hostile files: signatures examined, objects of one revision read, the length of
// one stream dictionary, and what one stream may inflate to.
const MAX_SIGNATURES = 32;
const MAX_OBJECTS = 100_000;
const MAX_DICTIONARY = 64 * 1024;
const MAX_INFLATED = 64 * 1024 * 1024;

/** Every signature of the file, in file order. */
export function findPdfSignatures(bytes: Uint8Array): PdfSignature[] {
  const pdf = asBuffer(bytes);
  const found: PdfSignature[] = [];
  const seen = new Set<string>();
  for (let at = pdf.indexOf('/ByteRange'); at !== -1; at = pdf.indexOf('/ByteRange', at + 1)) {
    if (found.length >= MAX_SIGNATURES) break;
    const head = pdf.subarray(at, at + 160).toString('latin1');
    const match = /^\/ByteRange\s*\[\s*(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s*\]/.exec(
      head,
    );
    if (!match) continue;
    const byteRange = match.slice(1, 5).map(Number) as PdfSignature['byteRange'];
    const [start1, length1, start2, length2] = byteRange;
    const gap = start1 + length1;
    if (start1 !== 0 || start2 <= gap + 1 || start2 > pdf.length || seen.has(match[0])) continue;
    seen.add(match[0]);
    if (pdf[gap] !== 0x3c || pdf[start2 - 1] !== 0x3e) continue; // <hex>
    const hex = pdf.subarray(gap + 1, start2 - 1).toString('latin1');
    if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2) continue;
    const cms = Buffer.from(hex, 'hex');
    found.push({
      byteRange,
      cms: cms.subarray(0, derLength(cms)),
      coversWholeFile: start2 + length2 === pdf.length,
      inBounds: start2 + length2 <= pdf.length,
    });
  }
  return found;
}

/**
 * The evidence file of the latest signature whose revision embeds one: a stream of
 * `/Type /EmbeddedFile /Subtype /application#2Fjson` listed in that revision's cross-reference
 * section, decoding to JSON whose `format.name` is `formatName`. Undefined when there is none.
 */
export function findEvidence(bytes: Uint8Array, formatName: string): FoundEvidence | undefined {
  const pdf = asBuffer(bytes);
  const signatures = findPdfSignatures(pdf).filter((s) => s.inBounds);
  for (const signature of signatures.reverse()) {
    const [, , start2, length2] = signature.byteRange;
    const revision = pdf.subarray(0, start2 + length2);
    const startxref = revision.lastIndexOf('startxref');
    const xrefAt =
      startxref < 0
        ? NaN
        : Number(
            /^startxref\s+(\d+)/.exec(
              revision.subarray(startxref, startxref + 40).toString('latin1'),
            )?.[1],
          );
    if (!Number.isSafeInteger(xrefAt) || xrefAt >= revision.length) continue;
    const offsets = sectionOffsets(revision, xrefAt);
    for (const offset of [...offsets.values()].slice(0, MAX_OBJECTS)) {
      const object = readStream(revision, offset, offsets);
      if (!object || !/\/Type\s*\/EmbeddedFile\b/.test(object.dict)) continue;
      if (!/\/Subtype\s*\/application#2[Ff]json\b/.test(object.dict)) continue;
      const data = object.decoded();
      if (!data || !isEvidence(data, formatName)) continue;
      return { bytes: data, offset, end: object.end, signature };
    }
  }
  return undefined;
}

function isEvidence(data: Uint8Array, formatName: string): boolean {
  try {
    const parsed = JSON.parse(Buffer.from(data).toString('utf8')) as {
      format?: { name?: unknown };
    };
    return parsed?.format?.name === formatName;
  } catch {
    return false;
  }
}

// Object number -> offset of the uncompressed objects one cross-reference section lists (a
// table, or a stream).
function sectionOffsets(pdf: Buffer, at: number): Map<number, number> {
  const offsets = new Map<number, number>();
  if (pdf.subarray(at, at + 4).toString('latin1') === 'xref') {
    const end = pdf.indexOf('trailer', at);
    const tokens = pdf
      .subarray(at + 4, end < 0 ? pdf.length : end)
      .toString('latin1')
      .trim()
      .split(/\s+/);
    for (let i = 0; i + 1 < tokens.length;) {
      const first = Number(tokens[i]);
      const count = Number(tokens[i + 1]);
      i += 2;
      for (let n = 0; n < count && i + 2 < tokens.length; n++, i += 3) {
        if (tokens[i + 2] === 'n') offsets.set(first + n, Number(tokens[i]));
      }
    }
    return offsets;
  }
  const stream = readStream(pdf, at, offsets);
  const data = stream?.decoded();
  if (!stream || !data || !/\/Type\s*\/XRef\b/.test(stream.dict)) return offsets;
  const widths = numbers(/\/W\s*\[([^\]]*)\]/.exec(stream.dict)?.[1]);
  const size = Number(/\/Size\s+(\d+)/.exec(stream.dict)?.[1] ?? 0);
  const index = numbers(/\/Index\s*\[([^\]]*)\]/.exec(stream.dict)?.[1]);
  const ranges = index.length ? index : [0, size];
  const row = widths.reduce((a, b) => a + b, 0);
  const field = (from: number, width: number) => {
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + data[from + i];
    return value;
  };
  let position = 0;
  for (let r = 0; r + 1 < ranges.length; r += 2) {
    for (let n = 0; n < ranges[r + 1] && position + row <= data.length; n++, position += row) {
      const type = widths[0] ? field(position, widths[0]) : 1;
      if (type === 1) offsets.set(ranges[r] + n, field(position + widths[0], widths[1]));
    }
  }
  return offsets;
}

type StreamObject = { dict: string; end: number; decoded: () => Uint8Array | undefined };

// `N G obj << … >> stream … endstream` at `at`; `dict` is its top-level dictionary only.
function readStream(
  pdf: Buffer,
  at: number,
  offsets: Map<number, number>,
): StreamObject | undefined {
  const head = /^\s*\d+\s+\d+\s+obj\s*<</.exec(pdf.subarray(at, at + 64).toString('latin1'));
  if (!head) return undefined;
  let i = at + head[0].length;
  let depth = 1;
  let top = '';
  const limit = Math.min(pdf.length, i + MAX_DICTIONARY);
  while (i < limit && depth > 0) {
    const c = pdf[i];
    if (c === 0x3c && pdf[i + 1] === 0x3c) {
      depth++;
      i += 2;
    } else if (c === 0x3e && pdf[i + 1] === 0x3e) {
      depth--;
      i += 2;
    } else if (c === 0x28) {
      i = skipLiteralString(pdf, i, limit);
    } else {
      if (depth === 1) top += String.fromCharCode(c);
      i++;
    }
  }
  if (depth > 0) return undefined;
  const after = /^\s*stream\r?\n/.exec(pdf.subarray(i, i + 16).toString('latin1'));
  if (!after) return undefined;
  const dataStart = i + after[0].length;
  const length = streamLength(pdf, top, offsets);
  let dataEnd = length !== undefined ? dataStart + length : -1;
  if (
    dataEnd < 0 ||
    dataEnd > pdf.length ||
    !/^\s*endstream/.test(pdf.subarray(dataEnd, dataEnd + 16).toString('latin1'))
  ) {
    dataEnd = pdf.indexOf('endstream', dataStart);
    if (dataEnd < 0) return undefined;
  }
  const end = pdf.indexOf('endstream', dataEnd) + 'endstream'.length;
  const raw = pdf.subarray(dataStart, dataEnd);
  return { dict: top, end, decoded: () => decode(raw, top) };
}

function streamLength(pdf: Buffer, dict: string, offsets: Map<number, number>): number | undefined {
  const match = /\/Length\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(dict);
  if (!match) return undefined;
  if (match[2] === undefined) return Number(match[1]);
  const at = offsets.get(Number(match[1]));
  if (at === undefined) return undefined;
  const value = /^\s*\d+\s+\d+\s+obj\s+(\d+)\s+endobj/.exec(
    pdf.subarray(at, at + 64).toString('latin1'),
  );
  return value ? Number(value[1]) : undefined;
}

function skipLiteralString(pdf: Buffer, at: number, end: number): number {
  let depth = 0;
  for (let i = at; i < end; i++) {
    if (pdf[i] === 0x5c) i++;
    else if (pdf[i] === 0x28) depth++;
    else if (pdf[i] === 0x29 && --depth === 0) return i + 1;
  }
  return end;
}

// FlateDecode (with a PNG predictor, as cross-reference streams use) or no filter.
function decode(raw: Buffer, dict: string): Uint8Array | undefined {
  const filter = /\/Filter\s*(?:\[\s*)?\/(\w+)/.exec(dict)?.[1];
  if (filter === undefined) return raw;
  if (filter !== 'FlateDecode') return undefined;
  try {
    const inflated = inflateSync(raw, { maxOutputLength: MAX_INFLATED });
    const predictor = Number(/\/Predictor\s+(\d+)/.exec(dict)?.[1] ?? 1);
    if (predictor < 10) return inflated;
    const columns = Number(/\/Columns\s+(\d+)/.exec(dict)?.[1] ?? 1);
    return unpredictPng(inflated, columns);
  } catch {
    return undefined;
  }
}

function unpredictPng(data: Buffer, columns: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (columns + 1)];
    for (let c = 0; c < columns; c++) {
      const x = data[r * (columns + 1) + 1 + c];
      const left = c > 0 ? out[r * columns + c - 1] : 0;
      const up = r > 0 ? out[(r - 1) * columns + c] : 0;
      const upLeft = r > 0 && c > 0 ? out[(r - 1) * columns + c - 1] : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      };
      const predicted = [0, left, up, (left + up) >> 1, type === 4 ? paeth() : 0][type] ?? 0;
      out[r * columns + c] = (x + predicted) & 0xff;
    }
  }
  return out;
}

function numbers(text: string | undefined): number[] {
  return (text ?? '').trim().split(/\s+/).filter(Boolean).map(Number);
}

// The placeholder is zero-padded after the DER: keep the outer element.
function derLength(der: Buffer): number {
  if (der.length < 2 || der[0] !== 0x30) return der.length;
  const first = der[1];
  if (first < 0x80) return Math.min(der.length, 2 + first);
  const count = first & 0x7f;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + der[2 + i];
  return Math.min(der.length, 2 + count + length);
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
