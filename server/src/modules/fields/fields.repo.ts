import type { DbOrTrx } from '../../db/handle.js';
import { preparedQuery } from '../../db/prepared.js';
import type { Box, FieldType } from './field-types.js';
import type { ShowIf } from './show-if.js';
import type { TextValidation } from './validation.js';

/** A field (decisions §8) of a document. */
export type FieldRow = {
  id: string;
  signee_id: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string | null;
  /** A dropdown's options. */
  options: string[] | null;
  value: string | boolean | null;
  /** The text tag the field came from: its value covers it. */
  tag_box: Box | null;
  filled_at: string | null;
  /** A number field's bounds and decimal places (decisions §15). */
  min?: number | null;
  max?: number | null;
  decimals?: number | null;
  /** A text field's rules. */
  validation?: TextValidation | null;
  /** The condition under which the field shows. */
  show_if?: ShowIf | null;
};

// A document's fields are one JSON array in its row's `fields` column (migration 0014), written
// and read a whole set at a time. Each element keeps only the keys that say something: no
// nulls, and `required` only when true: twenty fields take 3.6 KB instead of 6 KB, less for
// SQLite to write with each commit (issue 24's speed goal).
type StoredField = Pick<
  FieldRow,
  'id' | 'signee_id' | 'type' | 'page' | 'x' | 'y' | 'width' | 'height'
> & {
  required?: true;
  label?: string;
  options?: string[];
  value?: string | boolean;
  tag_box?: Box;
  filled_at?: string;
  min?: number;
  max?: number;
  decimals?: number;
  validation?: TextValidation;
  show_if?: ShowIf;
};

/** The stored form of a document's fields: null when it has none. */
export function encodeFields(fields: FieldRow[]): string | null {
  if (fields.length === 0) return null;
  const stored = fields.map((f) => {
    const field: StoredField = {
      id: f.id,
      signee_id: f.signee_id,
      type: f.type,
      page: f.page,
      x: f.x,
      y: f.y,
      width: f.width,
      height: f.height,
    };
    if (f.required) field.required = true;
    if (f.label !== null) field.label = f.label;
    if (f.options !== null) field.options = f.options;
    if (f.value !== null) field.value = f.value;
    if (f.tag_box !== null) field.tag_box = f.tag_box;
    if (f.filled_at !== null) field.filled_at = f.filled_at;
    if (f.min != null) field.min = f.min;
    if (f.max != null) field.max = f.max;
    if (f.decimals != null) field.decimals = f.decimals;
    if (f.validation != null) field.validation = f.validation;
    if (f.show_if != null) field.show_if = f.show_if;
    return field;
  });
  return JSON.stringify(stored);
}

/** The fields of a stored `fields` column (a document's or a template's). */
export function decodeFields(json: string | null): FieldRow[] {
  if (json === null) return [];
  return (JSON.parse(json) as StoredField[]).map((f) => ({
    id: f.id,
    signee_id: f.signee_id,
    type: f.type,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
    required: f.required === true,
    label: f.label ?? null,
    options: f.options ?? null,
    value: f.value ?? null,
    tag_box: f.tag_box ?? null,
    filled_at: f.filled_at ?? null,
    min: f.min ?? null,
    max: f.max ?? null,
    decimals: f.decimals ?? null,
    validation: f.validation ?? null,
    show_if: f.show_if ?? null,
  }));
}

const selectFields = preparedQuery((q, p: { documentId: string }) =>
  q.selectFrom('documents').select('fields').where('id', '=', p.documentId),
);
const updateFields = preparedQuery((q, p: { documentId: string; fields: string | null }) =>
  q.updateTable('documents').set({ fields: p.fields }).where('id', '=', p.documentId),
);

/** A document's fields in their order. */
export async function listFields(db: DbOrTrx, documentId: string): Promise<FieldRow[]> {
  const [document] = await selectFields(db, { documentId });
  return decodeFields(document?.fields ?? null);
}

/** Replaces a document's fields with `fields`, in their order. */
export async function saveFields(db: DbOrTrx, documentId: string, fields: FieldRow[]) {
  await updateFields(db, { documentId, fields: encodeFields(fields) });
}

/**
 * Removes the fields placed for a signee; how many there were. The caller holds the document
 * (lockDocument), as for every change to its fields.
 */
export async function deleteSigneeFields(
  db: DbOrTrx,
  documentId: string,
  signeeId: string,
): Promise<number> {
  const fields = await listFields(db, documentId);
  const kept = fields.filter((f) => f.signee_id !== signeeId);
  if (kept.length < fields.length) await saveFields(db, documentId, kept);
  return fields.length - kept.length;
}

/**
 * Writes fields' values, each filled at `at`. The caller holds the document (lockDocument), so
 * that two signees signing at once both keep their values.
 */
export async function fillFields(
  db: DbOrTrx,
  documentId: string,
  values: Array<{ fieldId: string; value: string | boolean | null }>,
  at: string,
) {
  if (values.length === 0) return;
  const byId = new Map(values.map((v) => [v.fieldId, v.value]));
  const fields = (await listFields(db, documentId)).map((f) => {
    if (!byId.has(f.id)) return f;
    const value = byId.get(f.id)!;
    return { ...f, value, filled_at: value === null ? null : at };
  });
  await saveFields(db, documentId, fields);
}

/** Stores the pages' displayed sizes read from a document's file. */
export async function savePageSizes(
  db: DbOrTrx,
  documentId: string,
  pages: Array<{ width: number; height: number }>,
) {
  await db
    .updateTable('documents')
    .set({ page_sizes: JSON.stringify(pages) })
    .where('id', '=', documentId)
    .execute();
}

/** Stores why a document's pages could not be read (the 422's detail): never read again. */
export async function savePageSizesError(db: DbOrTrx, documentId: string, detail: string) {
  await db
    .updateTable('documents')
    .set({ page_sizes_error: detail })
    .where('id', '=', documentId)
    .execute();
}
