import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { AppError, validationError } from '../../lib/errors.js';
import { requestFingerprint } from '../../http/idempotency.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import {
  auditEntrySchema,
  cancelBody,
  documentDetailSchema,
  documentParams,
  documentWithSigneesSchema,
  fieldErrorsOf,
  listQuery,
  listResponse,
  quickCreatePartsSchema,
  quickCreateParts,
  quickCreateResponse,
  sendResponse,
} from './documents.schemas.js';
import type { DocumentRow, SigneeRow } from './documents.repo.js';
import * as documents from './documents.service.js';
import { remindSignees, sendForSigning, type SendingDeps } from './sending.service.js';
import {
  quickCreateErrors,
  readQuickCreateParts,
  refuseOversizedUpload,
  requirePdf,
} from './upload.js';
import { placedFields, prepareFields } from '../fields/quick-create-fields.js';
import { presentField } from '../fields/fields.service.js';

/** What the sending services need, from the app's dependencies. */
export function sendingDepsOf(deps: AppDeps): SendingDeps {
  return {
    db: deps.db,
    storage: deps.storage,
    config: deps.config,
    transport: deps.mailTransport,
    mailFrom: deps.config.mailFrom,
    wakeJobs: () => deps.jobs.wake(),
  };
}

/** Documents: quick-create, retrieval, listing, sending, reminders, cancel, delete, files. */
export function registerDocumentRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireVerifiedUser;
  const d = sendingDepsOf(deps);
  const tags = ['documents'];
  const withSignees = (r: { document: DocumentRow; signees: SigneeRow[] }) => ({
    document: documents.presentDocument(d, r.document),
    signees: r.signees.map(documents.presentSignee),
  });

  app.post(
    '/api/documents/quick-create',
    {
      config: { multipartBody: quickCreateParts },
      onRequest: [onRequest, refuseOversizedUpload],
      schema: {
        operationId: 'quickCreateDocument',
        summary: 'Upload a PDF with its signees as a draft',
        tags,
        consumes: ['multipart/form-data'],
        description:
          'Multipart parts: file (one PDF, below 50 MiB), tenantId, signees (JSON array of {email, name, signingOrder?, signingGroupId?, role?}: role signer (default), approver or cc); optional name, signingMessage, signingOrderEnabled, signingGroupsEnabled, fields (JSON array of {signee (0-based), type, page, x, y, width, height, required?, label?, options?, value?}: see docs/fields.md), textTags (true: turn {{TYPE:N}} tags in the PDF text into fields), externalId (your own id, at most 255 characters; GET /api/documents?externalId= finds it), metadata (JSON object of string values, at most 4 KiB) and redirectUrl (https, at most 2,048 characters: where the signing page sends each signee after they sign or decline). Creates a draft; sends no invitation.',
        response: { 201: quickCreateResponse, ...errorResponses(401, 403, 404, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError('unsupported_media_type', 'Send multipart/form-data with a file part.');
      }
      const { userId } = principalOf(request);
      const parts = await readQuickCreateParts(request, deps.storage);
      const upload = parts.upload;
      try {
        const fields = quickCreatePartsSchema.safeParse(parts.fields);
        const placed = fields.success
          ? placedFields(parts.fields, fields.data.signees.length)
          : null;
        const errors = quickCreateErrors(parts, [
          ...(fields.success ? [] : fieldErrorsOf(fields.error)),
          ...(placed?.errors ?? []),
        ]);
        if (errors.length > 0 || !fields.success || !placed || !upload) {
          throw validationError(errors);
        }
        await requirePdf(deps.storage, upload, parts.ends);
        const prepared = await prepareFields(deps.storage, upload, placed, {
          signeeCount: fields.data.signees.length,
          kept: parts.ends?.whole,
          roles: fields.data.signees.map((s) => s.role ?? 'signer'),
        });
        const fingerprint = () =>
          requestFingerprint([request.url, parts.fields, upload.sha256, upload.filename]);
        if (await deps.idempotency.begin(request, reply, fingerprint)) {
          await deps.storage.delete(upload.key);
          return reply;
        }
        const created = await documents.createDocument(d, {
          ...fields.data,
          ...prepared,
          userId,
          upload,
          origin: originOf(request),
        });
        return reply.code(201).send({
          message: 'Document created as a draft; send it for signing to invite the signees.',
          ...withSignees(created),
          fields: created.fields.map(presentField),
          contentType: 'application/pdf',
        });
      } catch (err) {
        if (upload) await deps.storage.delete(upload.key);
        throw err;
      }
    },
  );

  app.get(
    '/api/documents/:documentId',
    {
      onRequest,
      schema: {
        operationId: 'getDocument',
        summary: 'Get a document with its signees and fields',
        tags,
        params: documentParams,
        response: { 200: documentDetailSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const found = await documents.getDocument(d, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
      });
      return { ...withSignees(found), fields: found.fields.map(presentField) };
    },
  );

  app.get(
    '/api/documents',
    {
      onRequest,
      schema: {
        operationId: 'listDocuments',
        summary: 'List documents, newest first',
        tags,
        querystring: listQuery,
        response: { 200: listResponse, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const page = await documents.listDocuments(d, {
        userId: principalOf(request).userId,
        ...request.query,
      });
      return {
        documents: page.documents.map((doc) => documents.presentDocument(d, doc)),
        nextCursor: page.nextCursor,
      };
    },
  );

  // Send-for-signing and remind answer alike: the document, its signees, each invitation.
  const invite = async (
    action: typeof sendForSigning | typeof remindSignees,
    request: FastifyRequest,
    documentId: string,
  ) => {
    const principal = principalOf(request);
    const result = await action(d, {
      documentId,
      userId: principal.userId,
      senderName: principal.name,
      origin: originOf(request),
    });
    return { ...withSignees(result), deliveries: result.deliveries };
  };

  app.post(
    '/api/documents/:documentId/send-for-signing',
    {
      onRequest,
      schema: {
        operationId: 'sendForSigning',
        summary: 'Send a draft: invite the signees',
        tags,
        params: documentParams,
        response: { 200: sendResponse, ...errorResponses(401, 402, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const sent = await invite(sendForSigning, request, request.params.documentId);
      // Its seal will be needed: the sealing thread is started and warmed meanwhile.
      deps.warmUpSealing();
      return sent;
    },
  );

  app.post(
    '/api/documents/:documentId/remind',
    {
      onRequest,
      schema: {
        operationId: 'remindSignees',
        summary: 'Remind the signees whose turn it is',
        description:
          'An address gets at most 5 reminders an hour and 20 a day from the whole service, whichever tenants send them: signees past that are left out, and when none is left the answer is 429 rate_limited with Retry-After and nothing changes.',
        tags,
        params: documentParams,
        response: { 200: sendResponse, ...errorResponses(401, 402, 403, 404, 409, 429) },
      },
    },
    async (request) => invite(remindSignees, request, request.params.documentId),
  );

  app.post(
    '/api/documents/:documentId/cancel',
    {
      onRequest,
      schema: {
        operationId: 'cancelDocument',
        summary: 'Cancel a document in process',
        tags,
        description:
          'Cancels a document in process. Optional JSON body {reason}: told to the signees already invited, who get a notice that their link no longer works.',
        params: documentParams,
        body: cancelBody,
        response: { 200: documentWithSigneesSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      withSignees(
        await documents.cancelDocument(d, {
          documentId: request.params.documentId,
          userId: principalOf(request).userId,
          reason: request.body?.reason,
          origin: originOf(request),
        }),
      ),
  );

  app.post(
    '/api/documents/:documentId/seal',
    {
      onRequest,
      schema: {
        operationId: 'retrySeal',
        summary: 'Seal again a document whose seal failed',
        tags,
        description:
          'For a document in `seal_failed` (every attempt to seal it failed, `sealFailure` says why): moves it back to `pending_seal` and starts sealing it again, with a fresh budget of retries. 409 in any other status.',
        params: documentParams,
        response: { 200: documentWithSigneesSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) =>
      withSignees(
        await documents.retrySeal(d, {
          documentId: request.params.documentId,
          userId: principalOf(request).userId,
          origin: originOf(request),
        }),
      ),
  );

  app.delete(
    '/api/documents/:documentId',
    {
      onRequest,
      schema: {
        operationId: 'deleteDocument',
        summary: 'Delete a draft',
        tags,
        params: documentParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await documents.deleteDocument(d, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
      });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/documents/:documentId/audit-trail',
    {
      onRequest,
      schema: {
        operationId: 'getAuditTrail',
        summary: "Get a document's audit trail",
        tags,
        params: documentParams,
        response: {
          200: z.object({ auditTrail: z.array(auditEntrySchema) }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => ({
      auditTrail: await documents.getAuditTrail(d, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
      }),
    }),
  );
}
