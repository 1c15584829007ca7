import { PDF, PdfArray, PdfDict, PdfRef, type PdfObject } from '@libpdf/core';
import type { ActiveContentKind } from './seal-types.js';

export type { ActiveContentKind } from './seal-types.js';

// Action types (ISO 32000-2 §12.6.4) and what each counts as. Rendition and RichMediaExecute
// may carry or start scripts; GoToE opens an embedded file.
const ACTION_KINDS: Record<string, ActiveContentKind> = {
  JavaScript: 'javascript',
  Rendition: 'javascript',
  RichMediaExecute: 'javascript',
  Launch: 'launch',
  GoToR: 'launch',
  SubmitForm: 'form_submission',
  ImportData: 'form_submission',
  GoToE: 'embedded_files',
};

// A hostile file may nest or chain without end: past these counts the walk stops.
const MAX_VISITS = 200_000;
const MAX_ACTION_CHAIN = 64;

/**
 * Finds the active content that a document's catalog, pages, annotations, form fields and
 * bookmarks reach and, with `strip`, removes every reference to it in place (the caller then
 * saves, incrementally: the bytes of the original stay as its first revision, unreferenced).
 * Visible content, links to web addresses and page destinations are left alone.
 */
export function scanActiveContent(pdf: PDF, { strip }: { strip: boolean }): ActiveContentKind[] {
  const found = new Set<ActiveContentKind>();
  let visits = 0;
  const resolve = (obj: PdfObject | undefined): PdfObject | undefined =>
    obj instanceof PdfRef ? (pdf.getObject(obj) ?? undefined) : obj;
  const dict = (obj: PdfObject | undefined) => {
    const value = resolve(obj);
    return value instanceof PdfDict ? value : undefined;
  };
  const budget = () => ++visits <= MAX_VISITS;

  // The kinds an action and the actions chained after it (/Next) amount to.
  const actionKinds = (action: PdfObject | undefined): ActiveContentKind[] => {
    const kinds: ActiveContentKind[] = [];
    const queue: (PdfObject | undefined)[] = [action];
    for (let n = 0; queue.length > 0 && n < MAX_ACTION_CHAIN && budget(); n++) {
      const value = resolve(queue.shift());
      if (value instanceof PdfArray) {
        queue.push(...value.toArray());
        continue;
      }
      if (!(value instanceof PdfDict)) continue;
      const kind = ACTION_KINDS[value.getName('S')?.value ?? ''];
      if (kind) kinds.push(kind);
      queue.push(value.get('Next'));
    }
    return kinds;
  };

  // Removes `key` from `owner` when the action there is active. Changes to a direct
  // dictionary mark its indirect holder as changed, so the incremental save writes it.
  const checkAction = (owner: PdfDict, key: string) => {
    const kinds = actionKinds(owner.get(key));
    if (kinds.length === 0) return;
    for (const kind of kinds) found.add(kind);
    if (strip) owner.delete(key);
  };
  // Additional actions (/AA): triggers on open, close, print, page view, focus, keystroke…
  const checkTriggers = (owner: PdfDict) => {
    const triggers = dict(owner.get('AA'));
    if (!triggers) return;
    for (const [name] of [...triggers]) checkAction(triggers, name.value);
    if (strip && triggers.size === 0) owner.delete('AA');
  };

  const catalog = pdf.getCatalog();
  checkAction(catalog, 'OpenAction');
  checkTriggers(catalog);

  const names = dict(catalog.get('Names'));
  for (const [key, kind] of [
    ['JavaScript', 'javascript'],
    ['EmbeddedFiles', 'embedded_files'],
  ] as const) {
    if (!names?.has(key)) continue;
    found.add(kind);
    if (strip) names.delete(key);
  }

  for (const page of pdf.getPages()) {
    if (!budget()) break;
    checkTriggers(page.dict);
    const annots = resolve(page.dict.get('Annots'));
    if (!(annots instanceof PdfArray)) continue;
    for (let i = annots.length - 1; i >= 0 && budget(); i--) {
      const annot = dict(annots.at(i));
      if (!annot) continue;
      if (annot.getName('Subtype')?.value === 'FileAttachment') {
        found.add('embedded_files');
        if (strip) annots.remove(i);
        continue;
      }
      checkAction(annot, 'A');
      checkTriggers(annot);
    }
  }

  // Form fields not merged with a widget carry their own triggers (keystroke, format…).
  const form = dict(catalog.get('AcroForm'));
  const fieldQueue: PdfObject[] =
    form?.getArray('Fields', (ref) => pdf.getObject(ref))?.toArray() ?? [];
  const seen = new Set<PdfDict>();
  while (fieldQueue.length > 0 && budget()) {
    const field = dict(fieldQueue.shift());
    if (!field || seen.has(field)) continue;
    seen.add(field);
    checkTriggers(field);
    const kids = resolve(field.get('Kids'));
    if (kids instanceof PdfArray) fieldQueue.push(...kids.toArray());
  }

  // Bookmarks: each item may act when clicked.
  const outlines = dict(catalog.get('Outlines'));
  const outlineQueue: (PdfObject | undefined)[] = [outlines?.get('First')];
  const seenItems = new Set<PdfDict>();
  while (outlineQueue.length > 0 && budget()) {
    const item = dict(outlineQueue.shift());
    if (!item || seenItems.has(item)) continue;
    seenItems.add(item);
    checkAction(item, 'A');
    outlineQueue.push(item.get('First'), item.get('Next'));
  }

  return [...found].sort();
}

/**
 * The active content a PDF file reaches, for reports (`/api/verify`); null when the file
 * cannot be parsed or needs a password.
 */
export async function findActiveContent(bytes: Uint8Array): Promise<ActiveContentKind[] | null> {
  try {
    const pdf = await PDF.load(bytes);
    return scanActiveContent(pdf, { strip: false });
  } catch {
    return null;
  }
}

const LABELS: Record<ActiveContentKind, string> = {
  javascript: 'JavaScript',
  launch: 'launch actions',
  form_submission: 'form submission actions',
  embedded_files: 'embedded files',
};

/** "JavaScript and embedded files". */
export function describeActiveContent(kinds: ActiveContentKind[]): string {
  const labels = kinds.map((kind) => LABELS[kind]);
  return labels.length <= 1
    ? (labels[0] ?? '')
    : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}
