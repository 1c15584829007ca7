import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as hb from 'harfbuzzjs';

// HarfBuzz's WebAssembly builds (harfbuzzjs): the shaper, through its JavaScript API, and the
// subsetter, whose few C functions are called directly (harfbuzzjs wraps only the shaper).
// This module is loaded only by sealing, which runs on its own thread.

const require = createRequire(import.meta.url);

/** One glyph as shaped, in font units; glyphs come in visual (left-to-right) order. */
export type ShapedGlyph = {
  gid: number;
  /** How far the pen moves after this glyph. */
  advance: number;
  /** Where the glyph is drawn relative to the pen. */
  dx: number;
  dy: number;
  /** Index in the shaped text (UTF-16) of the first character this glyph stands for. */
  cluster: number;
};

/** A font file ready to shape with, and its design units per em. */
export type ShapingFace = {
  shape: (text: string) => ShapedGlyph[];
  /** A glyph's advance width in font units. */
  advance: (gid: number) => number;
  /** True when the font maps the code point to a glyph. */
  covers: (codePoint: number) => boolean;
  upem: number;
  /** Above and below the baseline, in font units (the descender negative). */
  ascender: number;
  descender: number;
};

/** Opens a font for shaping; the caller keeps it (one per font file per process). */
export function openShapingFace(bytes: Uint8Array): ShapingFace {
  const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const face = new hb.Face(new hb.Blob(copy as ArrayBuffer));
  const font = new hb.Font(face);
  const extents = font.hExtents();
  return {
    upem: face.upem,
    ascender: extents.ascender,
    descender: extents.descender,
    advance: (gid) => font.glyphHAdvance(gid),
    covers: (codePoint) => (font.nominalGlyph(codePoint) ?? 0) !== 0,
    shape(text) {
      const buffer = new hb.Buffer();
      buffer.addText(text);
      buffer.guessSegmentProperties();
      hb.shape(font, buffer);
      return buffer.getGlyphInfosAndPositions().map((glyph) => ({
        gid: glyph.codepoint,
        advance: glyph.xAdvance ?? 0,
        dx: glyph.xOffset ?? 0,
        dy: glyph.yOffset ?? 0,
        cluster: glyph.cluster,
      }));
    },
  };
}

type SubsetExports = {
  memory: WebAssembly.Memory;
  malloc: (size: number) => number;
  free: (ptr: number) => void;
  _initialize?: () => void;
  hb_blob_create: (
    data: number,
    length: number,
    mode: number,
    user: number,
    destroy: number,
  ) => number;
  hb_blob_destroy: (blob: number) => void;
  hb_blob_get_length: (blob: number) => number;
  hb_blob_get_data: (blob: number, length: number) => number;
  hb_face_create: (blob: number, index: number) => number;
  hb_face_destroy: (face: number) => void;
  hb_face_reference_blob: (face: number) => number;
  hb_set_add: (set: number, value: number) => void;
  hb_subset_input_create_or_fail: () => number;
  hb_subset_input_destroy: (input: number) => void;
  hb_subset_input_glyph_set: (input: number) => number;
  hb_subset_input_set_flags: (input: number, flags: number) => void;
  hb_subset_or_fail: (face: number, input: number) => number;
};

let subsetter: SubsetExports | undefined;

function loadSubsetter(): SubsetExports {
  if (!subsetter) {
    const wasm = readFileSync(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm'));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), {});
    subsetter = instance.exports as unknown as SubsetExports;
    subsetter._initialize?.();
  }
  return subsetter;
}

// hb-subset.h: keep every glyph at its id (the content stream names glyphs by id), drop hinting.
const RETAIN_GIDS = 0x2;
const NO_HINTING = 0x1;
const HB_MEMORY_MODE_READONLY = 1;

/**
 * The font with only `glyphs` (and the glyphs they are built from) left, each at its original
 * id: a font of a few kB instead of hundreds.
 */
export function subsetKeepingGlyphIds(font: Uint8Array, glyphs: Iterable<number>): Uint8Array {
  const hbs = loadSubsetter();
  const data = hbs.malloc(font.byteLength);
  new Uint8Array(hbs.memory.buffer, data, font.byteLength).set(font);
  const blob = hbs.hb_blob_create(data, font.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
  const face = hbs.hb_face_create(blob, 0);
  hbs.hb_blob_destroy(blob);
  const input = hbs.hb_subset_input_create_or_fail();
  try {
    if (!input) throw new Error('hb-subset: out of memory');
    const set = hbs.hb_subset_input_glyph_set(input);
    hbs.hb_set_add(set, 0);
    for (const gid of glyphs) hbs.hb_set_add(set, gid);
    hbs.hb_subset_input_set_flags(input, RETAIN_GIDS | NO_HINTING);
    const subset = hbs.hb_subset_or_fail(face, input);
    if (!subset) throw new Error('hb-subset could not subset the font');
    const result = hbs.hb_face_reference_blob(subset);
    const length = hbs.hb_blob_get_length(result);
    const at = hbs.hb_blob_get_data(result, 0);
    const bytes = new Uint8Array(hbs.memory.buffer, at, length).slice();
    hbs.hb_blob_destroy(result);
    hbs.hb_face_destroy(subset);
    return bytes;
  } finally {
    if (input) hbs.hb_subset_input_destroy(input);
    hbs.hb_face_destroy(face);
    hbs.free(data);
  }
}
