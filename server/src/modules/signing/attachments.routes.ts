import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { errorResponses } from '../../http/problem-schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { App, AppDeps } from '../../http/types.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/ids.js';
import { getDocument } from '../documents/documents.service.js';
import { findAttachment, listAttachments } from '../fields/attachments.repo.js';
import { attachFile, MAX_ATTACHMENT_BYTES, type AttachmentUpload } from './attachments.js';
import { tokenParams } from './signing.schemas.js';

const MIB = 1024 * 1024;

/** An attachment as its document's members see it. */
const attachmentSchema = z
  .object({
    id: z.uuid(),
    signeeId: z.uuid(),
    fieldId: z.uuid().nullable(),
    filename: z.string(),
    contentType: z.enum(['application/pdf', 'image/png', 'image/jpeg']),
    sizeBytes: z.number().int(),
    sha256: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Attachment' });

const present = (a: Awaited<ReturnType<typeof listAttachments>>[number]) => ({
  id: a.id,
  signeeId: a.signee_id,
  fieldId: a.field_id,
  filename: a.filename,
  contentType: a.content_type as z.infer<typeof attachmentSchema>['contentType'],
  sizeBytes: a.size_bytes,
  sha256: a.sha256,
  createdAt: a.created_at,
});

/**
 * Attachments of `attachment` fields (decisions §15): a signee uploads one through their link
 * (registered after the link's verification gate, which joins it), and the document's members
 * list and download them. Nobody else is ever served one.
 */
export function registerAttachmentRoutes(app: App, deps: AppDeps) {
  const d = { db: deps.db, storage: deps.storage };
  // Looser than signing itself: a signee may replace a file a few times before signing.
  const perLink = createRateLimiter({ perSecond: 0.5, burst: 10, subject: 'this signing link' });
  const perIp = createRateLimiter({ perSecond: 1, burst: 20, subject: 'this address' });

  void app.register(async (scope: App) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 2, fieldSize: 1024, parts: 3 },
    });
    // As every upload route: the address's uploads in flight are capped.
    if (deps.admitUpload) scope.addHook('onRequest', deps.admitUpload);
    scope.post(
      '/api/signing/:token/attachments',
      {
        config: {
          multipartBody: z.object({
            file: z.string().meta({
              format: 'binary',
              description: 'a PDF, PNG or JPEG file, at most 10 MiB',
            }),
            fieldId: z.uuid().optional(),
          }),
        },
        onRequest: async (request: FastifyRequest<{ Params: { token: string } }>, reply) => {
          reply.header('cache-control', 'no-store');
          perIp(`ip:${request.ip}`, reply);
          perLink(`link:${hashSecret(request.params.token)}`, reply);
          const length = Number(request.headers['content-length'] ?? 0);
          if (length > MAX_ATTACHMENT_BYTES + MIB) throw tooLarge();
        },
        schema: {
          operationId: 'uploadAttachment',
          summary: 'Attach a file for an attachment field',
          tags: ['signing'],
          security: [],
          consumes: ['multipart/form-data'],
          description:
            "Multipart part `file`: a PDF, PNG or JPEG (judged by its bytes; anything else 415), at most 10 MiB (413), and with the document's other attachments at most 25 MiB (413). Optional part `fieldId`: the attachment field it is for (then only that field takes it, and an unused earlier upload for it is replaced). A PDF is checked as an upload is (422 `pdf_unreadable`/`pdf_encrypted`, or 422 at `file` when its pages cannot be read); an image is decoded and encoded again without metadata (422 when it declares more than 50 megapixels or cannot be read), and those bytes are what is kept. Answers `{attachmentId}`: the value to send for the field in `POST /api/signing/{token}/sign`.",
          params: tokenParams,
          querystring: z.object({ fieldId: z.uuid().optional() }),
          response: {
            201: z.object({ attachmentId: z.uuid(), attachment: attachmentSchema }),
            ...errorResponses(400, 404, 409, 410, 413, 415, 422, 429),
          },
        },
      },
      async (request, reply) => {
        const { upload, fieldId } = await readAttachmentParts(request);
        const { attachment } = await attachFile(d, {
          token: request.params.token,
          fieldId: fieldId ?? request.query.fieldId,
          upload,
        });
        return reply
          .code(201)
          .send({ attachmentId: attachment.id, attachment: present(attachment) });
      },
    );
  });

  const documentParams = z.object({ documentId: z.uuid() });
  app.get(
    '/api/documents/:documentId/attachments',
    {
      onRequest: deps.auth.requireVerifiedUser,
      schema: {
        operationId: 'listAttachments',
        summary: "List the files a document's signees attached",
        tags: ['documents'],
        params: documentParams,
        response: {
          200: z.object({ attachments: z.array(attachmentSchema) }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const { document } = await getDocument(deps, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
      });
      return { attachments: (await listAttachments(deps.db.kysely, document.id)).map(present) };
    },
  );

  app.get(
    '/api/documents/:documentId/attachments/:attachmentId',
    {
      onRequest: deps.auth.requireVerifiedUser,
      config: { fileResponse: 'The attached file, as an attachment' },
      schema: {
        operationId: 'downloadAttachment',
        summary: 'Download a file a signee attached',
        tags: ['documents'],
        params: documentParams.extend({ attachmentId: z.uuid() }),
        response: { 200: z.unknown(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { document } = await getDocument(deps, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
      });
      const found = await findAttachment(deps.db.kysely, document.id, request.params.attachmentId);
      if (!found) throw new AppError('not_found', 'No such attachment.');
      const stream = await deps.storage.get(found.file);
      return (
        reply
          .type(found.content_type)
          .header('content-disposition', contentDisposition(found.filename))
          .header('cache-control', 'private, no-store')
          // A signee's file is never run as a page of ours, whatever it holds.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('x-content-type-options', 'nosniff')
          .send(stream)
      );
    },
  );
}

// The one file part (read whole: it is at most 10 MiB) and an optional `fieldId` part.
async function readAttachmentParts(
  request: FastifyRequest,
): Promise<{ upload: AttachmentUpload; fieldId?: string }> {
  try {
    return await readParts(request);
  } catch (err) {
    // The multipart reader reports the limit from toBuffer or, when the file's last bytes
    // arrive with the end of the body, from the parts' iterator: the same 413 either way.
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err;
  }
}

async function readParts(
  request: FastifyRequest,
): Promise<{ upload: AttachmentUpload; fieldId?: string }> {
  let upload: AttachmentUpload | undefined;
  let fieldId: string | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || upload) {
        part.file.resume();
        throw new AppError('validation_failed', 'Send exactly one file, in the part "file".', {
          errors: [{ path: part.fieldname, message: 'exactly one file, in the part "file"' }],
        });
      }
      upload = { bytes: await part.toBuffer(), filename: part.filename ?? '' };
    } else if (part.fieldname === 'fieldId') {
      const parsed = z.uuid().safeParse(String(part.value));
      if (!parsed.success) {
        throw new AppError('validation_failed', 'The part "fieldId" must be a field id.', {
          errors: [{ path: 'fieldId', message: 'must be a field id (a UUID)' }],
        });
      }
      fieldId = parsed.data;
    }
  }
  if (!upload) {
    throw new AppError('validation_failed', 'Send the file in a multipart part named "file".', {
      errors: [{ path: 'file', message: 'a file part named "file" is required' }],
    });
  }
  return { upload, fieldId };
}

function tooLarge(): AppError {
  return new AppError(
    'payload_too_large',
    `An attachment must be at most ${MAX_ATTACHMENT_BYTES / MIB} MiB.`,
  );
}
