// Pure colour arithmetic for a tenant's brand colour, shared by the e-mails (server) and the
// signing page and dashboard preview (web): no imports, so the web bundle can take it as is.

/** A brand colour as stored: `#rrggbb`, lower case. */
export const BRAND_COLOR_PATTERN = /^#[0-9a-f]{6}$/i;

/** Ink that reads on white when the brand colour does not (Signet's own ink). */
const DARK_INK = '#17202e';

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(rgb: number[]): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2 relative luminance of a `#rrggbb` colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * White or black, whichever contrasts more with `background`: the text of a button filled
 * with the brand colour. Whatever colour a tenant picks, its buttons stay readable (the better
 * of the two is at least 4.58:1 against any colour).
 */
export function inkOn(background: string): '#ffffff' | '#000000' {
  return contrastRatio(background, '#ffffff') >= contrastRatio(background, '#000000')
    ? '#ffffff'
    : '#000000';
}

/**
 * The brand colour where it is text on white (links, small headings), when it reads there
 * (4.5:1, WCAG AA); otherwise Signet's dark ink: a pale yellow brand stays on its buttons.
 */
export function textColorOnWhite(color: string): string {
  return contrastRatio(color, '#ffffff') >= 4.5 ? color.toLowerCase() : DARK_INK;
}

/** `color` mixed with white, `amount` of the colour (0 to 1): soft backgrounds. */
export function tint(color: string, amount: number): string {
  return toHex(channels(color).map((c) => 255 - (255 - c) * amount));
}

/** `color` mixed with black, keeping `amount` of it: the hover shade of a filled button. */
export function shade(color: string, amount: number): string {
  return toHex(channels(color).map((c) => c * amount));
}

/** The CSS custom properties a page sets to wear the brand colour (see base.css). */
export function brandColorVariables(color: string): Record<string, string> {
  return {
    '--accent': color.toLowerCase(),
    '--accent-ink': inkOn(color),
    '--accent-soft': tint(color, 0.12),
    '--accent-hover': shade(color, 0.85),
    '--accent-text': textColorOnWhite(color),
  };
}
