import { z } from 'zod';
import { AppError, validationError, type FieldError } from '../../lib/errors.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { MAX_SIGNEES, MAX_UPLOAD_BYTES, pdfPart } from '../documents/documents.schemas.js';
import { describeNotPdf } from '../documents/pdf-check.js';
import { notPdf } from '../documents/upload.js';
import { FIELD_TYPES } from './field-types.js';
import { scanTextTagsOffThread } from './text-tags-worker.js';

const box = { x: z.number(), y: z.number(), width: z.number(), height: z.number() };

/** The answer of the dry run: what quick-create with `textTags=true` would make of the file. */
export const textTagPreviewResponse = z.object({
  fields: z.array(
    z.object({
      tag: z.string(),
      signee: z.number().int().describe('0-based position in the signees'),
      type: z.enum(FIELD_TYPES),
      page: z.number().int(),
      ...box,
      tagBox: z.object(box),
      required: z.boolean(),
      label: z.string().nullable(),
      options: z.array(z.string()).optional().describe('dropdown and radio tags: the options'),
      min: z.number().optional(),
      max: z.number().optional(),
      decimals: z.number().int().optional(),
    }),
  ),
  problems: z.array(z.object({ tag: z.string(), page: z.number().int(), message: z.string() })),
  pages: z.array(z.object({ width: z.number(), height: z.number() })),
});

/** POST /api/text-tags/preview: the tags a PDF holds, as fields and problems; creates nothing. */
export function registerTextTagRoutes(app: App, deps: AppDeps) {
  app.post(
    '/api/text-tags/preview',
    {
      config: {
        multipartBody: z.object({
          file: pdfPart,
          signees: z
            .string()
            .regex(/^[0-9]+$/)
            .optional()
            .describe('how many signees the document will have'),
        }),
      },
      onRequest: deps.auth.requireVerifiedUser,
      schema: {
        operationId: 'previewTextTags',
        summary: "Dry-run a PDF's text tags",
        tags: ['fields'],
        consumes: ['multipart/form-data'],
        description:
          'Multipart parts: file (a PDF, below 50 MiB) and optional signees (how many signees the document will have: tags naming a later one are problems). Answers the text tags found, as the fields quick-create with textTags=true would make, and every problem with its tag and page. Creates and stores nothing.',
        response: { 200: textTagPreviewResponse, ...errorResponses(401, 403, 413, 415, 422) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw new AppError('unsupported_media_type', 'Send multipart/form-data with a file part.');
      }
      let bytes: Buffer | null = null;
      let signees: string | undefined;
      const errors: FieldError[] = [];
      for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES - 1 } })) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || bytes) {
            part.file.resume();
            errors.push({ path: part.fieldname, message: 'exactly one file, in the part "file"' });
            continue;
          }
          bytes = await part.toBuffer();
        } else if (part.fieldname === 'signees') {
          signees = String(part.value);
        }
      }
      const count = signees === undefined ? undefined : Number(signees);
      if (count !== undefined && !(Number.isInteger(count) && count >= 1 && count <= MAX_SIGNEES)) {
        errors.push({
          path: 'signees',
          message: `must be a whole number from 1 to ${MAX_SIGNEES}`,
        });
      }
      if (!bytes)
        errors.push({ path: 'file', message: 'a PDF file part named "file" is required' });
      if (errors.length > 0 || !bytes) throw validationError(errors);
      const what = await describeNotPdf(bytes, bytes.length);
      if (what) throw notPdf(what);
      return scanTextTagsOffThread(bytes, { signeeCount: count });
    },
  );
}
