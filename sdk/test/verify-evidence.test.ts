import { describe, expect, it } from 'vitest';
import { verifyEvidence } from '../src/index.js';
import { findPdfSignatures } from '../src/pdf-evidence.js';

// A signed-looking PDF whose revision lists an embedded JSON file whose dictionary never ends:
// a thousand unclosed strings, then a megabyte of nothing.
function hostilePdf(): Buffer {
  const header = '%PDF-1.7\n';
  const object = `1 0 obj\n<< /Type /EmbeddedFile /Subtype /application#2Fjson ${'('.repeat(1000)}${' '.repeat(1 << 20)}\n`;
  const signatureAt = header.length + object.length;
  const pad = (n: number) => String(n).padEnd(10);
  const signature = (a: number, b: number, c: number) =>
    `2 0 obj\n<< /Type /Sig /ByteRange [0 ${pad(a)} ${pad(b)} ${pad(c)}] /Contents <3000> >>\nendobj\n`;
  const xrefAt = signatureAt + signature(0, 0, 0).length;
  const tail =
    `xref\n0 2\n0000000000 65535 f \n${String(header.length).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size 2 >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  const gapAt = signatureAt + signature(0, 0, 0).indexOf('<3000>');
  const after = gapAt + '<3000>'.length;
  const total = xrefAt + tail.length;
  return Buffer.from(header + object + signature(gapAt, after, total - after) + tail, 'latin1');
}

describe('verifyEvidence on files without sealed evidence', () => {
  it('answers no_evidence for bytes that are no PDF, or a PDF without a signature', () => {
    expect(verifyEvidence(new TextEncoder().encode('hello')).status).toBe('no_evidence');
    const unsigned = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
    expect(verifyEvidence(unsigned)).toMatchObject({
      status: 'no_evidence',
      detail: 'This PDF carries no signature, so no sealed evidence file.',
    });
  });

  it('does not trip over broken signatures, cross-references and dictionaries', () => {
    const pdf = hostilePdf();
    expect(findPdfSignatures(pdf)).toMatchObject([{ coversWholeFile: true }]);
    const started = performance.now();
    expect(verifyEvidence(pdf).status).toBe('no_evidence');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
