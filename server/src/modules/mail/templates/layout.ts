/** Escapes text for HTML bodies. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** Wraps e-mail content in the one shared, inline-styled HTML frame. */
export function htmlLayout(options: { lang: string; title: string; body: string }): string {
  return `<!doctype html><html lang="${escapeHtml(options.lang)}"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937;max-width:560px;margin:0 auto;padding:24px">${options.body}<p style="color:#6b7280;font-size:12px;margin-top:32px">Signet</p></body></html>`;
}

/** A prominent call-to-action link. */
export function htmlButton(href: string, label: string): string {
  return `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p><p style="font-size:12px;color:#6b7280">${escapeHtml(href)}</p>`;
}
