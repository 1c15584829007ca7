// Documenso's published sealing pipeline as it stood before it moved to @libpdf/core (its
// repository at the parent of commit 9035240b4, January 2026: packages/lib/jobs/definitions/
// internal/seal-document.handler.ts, packages/lib/server-only/pdf/{flatten-form,
// flatten-annotations,normalize-signature-appearances,insert-field-in-pdf-v1}.ts and
// packages/signing/{transports/local-cert,helpers/add-signing-placeholder,
// helpers/update-signing-placeholder}.ts), condensed, with the versions its lock file held:
// @cantoo/pdf-lib 2.5.3, @pdf-lib/fontkit 1.1.1 and @documenso/pdf-sign 0.1.0 (Rust, its
// linux-x64 binary prebuilt inside npm).
//
// As far as it runs here: its certificate and audit-log pages are drawn by Konva onto
// skia-canvas (or printed by Playwright's Chromium), whose install downloads a binary from
// outside the registry; here the same pages are drawn with @cantoo/pdf-lib text in the same
// Noto Sans, then copied in as Documenso copies its rendered pages. Fields are inserted the v1
// way (pdf-lib text; v2 renders an overlay through Konva too). Fonts come from memory, where
// Documenso fetches them over HTTP for each field.
//
// Its packages are declared in bench/peers/package.json, at those versions, and installed into
// bench/peers/node_modules by the benchmark itself (bench/support/peer-modules.ts): not as the
// project's devDependencies, because the registry reachable here holds only @documenso/pdf-sign's
// linux-x64 binaries, so a project lock file written here would lack its other platforms'
// optional packages and `npm ci` would refuse it ("Missing: @documenso/pdf-sign-darwin-arm64@
// from lock file"). Required, not imported: they are CommonJS, measured through their CommonJS
// builds (@cantoo/pdf-lib's `import` condition is another build).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const lib = require('@cantoo/pdf-lib');
const fontkit = require('@pdf-lib/fontkit');
const { signWithP12 } = require('@documenso/pdf-sign');
const { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef } = lib;

const A4 = [595.28, 841.89];
const BYTE_RANGE_PLACEHOLDER = '**********';

/**
 * Documenso's seal of one document: decorate with @cantoo/pdf-lib, sign with pdf-sign.
 * @param {Uint8Array} p12
 * @param {string} password
 * @param {{ noto: Uint8Array; caveat: Uint8Array }} fonts the TTF files, read once
 */
export function documensoSeal(p12, password, fonts) {
  const cert = Buffer.from(p12);
  return async ({ original, signatures, auditEntries }) => {
    const certificatePdf = await textPagesPdf(fonts.noto, [
      'Signing certificate',
      ...signatures.flatMap((s) => [`${s.name} <${s.email}>`, `  signed at ${s.signedAt}`]),
    ]);
    const auditLogPdf = await textPagesPdf(fonts.noto, [
      'Audit log',
      ...auditEntries.map((e) => `${e.at}  ${e.action}  ${e.actor}  ${e.ip}`),
    ]);
    const pdfDoc = await PDFDocument.load(original);
    normalizeSignatureAppearances(pdfDoc);
    await flattenForm(pdfDoc, fonts);
    flattenAnnotations(pdfDoc);
    for (const extra of [certificatePdf, auditLogPdf]) {
      const pages = await pdfDoc.copyPages(extra, extra.getPageIndices());
      pages.forEach((page) => pdfDoc.addPage(page));
    }
    for (const [i, s] of signatures.entries()) {
      await insertTypedSignature(pdfDoc, fonts, s.typedName ?? s.name, 60 + i * 250);
    }
    await flattenForm(pdfDoc, fonts);
    return signPdf(Buffer.from(await pdfDoc.save()), cert, password);
  };
}

// Stands in for the Konva-rendered certificate and audit-log PDFs.
async function textPagesPdf(font, lines) {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const noto = await doc.embedFont(font);
  const page = doc.addPage(A4);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 16, size: 9, font: noto }));
  return doc;
}

function normalizeSignatureAppearances(document) {
  for (const field of document.getForm().getFields()) {
    if (!(field instanceof lib.PDFSignature)) continue;
    for (const widget of field.acroField.getWidgets()) {
      widget.ensureAP();
      try {
        widget.getNormalAppearance();
      } catch {
        const { context } = widget.dict;
        const empty = context.formXObject([lib.rectangle(0, 0, 0, 0)]);
        widget.setNormalAppearance(context.register(empty));
      }
    }
  }
}

async function flattenForm(document, fonts) {
  const catalog = document.context.lookup(document.context.trailerInfo.Root);
  if (catalog instanceof PDFDict) catalog.delete(PDFName.of('OCProperties'));
  const form = document.getForm();
  document.registerFontkit(fontkit);
  const font = await document.embedFont(fonts.noto);
  form.updateFieldAppearances(font);
  for (const field of form.getFields()) {
    for (const widget of field.acroField.getWidgets()) {
      const appearance = widget.getNormalAppearance();
      const page = document.getPages().find((p) => p.ref === widget.P());
      if (!page || !(appearance instanceof PDFRef)) continue;
      drawFlat(page, appearance, widget.getRectangle());
    }
    form.removeField(field);
  }
}

function flattenAnnotations(document) {
  for (const page of document.getPages()) {
    for (const ref of page.node.Annots()?.asArray() ?? []) {
      if (!(ref instanceof PDFRef)) continue;
      const dict = page.node.context.lookup(ref);
      if (!(dict instanceof PDFDict)) continue;
      const annotation = lib.PDFAnnotation.fromDict(dict);
      if (!annotation.ensureAP().has(PDFName.of('N'))) continue;
      const appearance = annotation.getNormalAppearance();
      if (!(appearance instanceof PDFRef)) continue;
      drawFlat(page, appearance, annotation.getRectangle());
      page.node.removeAnnot(ref);
    }
  }
}

function drawFlat(page, appearance, rect) {
  const name = page.node.newXObject('FlatAnnot', appearance);
  page.pushOperators(
    lib.pushGraphicsState(),
    lib.translate(rect.x, rect.y),
    ...lib.rotateInPlace({ ...rect, rotation: 0 }),
    lib.drawObject(name),
    lib.popGraphicsState(),
  );
}

// insertFieldInPDFV1 for a typed signature: Caveat embedded twice, as the original does, the
// text scaled to its field.
async function insertTypedSignature(pdf, fonts, text, x) {
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(fonts.caveat, { features: { calt: false } });
  await pdf.embedFont(fonts.caveat);
  const page = pdf.getPage(0);
  const fieldWidth = 200;
  const fieldHeight = 50;
  let size = 50;
  const scale = Math.min(
    fieldWidth / font.widthOfTextAtSize(text, size),
    fieldHeight / font.heightAtSize(size),
    1,
  );
  size = Math.max(size * scale, 8);
  page.drawText(text, { x, y: 80, size, font });
}

// signPdf with the local transport: a second load to add the placeholder, a save without
// object streams, the byte range patched in, then a CMS from the P12 in Rust.
async function signPdf(pdf, cert, password) {
  const { pdf: withPlaceholder, byteRange } = updateSigningPlaceholder(
    await addSigningPlaceholder(pdf),
  );
  const content = Buffer.concat([
    withPlaceholder.subarray(0, byteRange[1]),
    withPlaceholder.subarray(byteRange[2]),
  ]);
  const hex = signWithP12({ cert, content, password }).toString('hex');
  return Buffer.concat([
    withPlaceholder.subarray(0, byteRange[1]),
    Buffer.from(`<${hex.padEnd(byteRange[2] - byteRange[1] - 2, '0')}>`),
    withPlaceholder.subarray(byteRange[2]),
  ]);
}

async function addSigningPlaceholder(pdf) {
  const doc = await PDFDocument.load(pdf);
  const [firstPage] = doc.getPages();
  const byteRange = PDFArray.withContext(doc.context);
  byteRange.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i++) byteRange.push(PDFName.of(BYTE_RANGE_PLACEHOLDER));
  const signature = doc.context.register(
    doc.context.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'adbe.pkcs7.detached',
      ByteRange: byteRange,
      Contents: lib.PDFHexString.fromText(' '.repeat(8192)),
      Reason: lib.PDFString.of('Signed by Documenso'),
      M: lib.PDFString.fromDate(new Date()),
    }),
  );
  const widget = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: [0, 0, 0, 0],
      V: signature,
      T: lib.PDFString.of('Signature1'),
      F: 4,
      P: firstPage.ref,
      AP: doc.context.obj({
        N: doc.context.register(doc.context.formXObject([lib.rectangle(0, 0, 0, 0)])),
      }),
    }),
  );
  let widgets = firstPage.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (!widgets) {
    widgets = PDFArray.withContext(doc.context);
    firstPage.node.set(PDFName.of('Annots'), widgets);
  }
  widgets.push(widget);
  let acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  if (!acroForm) {
    acroForm = doc.context.obj({ Fields: PDFArray.withContext(doc.context) });
    doc.catalog.set(PDFName.of('AcroForm'), acroForm);
  }
  let fields = acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray);
  if (!fields) {
    fields = PDFArray.withContext(doc.context);
    acroForm.set(PDFName.of('Fields'), fields);
  }
  fields.push(widget);
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

function updateSigningPlaceholder(pdf) {
  const length = pdf.length;
  const byteRangePos = pdf.lastIndexOf('/ByteRange');
  const byteRangeStart = pdf.indexOf('[', byteRangePos);
  const byteRangeEnd = pdf.indexOf(']', byteRangePos);
  const signaturePos = pdf.indexOf('/Contents', byteRangeEnd);
  const signatureStart = pdf.indexOf('<', signaturePos);
  const signatureEnd = pdf.indexOf('>', signaturePos);
  const byteRange = [0, signatureStart, signatureEnd + 1, length - signatureEnd - 1];
  const patched = `[${byteRange.join(' ')}]`.padEnd(byteRangeEnd + 1 - byteRangeStart, ' ');
  const updated = Buffer.concat([
    pdf.subarray(0, byteRangeStart),
    Buffer.from(patched),
    pdf.subarray(byteRangeEnd + 1),
  ]);
  if (updated.length !== length) throw new Error('Updated PDF length does not match original');
  return { pdf: updated, byteRange };
}
