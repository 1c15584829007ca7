import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { makePdf } from '../helpers/pdf.js';

// Objects numbered from 1 in order, with a correct cross-reference table, so each file passes
// the structural upload check and the hostility is in its content.
function pdfOf(objects: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let length = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>';

/** PDFs built to exhaust a parser: each is small on disk. */
export function pdfBombs(): Array<[string, Buffer]> {
  const deep: string[] = [CATALOG];
  const depth = 5000;
  for (let i = 0; i < depth; i++) deep.push(`<< /Type /Pages /Kids [${i + 3} 0 R] /Count 1 >>`);
  deep.push('<< /Type /Page /MediaBox [0 0 595 842] >>');
  const zeros = deflateSync(Buffer.alloc(200 * 1024 * 1024, 0x20), { level: 9 });
  return [
    [
      '1 GB declared stream',
      pdfOf([
        CATALOG,
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        PAGE,
        '<< /Length 1073741824 >>\nstream\nBT /F1 12 Tf 72 720 Td (tiny) Tj ET\nendstream',
      ]),
    ],
    [
      'negative and indirect-loop /Length',
      pdfOf([
        CATALOG,
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        PAGE,
        '<< /Length 4 0 R >>\nstream\nBT ET\nendstream',
      ]),
    ],
    [`${depth}-deep page tree`, pdfOf(deep)],
    [
      'page tree that contains itself',
      pdfOf([CATALOG, '<< /Type /Pages /Kids [2 0 R 2 0 R] /Count 2000000000 >>']),
    ],
    [
      '200 MB flate bomb',
      pdfOf([
        CATALOG,
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        PAGE,
        Buffer.concat([
          Buffer.from(`<< /Length ${zeros.length} /Filter /FlateDecode >>\nstream\n`),
          zeros,
          Buffer.from('\nendstream'),
        ]),
      ]),
    ],
  ];
}

/** Encrypted variants of a plain PDF, made with qpdf. */
/** Encrypted PDFs made by qpdf: [name, file, whether a password is needed to open it]. */
export function encryptedPdfs(): Array<[string, Buffer, boolean]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-encrypted-'));
  try {
    const plain = path.join(dir, 'plain.pdf');
    writeFileSync(plain, makePdf({ pages: 2 }));
    const variants: Array<[string, string[], boolean]> = [
      ['user password, AES-256', ['--encrypt', 'user', 'owner', '256', '--'], true],
      [
        'owner password only (permissions)',
        ['--encrypt', '', 'owner', '256', '--print=none', '--'],
        false,
      ],
      [
        'owner password only, RC4 128-bit, linearized',
        ['--linearize', '--allow-weak-crypto', '--encrypt', '', 'o', '128', '--use-aes=n', '--'],
        false,
      ],
      [
        'RC4 128-bit',
        ['--allow-weak-crypto', '--encrypt', 'u', 'o', '128', '--use-aes=n', '--'],
        true,
      ],
      [
        'AES-256 in a cross-reference stream',
        ['--object-streams=generate', '--encrypt', 'user', 'owner', '256', '--'],
        true,
      ],
      // Its /Encrypt is named only in the first-page trailer at the start of the file.
      [
        'user password, linearized',
        ['--linearize', '--encrypt', 'user', 'owner', '256', '--'],
        true,
      ],
    ];
    return variants.map(([name, args, needsPassword], i) => {
      const out = path.join(dir, `${i}.pdf`);
      execFileSync('qpdf', [...args, plain, out]);
      return [name, readFileSync(out), needsPassword];
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
