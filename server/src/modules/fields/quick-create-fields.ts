import { validationError, type FieldError } from '../../lib/errors.js';
import type { StoredUpload } from '../documents/documents.service.js';
import { readAll, type Storage } from '../storage/storage.js';
import type { PageSize } from './field-types.js';
import {
  nonSignerFieldErrors,
  nonSignerProblem,
  type SigneeRole,
} from '../documents/signee-roles.js';
import { MAX_FIELDS, fieldPath, placementErrors, type FieldDraft } from './fields.schemas.js';
import { parseFieldsPart } from './fields.service.js';
import { knownPageSizes, readPageSizes } from './page-sizes.js';
import { showIfErrors } from './show-if.js';
import { scanTextTagsOffThread } from './text-tags-worker.js';

/** A quick-create field before its signee has an id: the signee by position. */
export type PlacedField = Omit<FieldDraft, 'signeeId'> & { signee: number };

/** Quick-create's `fields` and `textTags` parts, decoded and checked on their own. */
export type PlacedFields = { fields: PlacedField[]; textTags: boolean; errors: FieldError[] };

/** Reads the `fields` and `textTags` parts of a quick-create body whose signees are valid. */
export function placedFields(
  raw: Record<string, string>,
  signeeCount: number,
  participant: 'signee' | 'role' = 'signee',
): PlacedFields {
  const errors: FieldError[] = [];
  const textTags = raw.textTags;
  if (textTags !== undefined && textTags !== 'true' && textTags !== 'false') {
    errors.push({ path: 'textTags', message: 'must be true or false' });
  }
  const parsed =
    raw.fields === undefined
      ? { fields: [], errors: [] }
      : parseFieldsPart(raw.fields, signeeCount, participant);
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
  options: {
    signeeCount: number;
    /** The file's bytes when the upload kept them; else they are read from storage. */
    kept?: () => Buffer | null;
    /** `role`: a template's fields, whose tags name roles. */
    participant?: 'signee' | 'role';
    /** Read the pages' sizes even with no field to place (a template always needs them). */
    pages?: 'always';
    /** Each signee's (role's) recipient role, by position: fields are only for signers. */
    roles?: SigneeRole[];
  },
): Promise<{ fields?: PlacedField[]; pageSizes?: PageSize[] }> {
  if (placed.fields.length === 0 && !placed.textTags && options.pages !== 'always') return {};
  const read = async () => options.kept?.() ?? (await readAll(storage, upload.key));
  const participant = options.participant ?? 'signee';
  const roleOf = (f: { signee: number }) => options.roles?.[f.signee];
  const placedErrors = nonSignerFieldErrors(placed.fields, {
    roleOf,
    path: (i) => fieldPath(i, participant),
    participant,
  });
  if (!placed.textTags) {
    const pageSizes =
      knownPageSizes(upload.sha256) ?? (await readPageSizes(await read(), upload.sha256));
    const errors = [
      ...placementErrors(placed.fields, pageSizes),
      ...placedErrors,
      ...showIfErrors(placed.fields, (f) => f.signee),
    ];
    if (errors.length > 0) throw validationError(errors);
    return { fields: placed.fields, pageSizes };
  }
  // Text tags: one pass of pdf.js gives the tags and the pages' sizes.
  const scan = await scanTextTagsOffThread(await read(), {
    signeeCount: options.signeeCount,
    participant: options.participant,
  });
  // A tag for an approver or a cc is a problem of that tag, told with its page.
  const tagProblems = [
    ...scan.problems,
    ...scan.fields.flatMap(({ tag, page, ...f }) => {
      const message = nonSignerProblem(roleOf(f), participant);
      return message ? [{ tag, page, message }] : [];
    }),
  ];
  const errors = [
    ...placementErrors(placed.fields, scan.pages),
    ...placedErrors,
    ...tagProblems.map((p) => ({
      path: 'textTags',
      message: `${p.tag ? `${p.tag} on page ${p.page}` : `page ${p.page}`}: ${p.message}`,
    })),
  ];
  if (errors.length > 0) {
    const detail = tagProblems.length
      ? `Some text tags cannot become fields: ${errors.at(-1)!.message}${tagProblems.length > 1 ? ` (and ${tagProblems.length - 1} more)` : ''}.`
      : undefined;
    throw validationError(errors, detail);
  }
  const tagged = scan.fields.map(({ tag: _tag, ...field }) => field);
  // The same limit as the `fields` part and PUT .../fields: a document the sender could not
  // save back is refused here rather than stored.
  if (placed.fields.length + tagged.length > MAX_FIELDS) {
    throw validationError(
      [
        {
          path: 'textTags',
          message: `at most ${MAX_FIELDS} fields: the text tags make ${tagged.length} and the fields part ${placed.fields.length}`,
        },
      ],
      `A document has at most ${MAX_FIELDS} fields; the text tags and the fields part make ${placed.fields.length + tagged.length}.`,
    );
  }
  // Conditions may look at fields the tags made: checked on the whole set (a tag has none).
  const all = [...placed.fields, ...tagged];
  const conditionErrors = showIfErrors(all, (f) => f.signee);
  if (conditionErrors.length > 0) throw validationError(conditionErrors);
  return { fields: all, pageSizes: scan.pages };
}
