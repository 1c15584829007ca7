/** The kinds of field a sender places on a document (decisions §8). */
export const FIELD_TYPES = [
  'signature',
  'initials',
  'date',
  'name',
  'email',
  'text',
  'checkbox',
  'dropdown',
  'attachment',
  'radio',
  'number',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A box on a page as displayed, in PDF points from its top-left corner. */
export type Box = { x: number; y: number; width: number; height: number };

/** Types the service fills or the signee's adopted signature fills: always required. */
export const ALWAYS_REQUIRED: ReadonlySet<FieldType> = new Set([
  'signature',
  'initials',
  'date',
  'name',
  'email',
]);

/** Types an input may prefill. */
export const PREFILLABLE: ReadonlySet<FieldType> = new Set([
  'text',
  'checkbox',
  'dropdown',
  'radio',
  'number',
]);

/**
 * The smallest box (PDF points) of each type: a text tag's own box is grown to it, so that
 * the value drawn there stays legible.
 */
export const MIN_FIELD_SIZE: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 120, height: 36 },
  initials: { width: 48, height: 28 },
  date: { width: 72, height: 16 },
  name: { width: 100, height: 16 },
  email: { width: 120, height: 16 },
  text: { width: 80, height: 16 },
  checkbox: { width: 12, height: 12 },
  dropdown: { width: 80, height: 16 },
  attachment: { width: 80, height: 16 },
  radio: { width: 80, height: 16 },
  number: { width: 48, height: 16 },
};

/** A page's size as a viewer shows it (after its CropBox and /Rotate), in points. */
export type PageSize = { width: number; height: number };
