import {
  PDF,
  PdfArray,
  PdfDict,
  PdfName,
  PdfNull,
  PdfRef,
  PdfStream,
  PdfString,
  type PdfObject,
} from '@libpdf/core';
import { dropXfa, xfaKinds } from './active-content-xfa.js';
import type { ActiveContentKind } from './seal-types.js';

export type { ActiveContentKind } from './seal-types.js';
export { hasXfaForm } from './active-content-xfa.js';

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

// Keys that are active in whatever dictionary holds them: a script (/JS of any action, a 3D
// artwork's /OnInstantiate), the files of a file specification (/EF) and associated files
// (/AF, PDF 2.0: on the catalog, pages, annotations, structure elements, XObjects…).
const KEY_KINDS: Record<string, ActiveContentKind> = {
  JS: 'javascript',
  OnInstantiate: 'javascript',
  EF: 'embedded_files',
  AF: 'embedded_files',
};

// URI actions by the scheme of their address (see uriKind).
const URI_SCHEME_KINDS: Record<string, ActiveContentKind> = {
  javascript: 'javascript',
  vbscript: 'javascript',
  data: 'javascript',
  file: 'launch',
};

// The document-level name trees that are active as a whole, even empty.
const NAME_TREE_KINDS: Record<string, ActiveContentKind> = {
  JavaScript: 'javascript',
  EmbeddedFiles: 'embedded_files',
};

// Keys that hold an action (ISO 32000-2 §12.6.2, §12.5.6.5 for /PA), besides the entries of
// an /AA dictionary.
const ACTION_KEYS = new Set(['A', 'OpenAction', 'Next', 'PA']);

// Arrays of key/value pairs (name and number trees): a removed value becomes null, so that
// the pairs stay aligned.
const PAIR_ARRAYS = new Set(['Names', 'Nums']);

/**
 * Finds the active content a document reaches and, with `strip`, removes it in place (the
 * caller then saves it whole: what is no longer referenced is not written).
 *
 * Every object reachable from the catalog and the document information dictionary is examined
 * once, in a loop over an explicit stack with a set of objects already seen: however long an
 * action chain (/Next), a bookmark or link chain, a field tree or an annotation that no page
 * lists, nothing is left unexamined, and a cycle ends where it closes. An active action is
 * unhooked where actions are held (/OpenAction, /A, /PA, /AA triggers, /Next, name trees) and
 * is no action any more wherever else it is (its /S goes): a page or a content stream dressed
 * up as one keeps its place. Removed too: /JS wherever it is, embedded and associated files
 * (/EmbeddedFiles, /EF, /AF, file attachment annotations listed in /Annots, the /Type of
 * embedded file streams) and the XFA form (see dropXfa). Visible content, links to web
 * addresses and page destinations are left alone.
 */
export function scanActiveContent(
  pdf: PDF,
  {
    strip,
    bytes,
    vouched,
  }: {
    strip: boolean;
    /** The bytes `pdf` was loaded from: when they name nothing active, nothing is examined. */
    bytes?: Uint8Array;
    /**
     * File specifications ("num gen") a seal added and covers (its attached original, its
     * evidence): not examined, and a name tree or /AF holding only them is not counted.
     */
    vouched?: Set<string>;
  },
): ActiveContentKind[] {
  if (bytes && !namesActiveContent(bytes)) return [];
  const found = new Set<ActiveContentKind>();
  const resolve: Resolve = (obj) =>
    obj instanceof PdfRef ? (pdf.getObject(obj) ?? undefined) : obj;
  const catalog = pdf.getCatalog();
  const names = resolve(catalog.get('Names'));
  const isAction = (obj: PdfObject | undefined) => actionKind(resolve(obj), resolve) !== undefined;

  // Containers by identity: a reference resolves to the one object the document caches.
  const seen = new Set<PdfObject>();
  const stack: { container: PdfDict | PdfArray; key: string | null }[] = [];
  const isVouched = (obj: PdfObject | undefined) =>
    obj instanceof PdfRef && vouched?.has(`${obj.objectNumber} ${obj.generation}`) === true;
  const visit = (obj: PdfObject | undefined, key: string | null) => {
    if (isVouched(obj)) return;
    const value = resolve(obj);
    if (!(value instanceof PdfDict || value instanceof PdfArray) || seen.has(value)) return;
    seen.add(value);
    stack.push({ container: value, key });
  };
  visit(catalog, null);
  visit(pdf.context.info.trailer.get('Info'), null);

  while (stack.length > 0) {
    const { container, key: heldBy } = stack.pop()!;
    if (container instanceof PdfArray) {
      const entries = container.toArray();
      // Backwards, so that a removal leaves the entries still to come where they are.
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i];
        if (strip && heldBy === 'Next' && isAction(entry)) container.remove(i);
        else if (strip && heldBy !== null && PAIR_ARRAYS.has(heldBy) && isAction(entry)) {
          container.set(i, PdfNull.instance);
        } else if (strip && heldBy === 'Annots' && isFileAttachment(resolve(entry), resolve)) {
          container.remove(i);
        }
        // What a removed entry reaches is examined too, so that its kinds are all named.
        visit(entry, null);
      }
      continue;
    }
    const kind = actionKind(container, resolve);
    if (kind) {
      found.add(kind);
      if (strip) container.delete('S');
    }
    if (container instanceof PdfStream && nameOf(container, 'Type', resolve) === 'EmbeddedFile') {
      found.add('embedded_files');
      if (strip) container.delete('Type');
    }
    // A file attachment annotation that no page lists (a pop-up's /Parent) loses its file.
    const attachment = isFileAttachment(container, resolve) && container.has('FS');
    if (attachment) found.add('embedded_files');
    for (const [name, value] of [...container]) {
      const key = name.value;
      if (key === 'XFA') {
        // Its packets are streams typed /EmbeddedFile: they are the form, read as such.
        for (const xfaKind of xfaKinds(resolve(value), resolve)) found.add(xfaKind);
        if (strip) dropXfa(catalog, container);
        continue;
      }
      // With vouched files, an /AF or the embedded files' tree counts for what else it holds
      // (each other file specification's /EF does), not for being there.
      const countsWhole = !vouched?.size || (key !== 'AF' && key !== 'EmbeddedFiles');
      const keyKind = countsWhole
        ? ((container === names ? NAME_TREE_KINDS[key] : undefined) ??
          KEY_KINDS[key] ??
          (attachment && key === 'FS' ? 'embedded_files' : undefined))
        : undefined;
      if (keyKind) found.add(keyKind);
      const unhook = (ACTION_KEYS.has(key) || heldBy === 'AA') && isAction(value);
      if (strip && (keyKind || unhook)) container.delete(key);
      visit(value, key);
    }
  }
  return [...found].sort();
}

// What an action is, when it is active: by its type, or for a link by its address.
function actionKind(value: PdfObject | undefined, resolve: Resolve): ActiveContentKind | undefined {
  if (!(value instanceof PdfDict)) return undefined;
  const type = nameOf(value, 'S', resolve) ?? '';
  return type === 'URI' ? uriKind(resolve(value.get('URI'))) : ACTION_KINDS[type];
}

/** A reference's object (any other object itself), as the document resolves it. */
export type Resolve = (obj: PdfObject | undefined) => PdfObject | undefined;

// A viewer follows a reference wherever one stands, even for a name (/S 12 0 R).
function nameOf(dict: PdfDict, key: string, resolve: Resolve): string | undefined {
  const value = resolve(dict.get(key));
  return value instanceof PdfName ? value.value : undefined;
}

// A link to a web address stays; one whose address is a script, or a file on the reader's
// machine, is a script or a launch by another name. Browsers ignore whitespace and control
// characters in a scheme ("java\tscript:"), so they are ignored here too.
function uriKind(uri: PdfObject | undefined): ActiveContentKind | undefined {
  if (!(uri instanceof PdfString)) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(
    Buffer.from(uri.bytes)
      .toString('latin1')
      .replace(/[\x00-\x20\x7f]/g, ''),
  )?.[1];
  return URI_SCHEME_KINDS[scheme?.toLowerCase() ?? ''];
}

function isFileAttachment(value: PdfObject | undefined, resolve: Resolve): boolean {
  return value instanceof PdfDict && nameOf(value, 'Subtype', resolve) === 'FileAttachment';
}

// Every name that active content needs, as a prefix (see namesActiveContent); /ObjStm because
// the library reads compressed objects only from a stream of that /Type.
const MARKERS = [
  ...Object.keys(ACTION_KINDS),
  ...Object.keys(KEY_KINDS),
  ...Object.keys(NAME_TREE_KINDS),
  'EmbeddedFile',
  'FileAttachment',
  'XFA',
  'URI',
  'ObjStm',
];
const LITERAL_MARKER = new RegExp(`/(?:${MARKERS.join('|')})`);
// What ends a name (ISO 32000-2 §7.2.3): white space and delimiters.
const NAME_END = new Uint8Array(256);
for (const c of '\0\t\n\f\r ()<>[]{}/%') NAME_END[c.charCodeAt(0)] = 1;

/**
 * False when no name active content needs is in the file: then nothing in it is active, and
 * the walk, which parses every object (tens of ms for a large file), is spared. Sound because
 * every name of an uncompressed object is in the bytes as written, literally or with #xx
 * escapes (/Java#53cript), and a compressed object is read only from a stream typed /ObjStm,
 * itself a marker. A match anywhere (a revision no longer used, a page's text, binary data)
 * only means that the walk runs.
 */
function namesActiveContent(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (LITERAL_MARKER.test(text)) return true;
  // Escaped names: from each #, back to the name's start and on to its end.
  for (let at = text.indexOf('#'); at !== -1; at = text.indexOf('#', at + 1)) {
    let start = at;
    while (start > 0 && NAME_END[text.charCodeAt(start - 1)] === 0) start--;
    if (start === 0 || text[start - 1] !== '/') continue;
    let end = at;
    while (end < text.length && NAME_END[text.charCodeAt(end)] === 0) end++;
    const name = text
      .slice(start, end)
      .replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (MARKERS.some((marker) => name.startsWith(marker))) return true;
    at = end;
  }
  return false;
}

/**
 * The active content a PDF file reaches, for reports (`/api/verify`); null when the file
 * cannot be parsed or needs a password. `vouched`: see scanActiveContent.
 */
export async function findActiveContent(
  bytes: Uint8Array,
  vouched?: Set<string>,
): Promise<ActiveContentKind[] | null> {
  try {
    const pdf = await PDF.load(bytes);
    return scanActiveContent(pdf, { strip: false, bytes, vouched });
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
