import type { AuditEntry } from './types.js';

// A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`) or whose leading tab or
// carriage return hides one: a signee's User-Agent such as `=cmd|' /C calc'!A0` is whatever
// their browser sent. Prefixed with a single quote, as OWASP's CSV injection advice says, the
// spreadsheet shows it as text.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula starts neutralised, quoted when it holds a quote, comma or line break. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * An e-mail entry's recipient address and kind of e-mail (`invitation`, `reminder`, …), from
 * its details; empty for other entries and for what an older entry did not record.
 */
export function emailOf(entry: AuditEntry): { to: string; kind: string } | null {
  if (entry.action !== 'e-mailed' && entry.action !== 'e-mail failed') return null;
  const to = entry.details?.to;
  if (typeof to !== 'string') return null;
  const kind = entry.details?.kind;
  return { to, kind: typeof kind === 'string' ? kind : '' };
}

/**
 * The audit trail as CSV text: a header row, then one row per entry. The recipient columns come
 * last, so the columns before them keep their places in files read by position.
 */
export function auditCsv(entries: AuditEntry[]): string {
  const rows = [
    ['time', 'action', 'actor', 'signeeId', 'ip', 'userAgent', 'details', 'recipient', 'emailKind'],
    ...entries.map((e) => [
      e.createdAt,
      e.action,
      e.actor,
      e.signeeId,
      e.ip,
      e.userAgent,
      e.details ? JSON.stringify(e.details) : '',
      emailOf(e)?.to,
      emailOf(e)?.kind,
    ]),
  ];
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n');
}
