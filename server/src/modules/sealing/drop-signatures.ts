import { PdfArray, PdfDict, PdfName, PdfNumber, PdfRef, PdfString, type PDF } from '@libpdf/core';

// The signature field's one method used here, missing from the library's FormField type.
type SignatureField = { isSigned: () => boolean };

/**
 * The original's signatures cannot survive its rewrite: their /ByteRange would name bytes of
 * another file, and a validator would list them, broken. Each signed field leaves the form
 * (its signature dictionary is then not written) with its widgets; a visible one comes back as
 * a locked stamp with the same appearance, so the page shows what the signees saw, as a
 * picture no viewer offers as a signature or for signing, its text saying why. Their
 * validation data (the DSS) goes too. The audit certificate says they could not be kept.
 */
export function dropSignatures(pdf: PDF): void {
  const form = pdf.getForm();
  for (const field of form?.getFields() ?? []) {
    if (field.type !== 'signature' || !(field as unknown as SignatureField).isSigned()) continue;
    const visible = field
      .getWidgets()
      .filter((w) => w.width > 0 && w.height > 0 && w.dict.has('AP') && w.ref && w.pageRef);
    form!.removeField(field);
    for (const widget of visible) {
      const page = pdf.getObject(widget.pageRef!);
      if (!(page instanceof PdfDict)) continue;
      for (const key of FIELD_KEYS) widget.dict.delete(key);
      widget.dict.set('Subtype', PdfName.of('Stamp'));
      widget.dict.set('F', PdfNumber.of(LOCKED_PICTURE));
      widget.dict.set('Contents', PdfString.fromString(KEPT_AS_PICTURE));
      const annots = page.get('Annots');
      const list = annots instanceof PdfRef ? pdf.getObject(annots) : annots;
      if (list instanceof PdfArray) list.push(widget.ref!);
      else page.set('Annots', new PdfArray([widget.ref!]));
    }
  }
  pdf.getCatalog().delete('DSS');
}

// What makes a widget a field's, or interactive.
const FIELD_KEYS = [
  'FT',
  'T',
  'TU',
  'TM',
  'V',
  'DV',
  'Ff',
  'Lock',
  'SV',
  'Parent',
  'Kids',
  'A',
  'AA',
  'MK',
];
// Annotation flags: print (4), read-only (64), locked (128), locked contents (512).
const LOCKED_PICTURE = 708;
const KEPT_AS_PICTURE =
  'The appearance of a signature that could not be kept: the original had to be repaired.';
