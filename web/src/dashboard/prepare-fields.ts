// The Prepare view's model: the fields of a draft or a template as the sender edits them, in PDF
// points from the top-left of the page as displayed (decisions §8), and how they go to and come
// back from `PUT /api/documents/{id}/fields` and `PUT /api/templates/{id}/fields`. Each field
// belongs to a participant: a draft's signee or a template's role. Pure functions: no React, no
// DOM.
import type * as Api from '../../../server/src/api-types.js';
import {
  ALWAYS_REQUIRED,
  FIELD_TYPES as SERVICE_FIELD_TYPES,
} from '../../../server/src/modules/fields/field-types.js';
import type { FieldError } from '../shared/http.js';
import { NO_RULES, rulesFromServer, rulesInput, type RulesDraft } from './prepare-rules.js';

export type FieldType = Api.Field['type'];

/**
 * Whom a field is for: a draft's signee (with their e-mail as `detail`) or a template's role.
 * The editor tells them apart only by this id.
 */
export type Participant = { id: string; name: string; detail?: string };

/** A page's size in points, as pdf.js's viewport at scale 1 gives it. */
export type PageSize = { width: number; height: number };

/** A field being edited; `key` is stable across edits and saves (the id once saved). */
export type DraftField = {
  key: string;
  id?: string;
  /** The signee's id on a draft, the role's on a template. */
  participantId: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string;
  /** A dropdown's or radio's options as typed, one per line. */
  optionsText: string;
  /** A prefilled value as the server holds it; kept as is. */
  value: string | boolean | null;
  /** A number's bounds, a text's validation, the condition that shows the field. */
  rules: RulesDraft;
};

/** What `PUT /api/documents/{id}/fields` takes for one field. */
export type FieldInput = Api.PutFieldsBody['fields'][number];
/** What `PUT /api/templates/{id}/fields` takes for one field. */
export type TemplateFieldInput = Api.PutTemplateFieldsBody['fields'][number];

/** The types in the order the palette offers them: the service's own list. */
export const FIELD_TYPES: readonly FieldType[] = SERVICE_FIELD_TYPES;

export const TYPE_NAMES: Record<FieldType, string> = {
  signature: 'Signature',
  initials: 'Initials',
  date: 'Date',
  name: 'Name',
  email: 'E-mail',
  text: 'Text',
  checkbox: 'Checkbox',
  dropdown: 'Dropdown',
  attachment: 'Attachment',
  radio: 'Radio buttons',
  number: 'Number',
};

/** Only these have a `required` the sender chooses; the others always are. */
export const OPTIONAL_TYPES: ReadonlySet<FieldType> = new Set(
  FIELD_TYPES.filter((t) => !ALWAYS_REQUIRED.has(t)),
);

/** The types that offer a list of options. */
export const CHOICE_TYPES: ReadonlySet<FieldType> = new Set(['dropdown', 'radio']);

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
  attachment: { width: 150, height: 18 },
  radio: { width: 120, height: 18 },
  number: { width: 80, height: 18 },
};

/** The smallest box a resize leaves, in points. */
export const MIN_SIZE = 8;

/** One colour per participant, in order; dark enough for text and outlines on white (AA). */
export const SIGNEE_COLOURS = ['#2147c4', '#b42318', '#176c3a', '#7a3fa8', '#8a4b00', '#00707f'];

/** The colour of a participant's fields: by their position among the participants. */
export const colourOf = (participants: Participant[], participantId: string): string =>
  SIGNEE_COLOURS[
    Math.max(
      0,
      participants.findIndex((p) => p.id === participantId),
    ) % SIGNEE_COLOURS.length
  ];

let nextKey = 1;
const newKey = () => `new-${nextKey++}`;

const round = (n: number) => Math.round(n * 100) / 100;

/** A field from the server (a draft's or a template's) as the editor holds it. */
export function fromServer(field: Api.Field | Api.TemplateField): DraftField {
  return {
    key: field.id,
    id: field.id,
    participantId: 'roleId' in field ? field.roleId : field.signeeId,
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
    rules: rulesFromServer(field),
  };
}

/** The options typed, one per line, blank lines left out. */
export function optionsOf(field: DraftField): string[] {
  return field.optionsText
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
}

/** The body of `PUT /api/documents/{id}/fields` for one field. */
export function toInput(field: DraftField): FieldInput {
  return { signeeId: field.participantId, ...placement(field) };
}

/** The body of `PUT /api/templates/{id}/fields` for one field. */
export function toTemplateInput(field: DraftField): TemplateFieldInput {
  return { roleId: field.participantId, ...placement(field) };
}

// A field's input without whom it is for: the same for drafts and templates.
function placement(field: DraftField): Omit<FieldInput, 'signeeId'> {
  const input: Omit<FieldInput, 'signeeId'> = {
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
  if (CHOICE_TYPES.has(field.type)) {
    const options = optionsOf(field);
    input.options = options.length > 0 ? options : null;
  }
  if (field.value !== null && OPTIONAL_TYPES.has(field.type)) input.value = field.value;
  const rules = rulesInput(field.type, field.rules);
  for (const key of ['min', 'max', 'decimals', 'validation', 'showIf'] as const) {
    if (rules[key] !== null) Object.assign(input, { [key]: rules[key] });
  }
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
 * A new field of a type for a participant, centred on a point of a page (points), kept on the
 * page.
 */
export function newField(
  type: FieldType,
  participantId: string,
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
      participantId,
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
      rules: NO_RULES,
    },
    page,
  );
}

/** A field's accessible name: its label or type, whose it is, and where. */
export function describeField(field: DraftField, participants: Participant[]): string {
  const participant = participants.find((p) => p.id === field.participantId);
  const what = field.label.trim()
    ? `${TYPE_NAMES[field.type]} field “${field.label.trim()}”`
    : `${TYPE_NAMES[field.type]} field`;
  return `${what} for ${participant?.name ?? 'someone not listed'} on page ${field.page}`;
}

/**
 * Signers who have no signature field, when there are fields at all (sending is refused then);
 * `owner` is the participant id of each field. Approvers and cc recipients need none.
 */
export function withoutSignature<P extends { id: string; role?: string }>(
  fields: Array<{ owner: string; type: FieldType }>,
  participants: P[],
): P[] {
  return fields.length === 0 ? [] : withoutSignatureField(fields, participants);
}

/**
 * Signers who have no signature field, also when there are no fields at all (they then sign
 * on a page added at the end): whom the guided flow asks about before going on.
 */
export function withoutSignatureField<P extends { id: string; role?: string }>(
  fields: Array<{ owner: string; type: FieldType }>,
  participants: P[],
): P[] {
  const signing = new Set(fields.filter((f) => f.type === 'signature').map((f) => f.owner));
  return participants.filter((p) => (p.role ?? 'signer') === 'signer' && !signing.has(p.id));
}

/** A draft's signees who have no signature field, when it has fields at all. */
export function signeesWithoutSignature<S extends { id: string; role?: string }>(
  fields: Array<{ signeeId: string; type: FieldType }>,
  signees: S[],
): S[] {
  return withoutSignature(
    fields.map((f) => ({ owner: f.signeeId, type: f.type })),
    signees,
  );
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
  roleId: 'Role',
  value: 'Value',
  min: 'Minimum',
  max: 'Maximum',
  decimals: 'Decimal places',
  validation: 'Validation',
  showIf: 'Shown when',
  type: 'Type',
  required: 'Required',
};

/** `Options: ` before a message about a field's options; nothing for the field as a whole. */
export const propertyName = (property: string | null): string =>
  property ? `${PROPERTY_NAMES[property] ?? property}: ` : '';

/** The field moved down (then from the top) until it covers no other field of its page. */
export function freeSpot(field: DraftField, fields: DraftField[], size: PageSize): DraftField {
  const others = fields.filter((f) => f.page === field.page);
  const overlaps = (y: number) =>
    others.some(
      (o) =>
        field.x < o.x + o.width &&
        o.x < field.x + field.width &&
        y < o.y + o.height &&
        o.y < y + field.height,
    );
  const step = field.height + 6;
  for (let i = 0; i * step < size.height * 2; i++) {
    const y = (field.y + i * step) % Math.max(1, size.height - field.height);
    if (!overlaps(y)) return { ...field, y };
  }
  return field;
}
