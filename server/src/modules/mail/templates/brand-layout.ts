import { inkOn, textColorOnWhite } from '../../tenants/brand-colors.js';
import { escapeHtml } from './layout.js';
import { displayValue } from './untrusted.js';

/**
 * A tenant's brand as its documents' e-mails wear it (decisions §13): its name, its validated
 * `#rrggbb` colour and its logo's absolute URL and size; null parts fall back to Signet's.
 */
export type EmailBrand = {
  name: string | null;
  color: string | null;
  logoUrl: string | null;
  logoSize?: { width: number; height: number } | null;
};

/** Signet's own button colour, where no brand colour is set. */
const SIGNET_BLUE = '#1d4ed8';
// The logo is stored at most 400 x 120 and shown at half that: sharp on high-density screens.
const LOGO_BOX = { width: 200, height: 60 };
// Only ever a colour we validated; anything else (a stored value from elsewhere) is Signet's.
const safeColor = (color: string | null | undefined) =>
  color && /^#[0-9a-f]{6}$/i.test(color) ? color.toLowerCase() : null;

/**
 * The brand's name as e-mails show it: bounded, one line, nothing a mail client would make a
 * link of (displayValue), or null. A brand is the sender's choice, like a tenant name.
 */
export function brandNameOf(brand: EmailBrand | null | undefined): string | null {
  return brand?.name ? displayValue(brand.name) : null;
}

/** The colours of a button: the brand's with white or black text, whichever reads better. */
export function buttonColors(brand: EmailBrand | null | undefined) {
  const background = safeColor(brand?.color) ?? SIGNET_BLUE;
  return { background, text: inkOn(background) };
}

/** The colour of a link in running text: the brand's when it reads on white. */
export function linkColor(brand: EmailBrand | null | undefined): string {
  const color = safeColor(brand?.color);
  return color ? textColorOnWhite(color) : SIGNET_BLUE;
}

// The logo at its stored proportions within LOGO_BOX (mail clients ignore max-height).
function logoDimensions(size: EmailBrand['logoSize']) {
  if (!size || size.width <= 0 || size.height <= 0) return { width: null, height: LOGO_BOX.height };
  const scale = Math.min(1, LOGO_BOX.width / size.width, LOGO_BOX.height / size.height);
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

/**
 * The header of a branded e-mail: the logo and/or the name over a rule in the brand's colour;
 * empty for an e-mail without a brand (Signet's look, as before). Every value escaped. Right to
 * left, the logo stands at the right and the name to its left (mail clients ignore the logical
 * CSS properties, so the sides are named).
 */
export function brandHeaderHtml(
  brand: EmailBrand | null | undefined,
  dir: 'ltr' | 'rtl' = 'ltr',
): string {
  const start = dir === 'rtl' ? 'right' : 'left';
  const name = brandNameOf(brand);
  const color = safeColor(brand?.color);
  const logoUrl = brand?.logoUrl && /^https?:\/\//.test(brand.logoUrl) ? brand.logoUrl : null;
  if (!name && !logoUrl && !color) return '';
  const size = logoDimensions(brand?.logoSize);
  const logo = logoUrl
    ? `<img src="${escapeHtml(logoUrl)}" alt="${escapeHtml(name ?? '')}"${size.width ? ` width="${size.width}"` : ''} height="${size.height}" style="display:block;border:0;${size.width ? `width:${size.width}px;` : ''}height:${size.height}px">`
    : '';
  const title = name
    ? `<span style="font-size:18px;font-weight:700;color:#111827">${escapeHtml(name)}</span>`
    : '';
  const cells = [logo, title]
    .filter(Boolean)
    // The last cell takes the rest of the row, so the name sits next to the logo.
    .map(
      (c, i, all) =>
        `<td style="vertical-align:middle;text-align:${start}${i > 0 ? `;padding-${start}:12px` : ''}${i === all.length - 1 ? ';width:100%' : ''}">${c}</td>`,
    )
    .join('');
  const rule = color ?? '#e5e7eb';
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-bottom:3px solid ${rule};margin-bottom:20px;padding-bottom:12px"><tr>${cells || '<td></td>'}</tr></table>`;
}

/** The footer line: Signet, after the brand's name when there is one. */
export function brandFooterText(brand: EmailBrand | null | undefined): string {
  const name = brandNameOf(brand);
  return name ? `${name} · Signet` : 'Signet';
}

/** The first lines of a branded e-mail's text part: its brand's name, or nothing. */
export function brandTextHeader(brand: EmailBrand | null | undefined): string[] {
  const name = brandNameOf(brand);
  return name ? [name, ''] : [];
}
