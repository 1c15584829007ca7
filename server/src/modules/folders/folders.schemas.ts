import { z } from 'zod';

/** How deep folders may nest: a folder at depth 1 is at the top. */
export const MAX_FOLDER_DEPTH = 16;

/** The Folder resource (decisions §9). */
export const folderSchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    name: z.string(),
    parentId: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Folder' });

const folderName = z.string().trim().min(1, 'must not be empty').max(255);

export const createFolderBody = z
  .object({ name: folderName, parentId: z.uuid().nullable().optional() })
  .strict();

export const updateFolderBody = z
  .object({ name: folderName.optional(), parentId: z.uuid().nullable().optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'give name and/or parentId');

export const folderParams = z.object({ tenantId: z.uuid(), folderId: z.uuid() });

/** The folder listing's page: `limit` 1–1000 (default 100) after the opaque `cursor`. */
export const listFoldersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().max(2000).optional(),
});
