import { textDirection } from '../../../i18n/index.js';
import { brandFooterText, brandHeaderHtml, buttonColors, type EmailBrand } from './brand-layout.js';

/** Escapes text for HTML bodies. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/**
 * Wraps e-mail content in the one shared, inline-styled HTML frame; a tenant's brand
 * (brand-layout.ts) adds its header and names itself in the footer. A language written right to
 * left (Arabic) sets `dir="rtl"` on <html> and <body> and aligns the text right in the body's own
 * style too, for clients that drop the attributes.
 */
export function htmlLayout(options: {
  lang: string;
  title: string;
  body: string;
  brand?: EmailBrand | null;
}): string {
  const dir = textDirection(options.lang);
  const align = dir === 'rtl' ? 'direction:rtl;text-align:right;' : '';
  return `<!doctype html><html lang="${escapeHtml(options.lang)}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title></head><body dir="${dir}" style="${align}font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937;max-width:560px;margin:0 auto;padding:24px">${brandHeaderHtml(options.brand, dir)}${options.body}<p style="color:#6b7280;font-size:12px;margin-top:32px">${escapeHtml(brandFooterText(options.brand))}</p></body></html>`;
}

/** A prominent call-to-action link, in the brand's colour when there is one. */
export function htmlButton(href: string, label: string, brand?: EmailBrand | null): string {
  const colors = buttonColors(brand);
  return `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:${colors.background};color:${colors.text};padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p><p style="font-size:12px;color:#6b7280">${escapeHtml(href)}</p>`;
}
