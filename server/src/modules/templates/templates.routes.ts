import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { requestFingerprint } from '../../http/idempotency.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { AppError, validationError, type FieldError } from '../../lib/errors.js';
import { documentParams, fieldErrorsOf } from '../documents/documents.schemas.js';
import * as documents from '../documents/documents.service.js';
import { sendingDepsOf } from '../documents/documents.routes.js';
import {
  quickCreateErrors,
  readQuickCreateParts,
  refuseOversizedUpload,
  requirePdf,
} from '../documents/upload.js';
import { presentField } from '../fields/fields.service.js';
import { placedFields, prepareFields } from '../fields/quick-create-fields.js';
import { templateFileKey } from '../storage/keys.js';
import { createDocumentFromTemplate } from './from-template.service.js';
import {
  createTemplateParts,
  fromTemplateBody,
  fromTemplateResponse,
  listTemplatesQuery,
  listTemplatesResponse,
  putTemplateFieldsBody,
  saveAsTemplateBody,
  templateFieldsResponse,
  templateParams,
  templatePartSchema,
  templateWithFieldsSchema,
  updateTemplateBody,
} from './templates.schemas.js';
import * as templates from './templates.service.js';
import { activityByOf } from '../tenants/activity.routes.js';

// The text parts of POST /api/templates, decoded: `tenantId` and the `template` JSON.
function templatePartsOf(raw: Record<string, string>) {
  const errors: FieldError[] = [];
  const tenantId = z.uuid().safeParse(raw.tenantId);
  if (!tenantId.success) errors.push({ path: 'tenantId', message: 'must be a tenant id (UUID)' });
  let json: unknown;
  try {
    json = JSON.parse(raw.template ?? '');
  } catch {
    errors.push({ path: 'template', message: 'must be a JSON object {name, roles, …}' });
    return { errors };
  }
  const template = templatePartSchema.safeParse(json);
  if (!template.success) {
    errors.push(
      ...fieldErrorsOf(template.error).map((e) => ({ ...e, path: `template.${e.path}` })),
    );
    return { errors };
  }
  return tenantId.success
    ? { errors, tenantId: tenantId.data, template: template.data }
    : { errors };
}

/** Templates (decisions §11): create, save a draft as one, read, list, edit, fields, delete, use. */
export function registerTemplateRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireVerifiedUser;
  const d = sendingDepsOf(deps);
  const tags = ['templates'];
  const answer = (row: Parameters<typeof templates.presentTemplateWithFields>[1]) =>
    templates.presentTemplateWithFields(d, row);

  app.post(
    '/api/templates',
    {
      config: { multipartBody: createTemplateParts },
      onRequest: [onRequest, refuseOversizedUpload],
      schema: {
        operationId: 'createTemplate',
        summary: 'Upload a PDF as a template, with its roles and fields',
        tags,
        consumes: ['multipart/form-data'],
        description:
          'Multipart parts: file (one PDF, below 50 MiB), tenantId, template (JSON {name, roles: [{name, signingOrder?, role?}], signingMessage?, emailLanguage?, signingOrderEnabled?}; role: signer (default), approver or cc, the recipient role of whoever fills it; fields only for signer roles); optional fields (JSON array as quick-create, with role, the 0-based position in roles, instead of signee) and textTags (true: {{TYPE:N}} tags, N the 1-based role).',
        response: {
          201: templateWithFieldsSchema,
          ...errorResponses(401, 403, 404, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError('unsupported_media_type', 'Send multipart/form-data with a file part.');
      }
      const { userId } = principalOf(request);
      const parts = await readQuickCreateParts(request, deps.storage, templateFileKey);
      const upload = parts.upload;
      try {
        const decoded = templatePartsOf(parts.fields);
        const roleCount = decoded.template?.roles.length ?? 0;
        const placed = decoded.template ? placedFields(parts.fields, roleCount, 'role') : null;
        const errors = quickCreateErrors(parts, [...decoded.errors, ...(placed?.errors ?? [])]);
        if (errors.length > 0 || !decoded.template || !decoded.tenantId || !placed || !upload) {
          throw validationError(errors);
        }
        await requirePdf(deps.storage, upload, parts.ends);
        const prepared = await prepareFields(deps.storage, upload, placed, {
          signeeCount: roleCount,
          kept: parts.ends?.whole,
          participant: 'role',
          pages: 'always',
          roles: decoded.template.roles.map((r) => r.role ?? 'signer'),
        });
        const fingerprint = () =>
          requestFingerprint([request.url, parts.fields, upload.sha256, upload.filename]);
        if (await deps.idempotency.begin(request, reply, fingerprint)) {
          await deps.storage.delete(upload.key);
          return reply;
        }
        const row = await templates.createTemplate(d, {
          userId,
          by: activityByOf(request),
          tenantId: decoded.tenantId,
          upload,
          template: decoded.template,
          fields: prepared.fields ?? [],
          pageSizes: prepared.pageSizes!,
        });
        return reply.code(201).send(answer(row));
      } catch (err) {
        if (upload) await deps.storage.delete(upload.key);
        throw err;
      }
    },
  );

  app.post(
    '/api/documents/:documentId/save-as-template',
    {
      onRequest,
      schema: {
        operationId: 'saveAsTemplate',
        summary: 'Make a template of a draft',
        tags,
        description:
          "The draft's signees become roles, named by their names unless roles names them (one per signee, in order); its fields, settings and file (copied once) make the template. The draft stays as it is.",
        params: documentParams,
        body: saveAsTemplateBody,
        response: {
          201: templateWithFieldsSchema,
          ...errorResponses(401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) => {
      const row = await templates.saveAsTemplate(d, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
        by: activityByOf(request),
        ...request.body,
      });
      return reply.code(201).send(answer(row));
    },
  );

  app.get(
    '/api/templates/:templateId',
    {
      onRequest,
      schema: {
        operationId: 'getTemplate',
        summary: 'Get a template with its fields',
        tags,
        params: templateParams,
        response: { 200: templateWithFieldsSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) =>
      answer(
        await templates.readableTemplate(deps.db, {
          templateId: request.params.templateId,
          userId: principalOf(request).userId,
        }),
      ),
  );

  app.get(
    '/api/templates',
    {
      onRequest,
      schema: {
        operationId: 'listTemplates',
        summary: "List a tenant's templates, newest first",
        tags,
        querystring: listTemplatesQuery,
        response: { 200: listTemplatesResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const page = await templates.listTemplates(d, {
        userId: principalOf(request).userId,
        ...request.query,
      });
      return {
        templates: page.templates.map((t) => templates.presentTemplate(d, t)),
        nextCursor: page.nextCursor,
      };
    },
  );

  app.patch(
    '/api/templates/:templateId',
    {
      onRequest,
      schema: {
        operationId: 'updateTemplate',
        summary: "Change a template's name, settings, roles or direct link",
        tags,
        description:
          'roles is the whole new list: an entry with an id keeps that role, one without is new, a role left out goes with its fields. directLink {enabled} publishes the template at {base_url}/t/{token} (owner or admin; a template with one role); disabling makes that URL answer 410, enabling again brings the same URL back. Documents already made keep what they were made with.',
        params: templateParams,
        body: updateTemplateBody,
        response: { 200: templateWithFieldsSchema, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      answer(
        await templates.updateTemplate(d, {
          templateId: request.params.templateId,
          userId: principalOf(request).userId,
          by: activityByOf(request),
          ...request.body,
        }),
      ),
  );

  app.put(
    '/api/templates/:templateId/fields',
    {
      onRequest,
      schema: {
        operationId: 'putTemplateFields',
        summary: "Replace a template's fields",
        tags,
        params: templateParams,
        body: putTemplateFieldsBody,
        response: { 200: templateFieldsResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const rows = await templates.putTemplateFields(d, {
        templateId: request.params.templateId,
        userId: principalOf(request).userId,
        by: activityByOf(request),
        fields: request.body.fields,
      });
      return { fields: rows.map(templates.presentTemplateField) };
    },
  );

  app.delete(
    '/api/templates/:templateId',
    {
      onRequest,
      schema: {
        operationId: 'deleteTemplate',
        summary: 'Delete a template',
        tags,
        description: 'Documents made from it stay, with their file.',
        params: templateParams,
        response: { 204: z.null(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await templates.deleteTemplate(d, {
        templateId: request.params.templateId,
        userId: principalOf(request).userId,
        by: activityByOf(request),
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/templates/:templateId/documents',
    {
      onRequest,
      schema: {
        operationId: 'createDocumentFromTemplate',
        summary: 'Create a document from a template, and optionally send it',
        tags,
        description:
          "signees: one per role, the role by name (any case) or 0-based index. prefill: values by field label. The document shares the template's file and copies its fields and settings. send: true sends it in the same request, with send-for-signing's credits, checks and deliveries; a refusal creates nothing.",
        params: templateParams,
        body: fromTemplateBody,
        response: {
          201: fromTemplateResponse,
          ...errorResponses(401, 402, 403, 404, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const made = await createDocumentFromTemplate(d, {
        templateId: request.params.templateId,
        userId: principal.userId,
        senderName: principal.name,
        origin: originOf(request),
        ...request.body,
      });
      if (request.body.send) deps.warmUpSealing();
      return reply.code(201).send({
        document: documents.presentDocument(d, made.document),
        signees: made.signees.map(documents.presentSignee),
        fields: made.fields.map(presentField),
        ...('deliveries' in made ? { deliveries: made.deliveries } : {}),
      });
    },
  );
}
