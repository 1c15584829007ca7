// The Prepare view's model: a draft's fields as the sender edits them, in PDF points from the
// top-left of the page as displayed (decisions §8), and how they go to and come back from
// `PUT /api/documents/{id}/fields`. Pure functions: no React, no DOM.
import type * as Api from '../../../server/src/api-types.js';
import type { FieldError } from '../shared/http.js';

export type FieldType = Api.Field['type'];
export type Signee = Api.Signee;

/** A page's size in points, as pdf.js's viewport at scale 1 gives it. */
export type PageSize = { width: number; height: number };

/** A field being edited; `key` is stable across edits and saves (the id once saved). */
export type DraftField = {
  key: string;
  id?: string;
  signeeId: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string;
  /** A dropdown's options as typed, one per line. */
  optionsText: string;
  /** A prefilled value as the server holds it; kept as is. */
  value: string | boolean | null;
};

/** What `PUT …/fields` takes for one field. */
export type FieldInput = Api.PutFieldsBody['fields'][number];

/** The types in the order the palette offers them. */
export const FIELD_TYPES: FieldType[] = [
  'signature',
  'initials',
  'date',
  'name',
  'email',
  'text',
  'checkbox',
  'dropdown',
];

export const TYPE_NAMES: Record<FieldType, string> = {
  signature: 'Signature',
  initials: 'Initials',
  date: 'Date',
  name: 'Name',
  email: 'E-mail',
  text: 'Text',
  checkbox: 'Checkbox',
  dropdown: 'Dropdown',
};

/** Only these have a `required` the sender chooses; the others always are. */
export const OPTIONAL_TYPES: ReadonlySet<FieldType> = new Set(['text', 'checkbox', 'dropdown']);

/** A new field's size in points: large enough for what the seal draws there. */
export const DEFAULT_SIZE: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 180, height: 48 },
  initials: { width: 60, height: 36 },
  date: { width: 110, height: 18 },
  name: { width: 150, height: 18 },
  email: { width: 180, height: 18 },
  text: { width: 150, height: 18 },
  checkbox: { width: 14, height: 14 },
  dropdown: { width: 120, height: 18 },
};

/** The smallest box a resize leaves, in points. */
export const MIN_SIZE = 8;

/** One colour per signee, in order; dark enough for text and outlines on white (AA). */
export const SIGNEE_COLOURS = ['#2147c4', '#b42318', '#176c3a', '#7a3fa8', '#8a4b00', '#00707f'];

export const colourOf = (signees: Signee[], signeeId: string): string =>
  SIGNEE_COLOURS[
    Math.max(
      0,
      signees.findIndex((s) => s.id === signeeId),
    ) % SIGNEE_COLOURS.length
  ];

let nextKey = 1;
const newKey = () => `new-${nextKey++}`;

const round = (n: number) => Math.round(n * 100) / 100;

/** A field from the server as the editor holds it. */
export function fromServer(field: Api.Field): DraftField {
  return {
    key: field.id,
    id: field.id,
    signeeId: field.signeeId,
    type: field.type,
    page: field.page,
    x: field.x,
    y: field.y,
    width: field.width,
    height: field.height,
    required: field.required,
    label: field.label ?? '',
    optionsText: (field.options ?? []).join('\n'),
    value: field.value,
  };
}

/** The options typed, one per line, blank lines left out. */
export function optionsOf(field: DraftField): string[] {
  return field.optionsText
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
}

/** The body of `PUT …/fields` for one field. */
export function toInput(field: DraftField): FieldInput {
  const input: FieldInput = {
    signeeId: field.signeeId,
    type: field.type,
    page: field.page,
    x: round(field.x),
    y: round(field.y),
    width: round(field.width),
    height: round(field.height),
    label: field.label.trim() || null,
  };
  if (field.id) input.id = field.id;
  if (OPTIONAL_TYPES.has(field.type)) input.required = field.required;
  // A dropdown without options goes as such: the service's own message says what is missing.
  if (field.type === 'dropdown') {
    const options = optionsOf(field);
    input.options = options.length > 0 ? options : null;
  }
  if (field.value !== null && OPTIONAL_TYPES.has(field.type)) input.value = field.value;
  return input;
}

/** Keeps a box inside its page and at least MIN_SIZE (or the page) on each side. */
export function clampBox<T extends { x: number; y: number; width: number; height: number }>(
  box: T,
  page: PageSize,
): T {
  const width = Math.min(Math.max(box.width, Math.min(MIN_SIZE, page.width)), page.width);
  const height = Math.min(Math.max(box.height, Math.min(MIN_SIZE, page.height)), page.height);
  return {
    ...box,
    width,
    height,
    x: Math.min(Math.max(0, box.x), page.width - width),
    y: Math.min(Math.max(0, box.y), page.height - height),
  };
}

/**
 * A new field of a type for a signee, centred on a point of a page (points), kept on the page.
 */
export function newField(
  type: FieldType,
  signeeId: string,
  pageNumber: number,
  page: PageSize,
  centre: { x: number; y: number },
): DraftField {
  const size = DEFAULT_SIZE[type];
  const width = Math.min(size.width, page.width);
  const height = Math.min(size.height, page.height);
  return clampBox(
    {
      key: newKey(),
      signeeId,
      type,
      page: pageNumber,
      x: centre.x - width / 2,
      y: centre.y - height / 2,
      width,
      height,
      required: !OPTIONAL_TYPES.has(type),
      label: '',
      optionsText: '',
      value: null,
    },
    page,
  );
}

/** A field's accessible name: its label or type, whose it is, and where. */
export function describeField(field: DraftField, signees: Signee[]): string {
  const signee = signees.find((s) => s.id === field.signeeId);
  const what = field.label.trim()
    ? `${TYPE_NAMES[field.type]} field “${field.label.trim()}”`
    : `${TYPE_NAMES[field.type]} field`;
  return `${what} for ${signee?.name ?? 'an unknown signee'} on page ${field.page}`;
}

/** Signees who have no signature field, when there are fields at all (sending is refused then). */
export function signeesWithoutSignature(
  fields: Array<{ signeeId: string; type: FieldType }>,
  signees: Signee[],
): Signee[] {
  if (fields.length === 0) return [];
  const signing = new Set(fields.filter((f) => f.type === 'signature').map((f) => f.signeeId));
  return signees.filter((s) => !signing.has(s.id));
}

/** A server error pinned to a field (by key) and the property it names (`page`, `options`…). */
export type PinnedError = { key: string | null; property: string | null; message: string };

/**
 * Pins the 422 errors of a save to the fields they point at: `fields[3].page` is the fourth
 * field sent. Errors that point at no field (`fields`) keep a null key.
 */
export function pinErrors(errors: FieldError[], sent: DraftField[]): PinnedError[] {
  return errors.map((e) => {
    // `fields[3].page` from the service's checks, `body.fields.3.page` from request validation.
    const match = /^(?:body\.)?fields(?:\[(\d+)\]|\.(\d+))(?:\.(\w+))?/.exec(e.path);
    const field = match ? sent[Number(match[1] ?? match[2])] : undefined;
    if (!match || !field) return { key: null, property: null, message: `${e.path}: ${e.message}` };
    return { key: field.key, property: match[3] ?? null, message: e.message };
  });
}

const PROPERTY_NAMES: Record<string, string> = {
  page: 'Page',
  x: 'X',
  y: 'Y',
  width: 'Width',
  height: 'Height',
  options: 'Options',
  label: 'Label',
  signeeId: 'Signee',
  value: 'Value',
  type: 'Type',
  required: 'Required',
};

/** `Options: ` before a message about a field's options; nothing for the field as a whole. */
export const propertyName = (property: string | null): string =>
  property ? `${PROPERTY_NAMES[property] ?? property}: ` : '';
