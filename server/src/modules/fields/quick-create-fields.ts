import { validationError, type FieldError } from '../../lib/errors.js';
import type { StoredUpload } from '../documents/documents.service.js';
import { readAll, type Storage } from '../storage/storage.js';
import type { PageSize } from './field-types.js';
import { placementErrors, type FieldDraft } from './fields.schemas.js';
import { parseFieldsPart } from './fields.service.js';
import { readPageSizes } from './page-sizes.js';

/** A quick-create field before its signee has an id: the signee by position. */
export type PlacedField = Omit<FieldDraft, 'signeeId'> & { signee: number };

/** Quick-create's `fields` and `textTags` parts, decoded and checked on their own. */
export type PlacedFields = { fields: PlacedField[]; textTags: boolean; errors: FieldError[] };

/** Reads the `fields` and `textTags` parts of a quick-create body whose signees are valid. */
export function placedFields(raw: Record<string, string>, signeeCount: number): PlacedFields {
  const errors: FieldError[] = [];
  const textTags = raw.textTags;
  if (textTags !== undefined && textTags !== 'true' && textTags !== 'false') {
    errors.push({ path: 'textTags', message: 'must be true or false' });
  }
  const parsed =
    raw.fields === undefined
      ? { fields: [], errors: [] }
      : parseFieldsPart(raw.fields, signeeCount);
  return {
    fields: parsed.fields,
    textTags: textTags === 'true',
    errors: [...errors, ...parsed.errors],
  };
}

/**
 * The checks of quick-create's fields that need the file: each on a page it has, inside that
 * page. Reads the file only when there are fields to place; answers what createDocument takes.
 */
export async function prepareFields(
  storage: Storage,
  upload: StoredUpload,
  placed: PlacedFields,
  _options: { signeeCount: number; scanTags: boolean },
): Promise<{ fields?: PlacedField[]; pageSizes?: PageSize[] }> {
  if (placed.fields.length === 0 && !placed.textTags) return {};
  const bytes = await readAll(storage, upload.key);
  const pageSizes = await readPageSizes(bytes);
  const errors = placementErrors(placed.fields, pageSizes);
  if (errors.length > 0) throw validationError(errors);
  return { fields: placed.fields, pageSizes };
}
