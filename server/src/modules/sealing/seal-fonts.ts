import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Standard14Font, type EmbeddedFont, type PDF, type Standard14FontName } from '@libpdf/core';

/** A font usable for drawing plus the two things layout needs: cleaning and measuring. */
export type SealFont = {
  /** What `page.drawText({ font })` takes. */
  input: EmbeddedFont | Standard14FontName;
  /** Replaces what the font cannot draw, so a stray character never breaks a seal. */
  clean: (text: string) => string;
  width: (text: string, size: number) => number;
};

export type SealFonts = {
  regular: SealFont;
  bold: SealFont;
  /** Handwriting-like font for typed signatures. */
  script: SealFont;
  mono: SealFont;
};

const require = createRequire(import.meta.url);
// Font files ship inside npm packages (OFL-1.1), so no system font is needed at run time.
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  script: '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf',
} as const;

let fontBytes: Record<keyof typeof FONT_FILES, Uint8Array> | undefined;

// Read once per process: the files are ~1.5 MB together and sealing is repeated work.
function loadFontBytes(): Record<keyof typeof FONT_FILES, Uint8Array> {
  fontBytes ??= {
    regular: new Uint8Array(readFileSync(require.resolve(FONT_FILES.regular))),
    bold: new Uint8Array(readFileSync(require.resolve(FONT_FILES.bold))),
    script: new Uint8Array(readFileSync(require.resolve(FONT_FILES.script))),
  };
  return fontBytes;
}

/** Embeds the fonts of the signature and audit pages into `pdf` (subset at save time). */
export function embedSealFonts(pdf: PDF): SealFonts {
  const bytes = loadFontBytes();
  return {
    regular: embeddedSealFont(pdf.embedFont(bytes.regular)),
    bold: embeddedSealFont(pdf.embedFont(bytes.bold)),
    script: embeddedSealFont(pdf.embedFont(bytes.script)),
    mono: standardSealFont('Courier'),
  };
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
  return { input: font, clean, width: (text, size) => font.widthOfTextAtSize(text, size) };
}

/** A standard-14 font: no embedding cost, but only WinAnsi characters survive cleaning. */
export function standardSealFont(name: Standard14FontName): SealFont {
  const metrics = Standard14Font.of(name);
  return {
    input: name,
    clean: (text) => toWinAnsi(stripControls(text)),
    width: (text, size) => metrics.widthOfTextAtSize(text, size),
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
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

function stripDiacritics(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ŁĐØ]/g, (c) => ({ Ł: 'L', Đ: 'D', Ø: 'O' })[c] ?? c)
    .replace(/[łđø]/g, (c) => ({ ł: 'l', đ: 'd', ø: 'o' })[c] ?? c);
}

// Characters of Windows-1252 beyond Latin-1, which the standard fonts can draw.
const WIN_ANSI_EXTRA = new Set(Array.from('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'));

function toWinAnsi(text: string): string {
  return Array.from(text, (char) => {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return char;
    if (WIN_ANSI_EXTRA.has(char)) return char;
    const base = stripDiacritics(char);
    return /^[\x20-\x7e]+$/.test(base) ? base : '?';
  }).join('');
}
