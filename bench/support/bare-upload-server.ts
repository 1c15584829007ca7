// The baseline of bench/quick-create.bench.ts, run as its own process:
// `node --import tsx bench/support/bare-upload-server.ts PORT DIR [--fsync]`. Fastify 5 with the
// service's multipart limits streams the file part to a new file in DIR and answers 201, like
// quick-create without authentication, checks or database. `--fsync` also makes each file
// durable before answering, as the service's local storage does (the baseline of the goal).
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { MULTIPART_LIMITS } from '../../server/src/modules/documents/documents.schemas.js';
import { isMain } from './processes.js';

/** Serves GET / (readiness) and POST /upload on 127.0.0.1:port until SIGTERM. */
export async function serveBareUpload(port: number, dir: string, fsync: boolean): Promise<void> {
  const app = Fastify();
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  app.get('/', async () => ({ ok: true }));
  app.post('/upload', async (request, reply) => {
    const fields: string[] = [];
    let size = 0;
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        fields.push(part.fieldname);
        continue;
      }
      const file = path.join(dir, `${randomUUID()}.pdf`);
      part.file.on('data', (chunk: Buffer) => (size += chunk.length));
      // flush: fsync before the stream closes, as the service's local storage does.
      await pipeline(part.file, createWriteStream(file, { flush: fsync }));
    }
    return reply.code(201).send({ size, fields });
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (isMain(import.meta.url)) {
  await serveBareUpload(Number(process.argv[2]), process.argv[3], process.argv[4] === '--fsync');
}
