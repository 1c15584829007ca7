import {
  PdfArray,
  PdfDict,
  PdfName,
  PdfNumber,
  PdfStream,
  PdfString,
  ops,
  type PDF,
  type PdfRef,
} from '@libpdf/core';
import {
  openShapingFace,
  subsetKeepingGlyphIds,
  type ShapedGlyph,
  type ShapingFace,
} from './harfbuzz.js';
import { contentLines, type Operator } from './page-canvas.js';
import type { ShownRun } from './seal-fonts.js';

/** Scripts written right to left. */
export const RIGHT_TO_LEFT =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

/** A font file of a script that needs shaping (joining, reordering, marks, ligatures). */
export type ShapedFontFile = {
  /** PostScript-style name for the PDF, e.g. NotoSansArabic-Regular. */
  name: string;
  bytes: Uint8Array;
};

// Opened once per process and file, with the shapes of texts already shaped (layout measures
// the same text many times): shaping state is read-only once built.
const faces = new Map<Uint8Array, { face: ShapingFace; shapes: Map<string, ShapedGlyph[]> }>();
const SHAPES_KEPT = 2_000;

function faceOf(file: ShapedFontFile) {
  let entry = faces.get(file.bytes);
  if (!entry) {
    entry = { face: openShapingFace(file.bytes), shapes: new Map() };
    faces.set(file.bytes, entry);
  }
  const { face, shapes } = entry;
  const shape = (text: string): ShapedGlyph[] => {
    let glyphs = shapes.get(text);
    if (!glyphs) {
      glyphs = face.shape(text);
      if (shapes.size >= SHAPES_KEPT) shapes.clear();
      shapes.set(text, glyphs);
    }
    return glyphs;
  };
  return { face, shape };
}

/** What layout needs of a shaped font, without a document: coverage and widths. */
export function measureShaped(file: ShapedFontFile) {
  const { face, shape } = faceOf(file);
  return {
    covers: (codePoint: number) => face.covers(codePoint),
    width(text: string, size: number): number {
      let total = 0;
      for (const glyph of shape(text)) total += glyph.advance;
      return (total / face.upem) * size;
    },
  };
}

/** What the canvas gives a font to name it in a page's resources. */
export type RefRegistrar = (ref: PdfRef) => string;

/**
 * Text in a script that needs shaping, drawn as HarfBuzz shapes it: glyph ids positioned one by
 * one, in a CID font of only the glyphs used (subset at `finish`, keeping their ids). A viewer
 * extracts the text as written: left-to-right runs carry it as /ActualText, right-to-left runs
 * map each glyph back to its characters (viewers put right-to-left text back in reading order
 * from the glyphs' positions, and ignore an /ActualText order there).
 */
export function createShapedFont(pdf: PDF, file: ShapedFontFile) {
  const { face, shape } = faceOf(file);
  const scale = 1000 / face.upem;
  // Each glyph drawn is given a character id (CID) of its own for every text it stands for:
  // Arabic letters share glyphs (the dotless body of ب ت ث ن ي in the middle of a word), and a
  // ToUnicode entry is per CID, so one CID per glyph could name only one of the letters. The
  // CIDToGIDMap sends each CID to its glyph.
  const cids = new Map<string, number>();
  const used: Array<{ gid: number; text: string }> = [{ gid: 0, text: '' }];
  const cidOf = (gid: number, text: string): number => {
    const key = `${gid} ${text}`;
    let cid = cids.get(key);
    if (cid === undefined) {
      cid = used.push({ gid, text }) - 1;
      cids.set(key, cid);
    }
    return cid;
  };
  const type0 = new PdfDict();
  const ref = pdf.register(type0);
  const widthOf = (gid: number) => Math.round(face.advance(gid) * scale);

  return {
    show(register: RefRegistrar, text: string, size: number): ShownRun {
      const glyphs = shape(text);
      const rtl = RIGHT_TO_LEFT.test(text);
      // Each glyph's characters: from its cluster to the next cluster, given to the first glyph
      // (in reading order) of the cluster.
      const starts = [...new Set(glyphs.map((g) => g.cluster))].sort((a, b) => a - b);
      const charsOf = (cluster: number) =>
        text.slice(cluster, starts[starts.indexOf(cluster) + 1] ?? text.length);
      const named = new Set<number>();
      const textOf = new Map<ShapedGlyph, string>();
      const order = rtl ? [...glyphs].reverse() : glyphs;
      for (const glyph of order) {
        const first = !named.has(glyph.cluster);
        named.add(glyph.cluster);
        textOf.set(glyph, first ? charsOf(glyph.cluster) : '');
      }
      // The pen as HarfBuzz places it and as the viewer will (by the /W widths), in 1/1000 em:
      // every difference becomes a TJ adjustment; a vertical offset, a text rise.
      const out: Operator[] = [];
      let items: Array<PdfString | PdfNumber> = [];
      let rise = 0;
      let pen = 0;
      let viewer = 0;
      const flush = () => {
        if (items.length) out.push(ops.showTextArray(new PdfArray(items)));
        items = [];
      };
      for (const glyph of glyphs) {
        const target = (pen + glyph.dx) * scale;
        const gap = target - viewer;
        if (Math.abs(gap) > 0.01) items.push(PdfNumber.of(-Math.round(gap * 100) / 100));
        const dy = Math.round(glyph.dy * scale * (size / 1000) * 100) / 100;
        if (dy !== rise) {
          flush();
          out.push(ops.setTextRise(dy));
          rise = dy;
        }
        const cid = cidOf(glyph.gid, textOf.get(glyph)!);
        items.push(PdfString.fromBytes(new Uint8Array([cid >> 8, cid & 0xff])));
        viewer = target + widthOf(glyph.gid);
        pen += glyph.advance;
      }
      const end = pen * scale;
      if (Math.abs(end - viewer) > 0.01)
        items.push(PdfNumber.of(-Math.round((end - viewer) * 100) / 100));
      flush();
      if (rise !== 0) out.push(ops.setTextRise(0));
      const font = register(ref);
      if (rtl) return { before: '', font, size, glyphs: contentLines(out) };
      const actual = PdfDict.of({ ActualText: PdfString.fromString(text) });
      return {
        before: contentLines([ops.beginMarkedContentProps('/Span', actual)]),
        font,
        size,
        glyphs: contentLines([...out, ops.endMarkedContent()]),
      };
    },
    /** Writes the font: call once, after the last text is drawn and before saving. */
    finish(): void {
      if (used.length === 1) return;
      const glyphIds = new Set(used.map((u) => u.gid));
      const program = subsetKeepingGlyphIds(file.bytes, glyphIds);
      const fontFile = pdf.register(
        PdfStream.fromDict({ Length1: PdfNumber.of(program.length) }, program),
      );
      const tag = subsetTag(glyphIds);
      const baseFont = PdfName.of(`${tag}+${file.name}`);
      const descriptor = pdf.register(
        PdfDict.of({
          Type: PdfName.of('FontDescriptor'),
          FontName: baseFont,
          Flags: PdfNumber.of(4),
          FontBBox: new PdfArray(
            [
              -1000,
              Math.round(face.descender * scale) - 200,
              2000,
              Math.round(face.ascender * scale) + 200,
            ].map((n) => PdfNumber.of(n)),
          ),
          ItalicAngle: PdfNumber.of(0),
          Ascent: PdfNumber.of(Math.round(face.ascender * scale)),
          Descent: PdfNumber.of(Math.round(face.descender * scale)),
          CapHeight: PdfNumber.of(Math.round(face.ascender * scale)),
          StemV: PdfNumber.of(80),
          FontFile2: fontFile,
        }),
      );
      // CIDs run from 1 without gaps: one array of widths from CID 1.
      const widths = new PdfArray([
        PdfNumber.of(1),
        new PdfArray(used.slice(1).map(({ gid }) => PdfNumber.of(widthOf(gid)))),
      ]);
      const cidToGid = new Uint8Array(used.length * 2);
      used.forEach(({ gid }, cid) => {
        cidToGid[cid * 2] = gid >> 8;
        cidToGid[cid * 2 + 1] = gid & 0xff;
      });
      const cidFont = pdf.register(
        PdfDict.of({
          Type: PdfName.of('Font'),
          Subtype: PdfName.of('CIDFontType2'),
          BaseFont: baseFont,
          CIDSystemInfo: PdfDict.of({
            Registry: PdfString.fromString('Adobe'),
            Ordering: PdfString.fromString('Identity'),
            Supplement: PdfNumber.of(0),
          }),
          FontDescriptor: descriptor,
          W: widths,
          CIDToGIDMap: pdf.register(PdfStream.fromDict({}, cidToGid)),
        }),
      );
      const toUnicode = pdf.register(PdfStream.fromDict({}, toUnicodeCMap(used)));
      type0.set('Type', PdfName.of('Font'));
      type0.set('Subtype', PdfName.of('Type0'));
      type0.set('BaseFont', baseFont);
      type0.set('Encoding', PdfName.of('Identity-H'));
      type0.set('DescendantFonts', new PdfArray([cidFont]));
      type0.set('ToUnicode', toUnicode);
    },
  };
}

export type ShapedFont = ReturnType<typeof createShapedFont>;

// Six capital letters from the glyph set, as PDF subset fonts are named (ISO 32000 9.6.4).
function subsetTag(gids: Iterable<number>): string {
  let hash = 2166136261;
  for (const gid of gids) hash = Math.imul(hash ^ gid, 16777619) >>> 0;
  let tag = '';
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (hash % 26));
    hash = Math.floor(hash / 26) + i * 7919;
  }
  return tag;
}

// CID -> the characters its glyph stands for there; CIDs that stand for none (the second half
// of a cluster) are left out.
function toUnicodeCMap(used: Array<{ gid: number; text: string }>): Uint8Array {
  const hex4 = (n: number) => n.toString(16).padStart(4, '0');
  const utf16 = (text: string) =>
    Array.from({ length: text.length }, (_, i) => hex4(text.charCodeAt(i))).join('');
  const entries = used
    .map(({ text }, cid): [number, string] => [cid, text])
    .filter(([, text]) => text !== '');
  const lines = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
  ];
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = entries.slice(i, i + 100);
    lines.push(`${chunk.length} beginbfchar`);
    for (const [gid, text] of chunk) lines.push(`<${hex4(gid)}> <${utf16(text)}>`);
    lines.push('endbfchar');
  }
  lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end');
  return new TextEncoder().encode(lines.join('\n'));
}
