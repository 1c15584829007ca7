import { describe, expect, it } from 'vitest';
import { verifyEvidence } from '../src/index.js';

// A PDF's bytes with a /ByteRange over a gap that holds no CMS, and a stream whose
// dictionary never ends: what a hostile upload might hold.
const hostile = Buffer.from(
  '%PDF-1.7\n1 0 obj\n<< /Type /Sig /ByteRange [0 30 40 10] /Contents <3000> >>\nendobj\n' +
    `2 0 obj\n<< /Type /EmbeddedFile /Subtype /application#2Fjson (${'('.repeat(10_000)}\n` +
    'xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000086 00000 n \ntrailer\n<< /Size 3 >>\nstartxref\n9999\n%%EOF\n',
  'latin1',
);

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
    expect(verifyEvidence(hostile).status).toBe('no_evidence');
  });
});
