import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  PdfString,
  Standard14Font,
  type EmbeddedFont,
  type PDF,
  type Standard14FontName,
} from '@libpdf/core';

/** A font usable for drawing plus the two things layout needs: cleaning and measuring. */
export type SealFont = {
  /** What `page.registerFont` takes. */
  input: EmbeddedFont | Standard14FontName;
  /** Replaces what the font cannot draw, so a stray character never breaks a seal. */
  clean: (text: string) => string;
  width: (text: string, size: number) => number;
  /** Content-stream bytes for already cleaned text (also records glyphs for subsetting). */
  encode: (text: string) => PdfString;
};

export type SealFonts = {
  /** Unicode text font for everything that comes from users (names, e-mails, titles). */
  regular: SealFont;
  /** Standard font for our own fixed ASCII labels: costs nothing to embed. */
  bold: SealFont;
  /** Handwriting-like font for typed signatures, embedded on first use. */
  readonly script: SealFont;
  mono: SealFont;
};

const require = createRequire(import.meta.url);
// Font files ship inside npm packages (OFL-1.1), so no system font is needed at run time.
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  script: '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf',
} as const;

let fontBytes: Record<keyof typeof FONT_FILES, Uint8Array> | undefined;

// Read once per process: the files are ~0.9 MB together and sealing is repeated work.
function loadFontBytes(): Record<keyof typeof FONT_FILES, Uint8Array> {
  fontBytes ??= {
    regular: withoutGlyphNames(readFileSync(require.resolve(FONT_FILES.regular))),
    script: withoutGlyphNames(readFileSync(require.resolve(FONT_FILES.script))),
  };
  return fontBytes;
}

/** Embeds the fonts of the signature and audit pages into `pdf` (subset at save time). */
export function embedSealFonts(pdf: PDF): SealFonts {
  const bytes = loadFontBytes();
  // Each embedded font is parsed per document (several ms for Noto Sans), so only the
  // text font is embedded up front and the script font only when a typed name needs it.
  let script: SealFont | undefined;
  return {
    regular: embeddedSealFont(pdf.embedFont(bytes.regular)),
    bold: standardSealFont('Helvetica-Bold'),
    get script() {
      script ??= embeddedSealFont(pdf.embedFont(bytes.script));
      return script;
    },
    mono: standardSealFont('Courier'),
  };
}

/**
 * Turns the TrueType 'post' table into format 3 (no glyph names). Glyph names are
 * useless in an Identity-H CID font, yet parsing Noto Sans's 3,000+ of them was the
 * largest single cost of sealing a small document.
 */
function withoutGlyphNames(ttf: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(ttf);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tableCount = view.getUint16(4);
  for (let i = 0; i < tableCount; i++) {
    const record = 12 + i * 16;
    if (String.fromCharCode(...bytes.subarray(record, record + 4)) !== 'post') continue;
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (length < 32 || view.getUint32(offset) === 0x00030000) return bytes;
    view.setUint32(offset, 0x00030000);
    let checksum = 0;
    for (let at = offset; at < offset + 32; at += 4)
      checksum = (checksum + view.getUint32(at)) >>> 0;
    view.setUint32(record + 4, checksum);
    view.setUint32(record + 12, 32);
    return bytes;
  }
  return bytes;
}

function embeddedSealFont(font: EmbeddedFont): SealFont {
  const clean = (text: string): string => {
    const plain = stripControls(text);
    if (font.canEncode(plain)) return plain;
    return Array.from(plain, (char) => {
      if (font.canEncode(char)) return char;
      const base = stripDiacritics(char);
      return base !== '' && font.canEncode(base) ? base : '?';
    }).join('');
  };
  const encode = (text: string): PdfString => {
    // Identity-H: two bytes per glyph id.
    const gids = font.encodeTextToGids(text);
    const bytes = new Uint8Array(gids.length * 2);
    gids.forEach((gid, i) => {
      bytes[i * 2] = gid >> 8;
      bytes[i * 2 + 1] = gid & 0xff;
    });
    return PdfString.fromBytes(bytes);
  };
  // Measuring through the font walks its tables glyph by glyph on every call, and layout
  // measures the same characters over and over (wrapping, shrinking to fit): each character's
  // advance is looked up once. The font's measure adds no kerning, so the sum is the same.
  const advances = new Map<string, number>();
  const width = (text: string, size: number): number => {
    let total = 0;
    for (const char of text) {
      let advance = advances.get(char);
      if (advance === undefined) {
        advance = font.widthOfTextAtSize(char, 1);
        advances.set(char, advance);
      }
      total += advance;
    }
    return total * size;
  };
  return { input: font, clean, encode, width };
}

/** A standard-14 font: no embedding cost, but only Latin-1 characters survive cleaning. */
export function standardSealFont(name: Standard14FontName): SealFont {
  const metrics = Standard14Font.of(name);
  return {
    input: name,
    clean: (text) => toLatin1(stripControls(text)),
    width: (text, size) => metrics.widthOfTextAtSize(text, size),
    // WinAnsi equals Latin-1 for the characters toLatin1 keeps.
    encode: (text) =>
      PdfString.fromBytes(
        Uint8Array.from(text, (char) => Math.min(char.codePointAt(0) ?? 63, 0xff)),
      ),
  };
}

/** True when every character of `text` can be drawn by `font` as is. */
export function fontCovers(font: SealFont, text: string): boolean {
  return font.clean(text) === stripControls(text);
}

/** Cleans `text` for `font` and shortens it with "..." until it fits `maxWidth` points. */
export function fitText(font: SealFont, text: string, size: number, maxWidth: number): string {
  const clean = font.clean(text);
  if (font.width(clean, size) <= maxWidth) return clean;
  const chars = Array.from(clean);
  let low = 0;
  let high = chars.length;
  // Binary search on the prefix length: user agents can be hundreds of characters.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const candidate = `${chars.slice(0, mid).join('').trimEnd()}...`;
    if (font.width(candidate, size) <= maxWidth) low = mid;
    else high = mid - 1;
  }
  return `${chars.slice(0, low).join('').trimEnd()}...`;
}

/** Largest size in [minSize, maxSize] at which `text` fits `maxWidth`. */
export function fitSize(
  font: SealFont,
  text: string,
  maxSize: number,
  minSize: number,
  maxWidth: number,
): number {
  const widthAtOne = font.width(text, 1);
  if (widthAtOne <= 0) return maxSize;
  return Math.max(minSize, Math.min(maxSize, maxWidth / widthAtOne));
}

function stripControls(text: string): string {
  // drawText treats newlines as line breaks and control bytes render as garbage.
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

function stripDiacritics(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ŁĐØ]/g, (c) => ({ Ł: 'L', Đ: 'D', Ø: 'O' })[c] ?? c)
    .replace(/[łđø]/g, (c) => ({ ł: 'l', đ: 'd', ø: 'o' })[c] ?? c);
}

function toLatin1(text: string): string {
  return Array.from(text, (char) => {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return char;
    const base = stripDiacritics(char);
    return /^[\x20-\x7e]+$/.test(base) ? base : '?';
  }).join('');
}
