// The most used Node way to sign a PDF (issue 30, peer b): pdf-lib appends a page naming the
// signees in an embedded TrueType font (pdf-lib's default embedding, no subsetting), adds a
// signature placeholder with @signpdf/placeholder-pdf-lib and saves without object streams;
// @signpdf/signpdf then signs it with @signpdf/signer-p12 (node-forge), ETSI.CAdES.detached.
// Its packages are declared in bench/peers/package.json and installed by the benchmark itself
// (bench/support/peer-modules.ts); required through their CommonJS builds, as measured.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * pdf-lib + @signpdf with the P12: a function from a SealedInput to the signed PDF.
 * @param {Uint8Array} p12
 * @param {string} password
 * @param {Uint8Array} ttf
 */
export function signpdfSeal(p12, password, ttf) {
  const { PDFDocument } = require('pdf-lib');
  const fontkit = require('@pdf-lib/fontkit');
  const { pdflibAddPlaceholder } = require('@signpdf/placeholder-pdf-lib');
  const { SignPdf } = require('@signpdf/signpdf');
  const { P12Signer } = require('@signpdf/signer-p12');
  const { SUBFILTER_ETSI_CADES_DETACHED } = require('@signpdf/utils');
  const signPdf = new SignPdf();
  return async ({ original, signatures, auditEntries }) => {
    const doc = await PDFDocument.load(original);
    doc.registerFontkit(fontkit);
    const font = await doc.embedFont(ttf);
    const first = doc.getPage(0);
    const page = doc.addPage([first.getWidth(), first.getHeight()]);
    const lines = [
      'Signatures',
      ...signatures.map((s) => `${s.name} <${s.email}>, signed at ${s.signedAt}`),
      '',
      'Audit trail',
      ...auditEntries.map((e) => `${e.at}  ${e.action}  ${e.actor}  ${e.ip}`),
    ];
    lines.forEach((line, i) =>
      page.drawText(line, { x: 50, y: page.getHeight() - 60 - i * 16, size: 10, font }),
    );
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason: 'Signed after all signatures were collected',
      contactInfo: 'bench@example.com',
      name: 'Benchmark seal',
      location: 'Benchmark',
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    });
    const withPlaceholder = Buffer.from(await doc.save({ useObjectStreams: false }));
    // A P12Signer reads its P12 from a forge buffer that its first sign consumes: one per seal,
    // and so the P12 (3DES key derivation in JavaScript) is parsed on every seal.
    return signPdf.sign(withPlaceholder, new P12Signer(Buffer.from(p12), { passphrase: password }));
  };
}
