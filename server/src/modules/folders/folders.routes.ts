import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { tenantParams } from '../tenants/tenants.schemas.js';
import {
  createFolderBody,
  folderParams,
  folderSchema,
  listFoldersQuery,
  updateFolderBody,
} from './folders.schemas.js';
import * as folders from './folders.service.js';

const folderResponse = z.object({ folder: folderSchema });

/** Folders of a tenant's documents: create, list, get, rename or move, delete when empty. */
export function registerFolderRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireVerifiedUser;
  const d = { db: deps.db };
  const tags = ['folders'];

  app.post(
    '/api/tenants/:tenantId/folders',
    {
      onRequest,
      schema: {
        operationId: 'createFolder',
        summary: 'Create a folder',
        tags,
        description:
          'Creates a folder, at the top or inside parentId (a folder of this tenant). A tenant has at most 1000 folders: past that, 409 folder_limit_reached.',
        params: tenantParams,
        body: createFolderBody,
        response: {
          201: folderResponse,
          ...errorResponses(401, 403, 404, 'folder_limit_reached', 422),
        },
      },
    },
    async (request, reply) => {
      const folder = await folders.createFolder(d, {
        ...request.body,
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      });
      return reply.code(201).send({ folder: folders.presentFolder(folder) });
    },
  );

  app.get(
    '/api/tenants/:tenantId/folders',
    {
      onRequest,
      schema: {
        operationId: 'listFolders',
        summary: "List a tenant's folders",
        tags,
        description:
          "The tenant's folders by name, each naming its parent (null at the top), a page at a time: `limit` 1–1000, default 100; `nextCursor` (null on the last page) goes back as `cursor` for the next. A tenant has at most 1000 folders.",
        params: tenantParams,
        querystring: listFoldersQuery,
        response: {
          200: z.object({ folders: z.array(folderSchema), nextCursor: z.string().nullable() }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) => {
      const page = await folders.listFolders(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        ...request.query,
      });
      return { folders: page.folders.map(folders.presentFolder), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/api/tenants/:tenantId/folders/:folderId',
    {
      onRequest,
      schema: {
        operationId: 'getFolder',
        summary: 'Get a folder',
        tags,
        params: folderParams,
        response: { 200: folderResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({
      folder: folders.presentFolder(
        await folders.getFolder(d, { ...request.params, userId: principalOf(request).userId }),
      ),
    }),
  );

  app.patch(
    '/api/tenants/:tenantId/folders/:folderId',
    {
      onRequest,
      schema: {
        operationId: 'updateFolder',
        summary: 'Rename or move a folder',
        tags,
        description:
          'Renames (name) and/or moves (parentId; null for the top) a folder. Moving it into itself or a folder inside it is refused (422).',
        params: folderParams,
        body: updateFolderBody,
        response: { 200: folderResponse, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({
      folder: folders.presentFolder(
        await folders.updateFolder(d, {
          ...request.params,
          userId: principalOf(request).userId,
          patch: request.body,
        }),
      ),
    }),
  );

  app.delete(
    '/api/tenants/:tenantId/folders/:folderId',
    {
      onRequest,
      schema: {
        operationId: 'deleteFolder',
        summary: 'Delete an empty folder',
        tags,
        description:
          'Deletes an empty folder; 409 folder_not_empty while it holds documents or folders.',
        params: folderParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await folders.deleteFolder(d, { ...request.params, userId: principalOf(request).userId });
      return reply.code(204).send(null);
    },
  );
}
