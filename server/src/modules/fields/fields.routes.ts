import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { documentParams } from '../documents/documents.schemas.js';
import { fieldsResponse, putFieldsBody } from './fields.schemas.js';
import { getFields, presentField, putFields } from './fields.service.js';

/** GET and PUT /api/documents/{id}/fields: the fields placed on a document's pages. */
export function registerFieldRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireVerifiedUser;
  const tags = ['fields'];

  app.get(
    '/api/documents/:documentId/fields',
    {
      onRequest,
      schema: {
        operationId: 'getFields',
        summary: "Get a document's fields",
        tags,
        params: documentParams,
        response: { 200: fieldsResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const fields = await getFields(deps, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
      });
      return { fields: fields.map(presentField) };
    },
  );

  app.put(
    '/api/documents/:documentId/fields',
    {
      onRequest,
      schema: {
        operationId: 'putFields',
        summary: "Replace a draft's fields",
        tags,
        description:
          "Replaces all of a draft's fields (409 once sent). Places are PDF points from the top-left of the page as displayed; errors point at the field (`fields[3].page`).",
        params: documentParams,
        body: putFieldsBody,
        response: { 200: fieldsResponse, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const fields = await putFields(deps, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
        fields: request.body.fields,
        origin: originOf(request),
      });
      return { fields: fields.map(presentField) };
    },
  );
}
