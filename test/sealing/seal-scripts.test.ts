import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf, type SealPdfInput } from '../../server/src/modules/sealing/seal-pdf.js';
import { makePdf, pageTexts, runOnPdf, scratchDir, sha256 } from './helpers.js';

// Names in every script the product promises (decisions §10): each drawn in a font that has
// it, shaped where the script needs it, and given back as written by pdftotext.
const NAMES: Array<[string, string, RegExp]> = [
  ['Latin', 'Zoë Ünal-Łukasiewicz', /NotoSans-Regular/],
  ['Greek', 'Γιώργος Παπαδόπουλος', /NotoSans-Regular/],
  ['Cyrillic', 'Дмитрий Иванов', /NotoSans-Regular/],
  ['Chinese, simplified', '王小明', /NotoSansSC-Regular/],
  ['Chinese, traditional', '張偉龍', /NotoSansSC-Regular/],
  ['Japanese', '山田 さくら カタカナ', /NotoSansSC-Regular/],
  ['Korean', '김민준', /NotoSansKR-Regular/],
  ['Arabic', 'محمد عبد الله', /NotoSansArabic-Regular/],
  ['Hebrew', 'דוד כהן', /NotoSansHebrew-Regular/],
  ['Devanagari', 'प्रिया शर्मा', /NotoSansDevanagari-Regular/],
  ['Bengali', 'সৌরভ গাঙ্গুলী', /NotoSansBengali-Regular/],
  ['Tamil', 'தமிழ்செல்வி', /NotoSansTamil-Regular/],
  ['Thai', 'สมชาย ใจดี', /NotoSansThai-Regular/],
  ['emoji', 'Zoë 😀', /NotoEmoji-Regular/],
];

const scratch = scratchDir();
let certificate: SealCertificate;
beforeAll(async () => {
  certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
});
afterAll(() => scratch.cleanup());

function input(original: Uint8Array, names: string[], documentName: string): SealPdfInput {
  return {
    original,
    originalSha256: sha256(original),
    signatures: names.map((name, i) => ({
      name,
      email: `signee${i}@example.com`,
      signedAt: '2026-11-25T10:00:00.000Z',
      typedName: name,
    })),
    auditEntries: names.map((name, i) => ({
      at: '2026-11-25T10:00:00.000Z',
      action: 'signed',
      actor: `${name} <signee${i}@example.com>`,
      ip: null,
      userAgent: null,
    })),
    documentName,
    documentId: 'doc_scripts',
    sandbox: false,
    certificate,
  };
}

// pdftotext marks right-to-left runs with embedding controls (U+202B ... U+202C).
const text = (bytes: Uint8Array) =>
  pageTexts(scratch.dir, bytes)
    .join('\n')
    .replace(/[\u202a-\u202e]/g, '');

describe('names and document names in every script', () => {
  it.each(NAMES)(
    'draws a name in %s in its own embedded subset font, extracted as written',
    async (_, name, font) => {
      const { bytes } = await sealPdf(input(await makePdf(1), [name], `Contract ${name}`));
      const extracted = text(bytes);
      // The signature page (typed signature and name), the audit certificate's actor, the title.
      expect(extracted.split(name).length - 1).toBeGreaterThanOrEqual(3);
      expect(extracted).toContain(`Document: Contract ${name}`);
      expect(extracted).not.toContain('?');
      const fonts = runOnPdf(scratch.dir, 'pdffonts', ['{}'], bytes).stdout;
      const line = fonts.split('\n').find((l) => font.test(l));
      // Embedded, subset (a tag before the name), with a ToUnicode map.
      expect(line, fonts).toMatch(/^[A-Z]{6}\+\S+\s+CID TrueType\s+Identity-H\s+yes yes yes/);
      expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], bytes).stdout).toContain('Signature is Valid');
      expect(runOnPdf(scratch.dir, 'qpdf', ['--check', '{}'], bytes).status).toBe(0);
    },
  );

  it('draws a character no font has as a visible box, never a question mark', async () => {
    const { bytes } = await sealPdf(input(await makePdf(1), ['Ada \u{10000} Lovelace'], 'X'));
    expect(text(bytes)).toContain('Ada \u25a1 Lovelace');
  });

  it('adds under 300 KB for CJK names: fonts are subset to the glyphs drawn', async () => {
    const original = await makePdf(1);
    const latin = await sealPdf(input(original, ['Ada Lovelace', 'Grace Hopper'], 'Contract'));
    const cjk = await sealPdf(
      input(original, ['王小明', '張偉龍', '山田 さくら', '김민준'], '合同 契約書 계약서'),
    );
    expect(cjk.bytes.length - latin.bytes.length).toBeLessThan(300_000);
  });

  it('keeps Arabic and Hebrew runs in reading order beside Latin text', async () => {
    const { bytes } = await sealPdf(
      input(await makePdf(1), ['محمد عبد الله', 'דוד כהן'], 'عقد - Contract'),
    );
    const extracted = text(bytes);
    expect(extracted).toContain('محمد عبد الله');
    expect(extracted).toContain('דוד כהן');
    expect(extracted).toMatch(/عقد\s*-\s*Contract|Contract\s*-\s*عقد/);
  });
});
