import type { PDF, PDFPage } from '@libpdf/core';
import { createPageCanvas, type PageCanvas, type Rgb } from './page-canvas.js';
import { fitSize, fitText, fontCovers, type SealFont, type SealFonts } from './seal-fonts.js';
import { describeActiveContent, type ActiveContentKind } from './active-content.js';
import type { SealAuditEntry, SealField, SealSignature } from './seal-types.js';
import { wrap } from './seal-fields.js';
import { verificationLine } from './verification-evidence.js';
import {
  format,
  formatDateTime,
  messages,
  textDirection,
  type Catalogue,
} from '../../i18n/index.js';
import { mirroredCanvas } from './rtl-canvas.js';

type SealMessages = Catalogue['seal'];

export type PageSize = { width: number; height: number };

export type PagesContext = {
  pdf: PDF;
  fonts: SealFonts;
  size: PageSize;
  documentName: string;
  documentId: string;
  /** The document's language: headings, labels and times on these pages. */
  language: string;
  /** Called on every page this module adds, with its canvas, before anything is drawn on it. */
  decorate: (page: PDFPage, canvas: PageCanvas) => void;
};

const MARGIN = 50;
const TOP_GAP = 40; // leaves room for the sandbox banner above the title
const FOOTER_Y = 34;
const TEXT: Rgb = [0.1, 0.1, 0.1];
const MUTED: Rgb = [0.42, 0.42, 0.42];
const RULE: Rgb = [0.75, 0.75, 0.75];
const INK: Rgb = [0.05, 0.12, 0.4];
const SIGNATURE_BLOCK = 118;
const AUDIT_ROW = 27;
const FIELD_ROW = 14;
const SIGNEE_ROW = 17;

/** Appends the signature page(s): each signature's image or typed name, name, e-mail and time. */
export function addSignaturePages(ctx: PagesContext, signatures: SealSignature[]): void {
  const { fonts, size } = ctx;
  const m = messages(ctx.language).seal;
  const contentWidth = size.width - 2 * MARGIN;
  let page = startPage(ctx, m.signatures);
  let y = page.y;
  if (signatures.length === 0) {
    write(page.canvas, fonts.regular, m.noSignatures, MARGIN, y - 14, 10, MUTED);
  }
  for (const [index, signature] of signatures.entries()) {
    if (y - SIGNATURE_BLOCK < FOOTER_Y + 20) {
      page.canvas.flush();
      page = startPage(ctx, m.signatures, true);
      y = page.y;
    }
    const { canvas } = page;
    const top = y - 8;
    canvas.rectangle(
      MARGIN,
      top - SIGNATURE_BLOCK + 12,
      contentWidth,
      SIGNATURE_BLOCK - 12,
      RULE,
      0.75,
    );
    const area = { x: MARGIN + 12, y: top - 86, width: contentWidth * 0.48, height: 62 };
    const method = drawSignatureMark(ctx, canvas, signature, area);
    canvas.line(area.x, area.y - 4, area.x + area.width, area.y - 4, RULE, 0.75);
    const textX = MARGIN + contentWidth * 0.56;
    const width = MARGIN + contentWidth - textX - 10;
    write(canvas, fonts.bold, format(m.signer, { n: index + 1 }), textX, top - 24, 8, MUTED, width);
    write(canvas, fonts.regular, signature.name, textX, top - 40, 12, TEXT, width);
    write(canvas, fonts.regular, signature.email, textX, top - 56, 10, TEXT, width);
    // The time is written whole, its zone named: a long one (Spanish, German) in smaller type.
    const signedAt = format(m.signedAt, { time: formatDateTime(signature.signedAt, ctx.language) });
    // Rounded down to a tenth: the exact fit can miss by a rounding error and be cut short.
    const fit =
      Math.floor(10 * fitSize(fonts.regular, fonts.regular.clean(signedAt), 9, 7, width)) / 10;
    write(canvas, fonts.regular, signedAt, textX, top - 72, fit, TEXT, width);
    write(canvas, fonts.regular, method, textX, top - 86, 8, MUTED, width);
    y -= SIGNATURE_BLOCK;
  }
  page.canvas.flush();
}

/** Appends the audit certificate page(s): document identity, the original's SHA-256 and every trail row. */
export function addAuditPages(
  ctx: PagesContext,
  details: {
    originalSha256: string;
    sealedAt: Date;
    sealSubject: string;
    sealFingerprint: string;
    removedActiveContent: ActiveContentKind[];
    /** How the sealed file was made (its seal mode, explained). */
    sealMode: string;
    /** The seal's PAdES level, and when lower than asked for, which and why. */
    sealLevel?: { level: string; requested?: string; reason?: string };
    /** Further facts after these (the standalone certificate's: audit-certificate.ts). */
    more?: Array<{ label: string; value: string; mono?: boolean }>;
  },
  entries: SealAuditEntry[],
  fields: SealField[] = [],
): void {
  const { fonts, size } = ctx;
  const m = messages(ctx.language).seal;
  const time = (iso: string) => formatDateTime(iso, ctx.language);
  const contentWidth = size.width - 2 * MARGIN;
  const columns = auditColumns(
    contentWidth,
    m,
    timeWidth(
      fonts.regular,
      entries.map((e) => time(e.at)),
      8,
    ),
  );
  let page = startPage(ctx, m.auditCertificate);
  let y = page.y;
  const facts: Array<[string, string, SealFont]> = [
    [m.originalSha256, details.originalSha256, fonts.mono],
    [m.sealed, time(details.sealedAt.toISOString()), fonts.regular],
    [m.sealedBy, details.sealSubject, fonts.regular],
    [m.sealFingerprint, details.sealFingerprint, fonts.mono],
    [m.sealedAs, details.sealMode, fonts.regular],
  ];
  const level = details.sealLevel;
  if (level) {
    const text = level.requested ? m.sealLevelLower : m.sealLevelValue;
    facts.push([
      m.sealLevel,
      format(text, { ...level, requested: level.requested ?? '', reason: level.reason ?? '' }),
      fonts.regular,
    ]);
  }
  if (details.removedActiveContent.length > 0) {
    const removed = describeActiveContent(details.removedActiveContent);
    facts.push([m.removedBeforeSealing, format(m.removedNote, { removed }), fonts.regular]);
  }
  for (const fact of details.more ?? []) {
    facts.push([fact.label, fact.value, fact.mono ? fonts.mono : fonts.regular]);
  }
  for (const [label, value, font] of facts) {
    write(page.canvas, fonts.bold, label, MARGIN, y - 12, 8, MUTED);
    const lines = wrap(font, font.clean(value), 8, contentWidth - 120).slice(0, 4);
    lines.forEach((line, i) => {
      write(page.canvas, font, line, MARGIN + 120, y - 12 - i * 10, 8, TEXT, contentWidth - 120);
    });
    y -= 14 + 10 * (lines.length - 1);
  }
  const tableHeader = (canvas: PageCanvas, top: number): number => {
    for (const column of columns) {
      write(canvas, fonts.bold, column.title, column.x, top - 10, 8, MUTED, column.width);
    }
    canvas.line(MARGIN, top - 15, size.width - MARGIN, top - 15, RULE, 0.75);
    return top - 18;
  };
  y = tableHeader(page.canvas, y - 12);
  if (entries.length === 0) write(page.canvas, fonts.regular, m.noEvents, MARGIN, y - 12, 9, MUTED);
  for (const entry of entries) {
    if (y - AUDIT_ROW < FOOTER_Y + 16) {
      page.canvas.flush();
      page = startPage(ctx, m.auditCertificate, true);
      // Every audit page names the original's hash, so any single page identifies it.
      write(page.canvas, fonts.bold, m.originalSha256, MARGIN, page.y - 12, 8, MUTED);
      write(page.canvas, fonts.mono, details.originalSha256, MARGIN + 120, page.y - 12, 8, TEXT);
      y = tableHeader(page.canvas, page.y - 26);
    }
    const action = (m.actions as Record<string, string>)[entry.action] ?? entry.action;
    const actor = entry.actor === 'sender' ? m.sender : entry.actor;
    const values = [time(entry.at), action, actor, entry.ip ?? '-'];
    columns.forEach((column, i) => {
      write(page.canvas, fonts.regular, values[i], column.x, y - 10, 8, TEXT, column.width - 6);
    });
    let agent = format(m.userAgent, { agent: entry.userAgent ?? '-' });
    // An e-mail's recipient leads its second line; entries without one keep the line as it was.
    if (entry.email) agent = `${emailLine(entry.email, m)} · ${agent}`;
    // A verification names its method (and who vouched for an identity) before the browser.
    if (entry.verification) agent = `${verificationLine(entry.verification, m)} · ${agent}`;
    write(page.canvas, fonts.regular, agent, MARGIN, y - 20, 6.5, MUTED, contentWidth);
    y -= AUDIT_ROW;
  }
  if (fields.length > 0) {
    // Every field and its value, under who filled it, and when: the values drawn on the pages,
    // in writing. A signee's name and address head their fields, whole, rather than being cut
    // to fit a column on every row.
    const times = new Map<string, string>();
    const filled = fields.map((f) => {
      if (!f.filledAt) return '-';
      let at = times.get(f.filledAt);
      if (at === undefined) times.set(f.filledAt, (at = time(f.filledAt)));
      return at;
    });
    const fieldColumns = tableColumns(
      contentWidth,
      [
        [m.field, 0.3],
        [m.value, 0.45],
        [m.time, 0.25],
      ],
      { index: 2, width: timeWidth(fonts.regular, [...times.values(), '-'], 7.5), from: 1 },
    );
    const fieldHeader = (canvas: PageCanvas, top: number): number => {
      write(canvas, fonts.bold, m.fields, MARGIN, top - 12, 10, TEXT);
      for (const column of fieldColumns) {
        write(canvas, fonts.bold, column.title, column.x, top - 26, 8, MUTED, column.width);
      }
      canvas.line(MARGIN, top - 31, size.width - MARGIN, top - 31, RULE, 0.75);
      return top - 34;
    };
    // A page of the table goes on: the table's title and columns again.
    const nextPage = (): number => {
      page.canvas.flush();
      page = startPage(ctx, m.auditCertificate, true);
      return fieldHeader(page.canvas, page.y);
    };
    const signeeRow = (top: number, field: SealField): number => {
      const [label, rest] = [fieldColumns[0], fieldColumns[1]];
      const who = `${field.signeeName} <${field.signeeEmail}>`;
      const whoWidth = contentWidth - rest.x + MARGIN;
      write(page.canvas, fonts.bold, m.filledBy, label.x, top - 12, 7.5, MUTED, label.width - 6);
      write(page.canvas, fonts.bold, who, rest.x, top - 12, 7.5, TEXT, whoWidth);
      return top - SIGNEE_ROW;
    };
    if (y - 34 - SIGNEE_ROW - FIELD_ROW < FOOTER_Y + 16) {
      page.canvas.flush();
      page = startPage(ctx, m.auditCertificate, true);
      y = page.y;
    }
    y = fieldHeader(page.canvas, y - 8);
    for (const group of bySignee(fields)) {
      if (y - SIGNEE_ROW - FIELD_ROW < FOOTER_Y + 16) y = nextPage();
      y = signeeRow(y, fields[group[0]]);
      for (const index of group) {
        const field = fields[index];
        // A page that goes on with a signee's fields names the signee again.
        if (y - FIELD_ROW < FOOTER_Y + 16) y = signeeRow(nextPage(), field);
        const typeName = (m.fieldTypes as Record<string, string>)[field.type] ?? field.type;
        const name = format(m.fieldOnPage, { name: field.label ?? typeName, page: field.page });
        const values = [name, describeValue(field, m), filled[index]];
        const { canvas } = page;
        fieldColumns.forEach((column, i) => {
          write(canvas, fonts.regular, values[i], column.x, y - 10, 7.5, TEXT, column.width - 6);
        });
        y -= FIELD_ROW;
      }
    }
  }
  page.canvas.flush();
}

// The fields' indexes by who filled them, the signees in the order their first field comes.
function bySignee(fields: SealField[]): number[][] {
  const groups = new Map<string, number[]>();
  fields.forEach((field, index) => {
    const key = `${field.signeeEmail}\n${field.signeeName}`;
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  });
  return [...groups.values()];
}

// Who an e-mail entry was sent to, and what it was: "To: bob@example.com (invitation)".
function emailLine(email: { to: string; kind: string | null }, m: SealMessages): string {
  const to = format(m.emailTo, { to: email.to });
  if (!email.kind) return to;
  return `${to} (${(m.emailKinds as Record<string, string>)[email.kind] ?? email.kind})`;
}

// How a field's value reads on the certificate.
function describeValue(field: SealField, m: SealMessages): string {
  if (field.value === null) return m.empty;
  if (field.type === 'checkbox') return field.value ? m.ticked : m.notTicked;
  if (field.type === 'signature' || field.type === 'initials') {
    if (field.mark?.image && field.value === 'uploaded') return m.uploadedMark[field.type];
    return field.mark?.image
      ? m.drawnMark[field.type]
      : format(m.typedMark, { text: String(field.value) });
  }
  return String(field.value);
}

function auditColumns(
  width: number,
  m: SealMessages,
  time: number,
): Array<{ title: string; x: number; width: number }> {
  return tableColumns(
    width,
    [
      [m.time, 0.24],
      [m.action, 0.16],
      [m.actor, 0.4],
      [m.ip, 0.2],
    ],
    { index: 0, width: time, from: 2 },
  );
}

// The width a column of times needs: its widest time and the cell's gap, at most 40% of the
// table (a time is written whole, `27 de septiembre de 2026, 14:05:09 UTC`; docs/signing.md).
function timeWidth(font: SealFont, times: string[], size: number): number {
  return Math.max(0, ...times.map((t) => font.width(font.clean(t), size) + 8));
}

// Columns by shares of the width; `fixed` gives one column at least its own width (at most 40%
// of the table), taken from the `from` column (the widest, whose long values are cut anyway).
function tableColumns(
  width: number,
  shares: Array<[string, number]>,
  fixed?: { index: number; width: number; from: number },
): Array<{ title: string; x: number; width: number }> {
  const cells = shares.map(([, share]) => width * share);
  if (fixed) {
    const own = Math.min(Math.max(fixed.width, cells[fixed.index]), width * 0.4);
    cells[fixed.from] -= own - cells[fixed.index];
    cells[fixed.index] = own;
  }
  let x = MARGIN;
  return shares.map(([title], i) => {
    const column = { title, x, width: cells[i] };
    x += cells[i];
    return column;
  });
}

function startPage(
  ctx: PagesContext,
  heading: string,
  continued = false,
): { canvas: PageCanvas; y: number } {
  const m = messages(ctx.language).seal;
  const title = continued ? format(m.continued, { title: heading }) : heading;
  const page = ctx.pdf.addPage({ width: ctx.size.width, height: ctx.size.height });
  const plain = createPageCanvas(ctx.pdf, page);
  ctx.decorate(page, plain);
  // Arabic pages are laid out right to left: the same layout, mirrored (rtl-canvas.ts).
  const rtl = textDirection(ctx.language) === 'rtl';
  const canvas = rtl ? mirroredCanvas(plain, ctx.size.width) : plain;
  const { fonts, size } = ctx;
  const contentWidth = size.width - 2 * MARGIN;
  let y = size.height - MARGIN - TOP_GAP;
  write(canvas, fonts.bold, title, MARGIN, y, 18, TEXT, contentWidth);
  y -= 20;
  const documentLine = format(m.document, { name: ctx.documentName });
  write(canvas, fonts.regular, documentLine, MARGIN, y, 10, TEXT, contentWidth);
  y -= 14;
  const idLine = format(m.documentId, { id: ctx.documentId });
  write(canvas, fonts.regular, idLine, MARGIN, y, 9, MUTED, contentWidth);
  y -= 10;
  canvas.line(MARGIN, y, size.width - MARGIN, y, RULE, 0.75);
  const footer = format(m.footer, { title: heading, id: ctx.documentId });
  write(canvas, fonts.regular, footer, MARGIN, FOOTER_Y, 7, MUTED, contentWidth);
  return { canvas, y: y - 6 };
}

type Area = { x: number; y: number; width: number; height: number };

// Returns a line describing how the signature was captured.
function drawSignatureMark(
  ctx: PagesContext,
  canvas: PageCanvas,
  signature: SealSignature,
  area: Area,
): string {
  if (signature.image && signature.image.length > 0) {
    try {
      const image = ctx.pdf.embedPng(signature.image);
      const scale = Math.min(area.width / image.width, area.height / image.height);
      const width = image.width * scale;
      const height = image.height * scale;
      canvas.image(image, area.x, area.y + (area.height - height) / 2, width, height);
      return messages(ctx.language).seal.drawnSignature;
    } catch {
      // An unreadable image must not block sealing forever: fall back to the typed form,
      // and say so on the page.
      drawTyped(ctx, canvas, signature, area);
      return messages(ctx.language).seal.drawnUnreadable;
    }
  }
  drawTyped(ctx, canvas, signature, area);
  return messages(ctx.language).seal.typedSignature;
}

function drawTyped(
  ctx: PagesContext,
  canvas: PageCanvas,
  signature: SealSignature,
  area: Area,
): void {
  const text = (signature.typedName ?? '').trim() || signature.name;
  // Caveat has no glyphs outside Latin/Cyrillic: keep such names legible in the text font.
  const font = fontCovers(ctx.fonts.script, text) ? ctx.fonts.script : ctx.fonts.regular;
  const clean = font.clean(text);
  const size = fitSize(font, clean, 34, 9, area.width);
  write(canvas, font, clean, area.x, area.y + area.height / 2 - size / 3, size, INK, area.width);
}

function write(
  canvas: PageCanvas,
  font: SealFont,
  text: string,
  x: number,
  y: number,
  size: number,
  color: Rgb = TEXT,
  maxWidth?: number,
): void {
  const line = maxWidth === undefined ? font.clean(text) : fitText(font, text, size, maxWidth);
  canvas.text(font, line, x, y, size, color);
}
