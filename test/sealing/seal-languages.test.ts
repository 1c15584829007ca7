import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf, type SealPdfInput } from '../../server/src/modules/sealing/seal-pdf.js';
import { LANGUAGES, messages } from '../../server/src/i18n/index.js';
import { makePdf, pageTexts, runOnPdf, scratchDir, sha256 } from './helpers.js';

// The seal's pages in the document's language (decisions §16): Japanese drawn with the CJK
// fonts, Arabic laid out right to left (labels at the right edge, shaped), Polish letters kept.
const scratch = scratchDir();
const SHOTS = join(process.cwd(), 'test-results', 'seal-languages');
let certificate: SealCertificate;
beforeAll(async () => {
  certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(() => scratch.cleanup());

async function sealIn(language: string, name: string, documentName: string) {
  const original = await makePdf(1);
  const input: SealPdfInput = {
    original,
    originalSha256: sha256(original),
    signatures: [
      { name, email: 'signee@example.com', signedAt: '2026-11-25T10:00:00.000Z', typedName: name },
    ],
    auditEntries: [
      {
        at: '2026-11-25T09:00:00.000Z',
        action: 'sent',
        actor: 'sender',
        ip: '203.0.113.7',
        userAgent: 'Mozilla/5.0',
      },
      {
        at: '2026-11-25T10:00:00.000Z',
        action: 'signed',
        actor: `${name} <signee@example.com>`,
        ip: '203.0.113.8',
        userAgent: 'Mozilla/5.0',
      },
    ],
    documentName,
    documentId: 'doc_languages',
    sandbox: false,
    certificate,
    language,
  };
  const { bytes } = await sealPdf(input);
  writeFileSync(join(SHOTS, `sealed-${language}.pdf`), bytes);
  // pdftotext marks right-to-left runs with embedding controls (U+202B ... U+202C).
  const pages = pageTexts(scratch.dir, bytes).map((p) => p.replace(/[\u202a-\u202e]/g, ''));
  return { bytes, pages };
}

// Where a text's words stand on a page: pdftotext -bbox gives each word's box.
type WordBox = { word: string; xMin: number; xMax: number; yMin: number };
function wordBoxes(bytes: Uint8Array, page: number): WordBox[] {
  const html = runOnPdf(
    scratch.dir,
    'pdftotext',
    ['-bbox', '-f', String(page), '-l', String(page), '{}', '-'],
    bytes,
  ).stdout;
  const pattern = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)<\/word>/g;
  return [...html.matchAll(pattern)].map((m) => ({
    word: m[4],
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
  }));
}

describe('the seal pages in the document language', () => {
  it('writes a Japanese document’s pages in Japanese, with the CJK font, no box or ?', async () => {
    const { bytes, pages } = await sealIn('ja', '山田 さくら', '業務委託契約書');
    const [original, signatures, audit] = pages;
    expect(original).toContain('Original page 1');
    expect(signatures).toContain('署名');
    expect(signatures).toContain('署名者 1');
    expect(signatures).toContain('山田 さくら');
    expect(signatures).toContain('入力した署名');
    expect(audit).toContain('監査証明書');
    expect(audit).toContain('文書: 業務委託契約書');
    expect(audit).toContain('元の文書の SHA-256');
    expect(audit).toContain('日時 (UTC)');
    expect(audit).toContain('2026年11月25日 10:00:00 UTC');
    for (const word of ['送信', '署名', '送信者', '実行者', 'ブラウザー: Mozilla/5.0']) {
      expect(audit).toContain(word);
    }
    expect(audit + signatures).not.toMatch(/[?\u25a1]/);
    const fonts = runOnPdf(scratch.dir, 'pdffonts', ['{}'], bytes).stdout;
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansSC-Regular\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    render(bytes, 'ja');
  });

  it('lays an Arabic document’s pages out right to left, shaped, in Arabic', async () => {
    const { bytes, pages } = await sealIn('ar', 'محمد عبد الله', 'عقد العمل');
    // Marks (the shadda of المنفّذ) come out of pdftotext before or after their letter.
    const [, signatures, audit] = pages.map((p) => p.replace(/\p{M}/gu, ''));
    expect(signatures).toContain('التوقيعات');
    expect(signatures).toContain('محمد عبد الله');
    expect(signatures).toContain('توقيع مكتوب');
    expect(audit).toContain('شهادة التدقيق');
    expect(audit).toContain('عقد العمل');
    expect(audit).toContain('الإجراء');
    expect(audit).toContain('المنفذ');
    expect(audit).toContain('المرسل');
    expect(audit).toContain('وقع');
    // Latin digits in the times (docs/signing.md).
    expect(audit).toContain('10:00:00 UTC');
    expect(audit).not.toMatch(/[\u0660-\u0669?\u25a1]/);
    const fonts = runOnPdf(scratch.dir, 'pdffonts', ['{}'], bytes).stdout;
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansArabic-Regular\s+CID TrueType/);
    // Right to left: the heading and labels end at the right margin; a hash, left to right
    // inside its box, stands left of its label.
    // (pdftotext -bbox gives Arabic words in pieces, in the order drawn.)
    const words = wordBoxes(bytes, 3);
    const top = Math.min(...words.map((w) => w.yMin));
    const heading = words.filter((w) => w.yMin === top);
    expect(Math.max(...heading.map((w) => w.xMax))).toBeCloseTo(595.28 - 50, 0);
    expect(Math.min(...heading.map((w) => w.xMin))).toBeGreaterThan(595.28 / 2);
    const x = (word: string) => words.find((w) => w.word === word)?.xMin ?? NaN;
    // The footer starts at the right: "Signet - شهادة التدقيق - ..." reads from there.
    expect(x('Signet')).toBeGreaterThan(595.28 / 2);
    expect(x('203.0.113.8')).toBeLessThan(595.28 / 2);
    expect(x('203.0.113.8')).toBeGreaterThan(50);
    render(bytes, 'ar');
  });

  it.each(LANGUAGES)('draws every label of the %s pages, none as ? or a box', async (language) => {
    const m = messages(language).seal;
    const { pages } = await sealIn(language, 'Ada Lovelace', 'Lease');
    // pdftotext orders a line mixing Arabic and Latin its own way: each word is looked for.
    const plain = (text: string) => text.replace(/\p{M}/gu, '').replace(/\s+/g, ' ');
    const [signatures, audit] = pages.slice(1).map(plain);
    const words = (label: string) =>
      plain(label)
        .split(/[\s()]+/)
        .filter(Boolean);
    for (const label of [m.signatures, m.typedSignature]) {
      for (const word of words(label)) expect(signatures, label).toContain(word);
    }
    for (const label of [m.auditCertificate, m.sealedBy, m.time, m.action, m.actor, m.ip]) {
      for (const word of words(label)) expect(audit, label).toContain(word);
    }
    for (const word of words(m.actions.signed)) expect(audit).toContain(word);
    expect(signatures + audit).not.toMatch(/[?\u25a1]/);
  });

  it('keeps Polish letters in the labels', async () => {
    const { pages } = await sealIn('pl', 'Łucja Wiśniewska', 'Umowa o dzieło');
    const audit = pages[2];
    expect(audit).toContain('Certyfikat audytu');
    expect(audit).toContain('Działanie');
    expect(audit).toContain('Łucja Wiśniewska');
    expect(audit).not.toContain('?');
  });
});

// The pages as images, for a person to look at (test-results/seal-languages/).
function render(bytes: Uint8Array, language: string): void {
  const pdf = join(SHOTS, `sealed-${language}.pdf`);
  writeFileSync(pdf, bytes);
  runOnPdf(scratch.dir, 'pdftoppm', ['-r', '60', '-png', pdf, join(SHOTS, language)], bytes);
}
