import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { presentField } from '../fields/fields.service.js';
import { documentDetailSchema, documentParams } from './documents.schemas.js';
import { presentDocument, presentSignee, type DocumentDeps } from './documents.service.js';
import type { DocumentRow, SigneeRow } from './documents.repo.js';
import type { FieldRow } from '../fields/fields.repo.js';
import {
  addSigneeBody,
  editDocumentBody,
  editSigneeBody,
  signeeChangeResponse,
  signeeParams,
} from './editing.schemas.js';
import * as editing from './editing.service.js';

/** Editing a document (decisions §9): its settings and filing, and a draft's signees. */
export function registerEditingRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireVerifiedUser;
  const d: DocumentDeps = { db: deps.db, storage: deps.storage, config: deps.config };
  const tags = ['documents'];
  const detail = (r: { document: DocumentRow; signees: SigneeRow[]; fields: FieldRow[] }) => ({
    document: presentDocument(d, r.document),
    signees: r.signees.map(presentSignee),
    fields: r.fields.map(presentField),
  });
  const caller = (request: Parameters<typeof principalOf>[0], documentId: string) => ({
    documentId,
    userId: principalOf(request).userId,
    origin: originOf(request),
  });

  app.patch(
    '/api/documents/:documentId',
    {
      onRequest,
      schema: {
        operationId: 'updateDocument',
        summary: 'Change a draft, set your references, pin or file a document',
        tags,
        description:
          'Changes name, signingMessage, emailLanguage, signingOrderEnabled, signingGroupsEnabled (draft only, else 409 invalid_status and nothing changes); externalId, metadata (the whole object) and redirectUrl (draft or in process, else 409; null clears each); pinned (true pins it at the current time, false unpins) and folderId (a folder of the same tenant, or null) in any status.',
        params: documentParams,
        body: editDocumentBody,
        response: { 200: documentDetailSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      detail(
        await editing.editDocument(d, {
          ...caller(request, request.params.documentId),
          patch: request.body,
        }),
      ),
  );

  app.post(
    '/api/documents/:documentId/signees',
    {
      onRequest,
      schema: {
        operationId: 'addSignee',
        summary: 'Add a signee to a draft',
        tags,
        description:
          "Adds a signee to a draft (a signee input, as in quick-create's signees). 409 once sent.",
        params: documentParams,
        body: addSigneeBody,
        response: { 201: signeeChangeResponse, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const result = await editing.addSignee(d, {
        ...caller(request, request.params.documentId),
        signee: request.body,
      });
      return reply.code(201).send({ ...detail(result), signee: presentSignee(result.signee) });
    },
  );

  app.patch(
    '/api/documents/:documentId/signees/:signeeId',
    {
      onRequest,
      schema: {
        operationId: 'updateSignee',
        summary: "Change a draft's signee",
        tags,
        description:
          "Changes a draft's signee: email, name, signingOrder, signingGroupId (null clears the last two). 409 once sent.",
        params: signeeParams,
        body: editSigneeBody,
        response: { 200: signeeChangeResponse, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const result = await editing.editSignee(d, {
        ...caller(request, request.params.documentId),
        signeeId: request.params.signeeId,
        patch: request.body,
      });
      return { ...detail(result), signee: presentSignee(result.signee) };
    },
  );

  app.delete(
    '/api/documents/:documentId/signees/:signeeId',
    {
      onRequest,
      schema: {
        operationId: 'removeSignee',
        summary: "Remove a draft's signee",
        tags,
        description:
          "Removes a draft's signee and the fields placed for them. The last signee cannot be removed (422). 409 once sent.",
        params: signeeParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      await editing.removeSignee(d, {
        ...caller(request, request.params.documentId),
        signeeId: request.params.signeeId,
      });
      return reply.code(204).send(null);
    },
  );
}
