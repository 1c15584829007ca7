import { inflateSync } from 'node:zlib';
import { PDF, PdfArray, PdfDict, PdfName, PdfRef, PdfStream, type PdfObject } from '@libpdf/core';
import type { Resolve } from './active-content.js';
import type { ActiveContentKind } from './seal-types.js';

// What an XFA form's XML holds that a viewer runs: scripts, and events that submit its data
// or call a web service.
const XFA_SCRIPT = /<(?:[\w.-]+:)?script[\s/>]/i;
const XFA_SUBMIT = /<(?:[\w.-]+:)?(?:submit|execute)[\s/>]/i;
const XFA_MAX_BYTES = 32 << 20;

/** True when the document has an XFA form, which the seal drops (see dropXfa). */
export function hasXfaForm(pdf: PDF): boolean {
  const form = pdf.getCatalog().get('AcroForm');
  const dict = form instanceof PdfRef ? pdf.getObject(form) : form;
  return dict instanceof PdfDict && dict.has('XFA');
}

/**
 * Removes the XFA form from `form` (the AcroForm), and the catalog's /NeedsRendering that asks
 * a viewer to draw it. Dropped whole rather than its scripts cut out of its XML: the signing
 * page renders the pages and their AcroForm fields, never the XFA (pdf.js with enableXfa off),
 * so without it the sealed copy shows in every viewer what the signees saw, values drawn
 * included, where a viewer that runs XFA would draw the form anew from its template and data.
 */
export function dropXfa(catalog: PdfDict, form: PdfDict): void {
  form.delete('XFA');
  catalog.delete('NeedsRendering');
}

/**
 * The kinds of active content an XFA form's packets (one stream, or an array of names and
 * streams) hold. A packet is inflated up to XFA_MAX_BYTES (a flate bomb is not unpacked); one
 * that is larger, or encoded otherwise, counts as a script, as nothing shows it is not one.
 */
export function xfaKinds(xfa: PdfObject | undefined, resolve: Resolve): ActiveContentKind[] {
  const packets = xfa instanceof PdfArray ? xfa.toArray().map(resolve) : [xfa];
  const kinds = new Set<ActiveContentKind>();
  for (const packet of packets) {
    if (!(packet instanceof PdfStream)) continue;
    const xml = xfaText(packet, resolve);
    if (xml === null || XFA_SCRIPT.test(xml)) kinds.add('javascript');
    if (xml !== null && XFA_SUBMIT.test(xml)) kinds.add('form_submission');
  }
  return [...kinds];
}

function xfaText(packet: PdfStream, resolve: Resolve): string | null {
  const filter = resolve(packet.get('Filter'));
  const filters = filter instanceof PdfArray ? filter.toArray().map(resolve) : [filter];
  const latin1 = (bytes: Uint8Array) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (filter === undefined) return latin1(packet.data);
  const flate =
    filters.length === 1 && filters[0] instanceof PdfName && filters[0].value === 'FlateDecode';
  if (!flate || packet.has('DecodeParms')) return null;
  try {
    return latin1(inflateSync(packet.data, { maxOutputLength: XFA_MAX_BYTES }));
  } catch {
    return null;
  }
}
