import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

/** A quick-create whose body the test writes piece by piece: `send(n)` the next n bytes. */
export function openUpload(baseUrl: string, apiKey: string, tenantId: string, file: Buffer) {
  const boundary = `----signet-slow-${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('tenantId', tenantId) +
      field('signees', JSON.stringify([{ email: 'slow@example.com', name: 'Sam Slow' }])) +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="slow.pdf"\r\n` +
      'content-type: application/pdf\r\n\r\n',
  );
  const body = Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const req = request(`${baseUrl}/api/documents/quick-create`, {
    method: 'POST',
    headers: {
      'x-api-key': apiKey,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(body.length),
    },
  });
  let sent = 0;
  const answer = new Promise<{ status: number; body: string } | Error>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', resolve);
    });
    req.on('error', resolve);
  });
  return {
    answer,
    /** Sends the next n bytes of the body (the rest, by default). */
    send(n = body.length - sent) {
      const piece = body.subarray(sent, sent + n);
      sent += piece.length;
      if (sent >= body.length) req.end(piece);
      else req.write(piece);
    },
    left: () => body.length - sent,
  };
}
