import { randomBytes } from 'node:crypto';
/** Builds a valid PDF with `pages` text pages and optional padding, with a correct xref table. */
export function makePdf(
  options: { pages?: number; padBytes?: number; title?: string } = {},
): Buffer {
  const pages = options.pages ?? 1;
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: string | Buffer) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(b);
    length += b.length;
  };
  const object = (n: number, body: string | Buffer[]) => {
    offsets[n] = length;
    if (typeof body === 'string') push(`${n} 0 obj\n${body}\nendobj\n`);
    else {
      push(`${n} 0 obj\n`);
      body.forEach(push);
      push('\nendobj\n');
    }
  };
  push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const pageIds = Array.from({ length: pages }, (_, i) => 4 + i * 2);
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(
    2,
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`,
  );
  object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < pages; i++) {
    const id = pageIds[i];
    object(
      id,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`,
    );
    const text = `BT /F1 24 Tf 72 760 Td (${options.title ?? 'Test document'} - page ${i + 1}) Tj ET`;
    object(id + 1, `<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
  }
  let size = 4 + pages * 2;
  if (options.padBytes) {
    const pad = Buffer.alloc(options.padBytes, 0x41);
    object(size, [
      Buffer.from(`<< /Length ${pad.length} >>\nstream\n`),
      pad,
      Buffer.from('\nendstream'),
    ]);
    size += 1;
  }
  const xref = length;
  push(`xref\n0 ${size}\n0000000000 65535 f \n`);
  for (let n = 1; n < size; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/**
 * A one-page PDF showing an image of noise of about `bytes` (raw RGB samples: nothing
 * compresses them), for files that stay large through a seal's rewrite.
 */
export function makeImagePdf(bytes: number): Buffer {
  const width = 1024;
  const height = Math.ceil(bytes / (width * 3));
  const samples = randomBytes(width * height * 3);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  const content = 'q 500 0 0 500 50 150 cm /Im1 Do Q';
  push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const object = (n: number, ...body: Array<Buffer | string>) => {
    offsets[n] = length;
    push(`${n} 0 obj\n`);
    body.forEach(push);
    push('\nendobj\n');
  };
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(
    3,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>',
  );
  object(4, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  object(
    5,
    `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${samples.length} >>\nstream\n`,
    samples,
    '\nendstream',
  );
  const xref = length;
  push(`xref\n0 6\n0000000000 65535 f \n`);
  for (let n = 1; n <= 5; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
