import { PDF, PdfArray, PdfDict, PdfName, PdfRef, PdfStream, type PdfObject } from '@libpdf/core';

/** What the incremental updates after a signed revision changed. */
export type UpdatesAfter = {
  /**
   * True when they only add or change the DSS (validation data) and add document time stamps
   * (their signature fields, listed in the form's /Fields): no content a viewer shows changed.
   */
  onlyValidationData: boolean;
  /** The catalog's /DSS differs from the signed revision's (it was added or extended). */
  dssChanged: boolean;
  /** Object numbers of the document time-stamp fields they added. */
  timestampFields: number[];
};

const NOTHING_ELSE: UpdatesAfter = {
  onlyValidationData: false,
  dssChanged: false,
  timestampFields: [],
};
// Catalog entries that updates of validation data may change: the DSS, the form (checked as a
// form), and the extensions a writer declares for them.
const CATALOG_KEYS_ALLOWED = new Set(['DSS', 'AcroForm', 'Extensions']);
// Form entries they may change: the fields (only appended to) and the signature flags.
const FORM_KEYS_ALLOWED = new Set(['Fields', 'SigFlags']);
// Objects compared at most; a file with more is not vetted object by object (it is altered).
const MAX_OBJECTS = 200_000;

/**
 * Compares the document as signed (`signed`, loaded from the bytes its signature covers) with
 * the whole file (`current`), object by object from the trailer's catalog and information
 * dictionary: conservative, any difference but those of UpdatesAfter.onlyValidationData makes
 * it false. Objects are compared by what they hold, not by where they are written, so a
 * definition moved, revived from an earlier revision, deleted, or hidden in an object stream
 * counts as the change it is.
 */
export function compareWithSigned(signed: PDF, current: PDF): UpdatesAfter {
  const before = signed.context.info.trailer;
  const after = current.context.info.trailer;
  for (const key of ['Root', 'Info', 'Encrypt']) {
    if (!sameObject(before.get(key), after.get(key))) return NOTHING_ELSE;
  }
  const rootRef = after.getRef('Root');
  if (!rootRef) return NOTHING_ELSE;
  const getBefore = (ref: PdfRef) => signed.getObject(ref) ?? undefined;
  const getAfter = (ref: PdfRef) => current.getObject(ref) ?? undefined;
  const result: UpdatesAfter = { onlyValidationData: true, dssChanged: false, timestampFields: [] };
  const seen = new Set<string>();
  const stack: PdfRef[] = [rootRef];
  const infoRef = after.getRef('Info');
  if (infoRef) stack.push(infoRef);
  const formRef = current.getCatalog().get('AcroForm');
  const form = formRef instanceof PdfRef ? getAfter(formRef) : formRef;
  const fieldsRef = form instanceof PdfDict ? form.getRef('Fields') : undefined;
  const refuse = (): UpdatesAfter => NOTHING_ELSE;

  while (stack.length > 0) {
    const ref = stack.pop()!;
    const key = `${ref.objectNumber} ${ref.generation}`;
    if (seen.has(key)) continue;
    if (seen.size >= MAX_OBJECTS) return refuse();
    seen.add(key);
    const now = getAfter(ref);
    const then = getBefore(ref);
    // A dangling reference, as in the signed revision: nothing to show either way.
    if (now === undefined && then === undefined) continue;
    if (sameObject(then, now)) {
      collectRefs(now, stack);
      continue;
    }
    if (fieldsRef && ref.objectNumber === fieldsRef.objectNumber) {
      // The form's /Fields, an array of its own: only appended to.
      if (!(then instanceof PdfArray) || !(now instanceof PdfArray)) return refuse();
      if (!appendTimestampFields(then, now, getBefore, getAfter, result)) return refuse();
      collectRefs(now, stack, result.timestampFields);
      continue;
    }
    if (!(then instanceof PdfDict) || !(now instanceof PdfDict) || now instanceof PdfStream) {
      return refuse();
    }
    if (ref.objectNumber === rootRef.objectNumber) {
      // The catalog: the DSS is validation data, not content; it is not walked.
      if (!sameExcept(then, now, CATALOG_KEYS_ALLOWED)) return refuse();
      if (!sameObject(then.get('DSS'), now.get('DSS'))) result.dssChanged = true;
      if (!sameObject(then.get('Extensions'), now.get('Extensions'))) {
        if (!isPlainData(now.get('Extensions'), getAfter)) return refuse();
      }
      const form = now.get('AcroForm');
      if (!sameObject(then.get('AcroForm'), form) && !(form instanceof PdfRef)) {
        if (!(form instanceof PdfDict) || !(then.get('AcroForm') instanceof PdfDict))
          return refuse();
        if (!formChangeAllowed(then.get('AcroForm') as PdfDict, form, getBefore, getAfter, result))
          return refuse();
      }
      for (const [name, value] of now) if (name.value !== 'DSS') collectRefs(value, stack);
      continue;
    }
    if (formRef instanceof PdfRef && ref.objectNumber === formRef.objectNumber) {
      if (!formChangeAllowed(then, now, getBefore, getAfter, result)) return refuse();
      collectRefs(now, stack, result.timestampFields);
      continue;
    }
    return refuse();
  }
  return result;
}

// A form whose other entries are as signed and whose /Fields only gained time-stamp fields.
function formChangeAllowed(
  then: PdfDict,
  now: PdfDict,
  getBefore: (ref: PdfRef) => PdfObject | undefined,
  getAfter: (ref: PdfRef) => PdfObject | undefined,
  result: UpdatesAfter,
): boolean {
  if (!sameExcept(then, now, FORM_KEYS_ALLOWED)) return false;
  const fieldsThen = then.get('Fields');
  const fieldsNow = now.get('Fields');
  // The same indirect array is compared when the walk reaches it.
  if (sameObject(fieldsThen, fieldsNow)) return true;
  if (!(fieldsThen instanceof PdfArray) || !(fieldsNow instanceof PdfArray)) return false;
  return appendTimestampFields(fieldsThen, fieldsNow, getBefore, getAfter, result);
}

// The array as signed, then only new document time-stamp fields.
function appendTimestampFields(
  then: PdfArray,
  now: PdfArray,
  getBefore: (ref: PdfRef) => PdfObject | undefined,
  getAfter: (ref: PdfRef) => PdfObject | undefined,
  result: UpdatesAfter,
): boolean {
  const a = then.toArray();
  const b = now.toArray();
  if (b.length <= a.length || !a.every((entry, i) => sameObject(entry, b[i]))) return false;
  for (const added of b.slice(a.length)) {
    if (!(added instanceof PdfRef) || getBefore(added) !== undefined) return false;
    if (!isTimestampField(getAfter(added), getAfter)) return false;
    result.timestampFields.push(added.objectNumber);
  }
  return true;
}

// A document time stamp's field: an invisible widget whose value is an ETSI.RFC3161 DocTimeStamp
// dictionary, with no action, no kids and no appearance a viewer could show.
function isTimestampField(
  value: PdfObject | undefined,
  getAfter: (ref: PdfRef) => PdfObject | undefined,
): boolean {
  if (!(value instanceof PdfDict)) return false;
  if (nameOf(value.get('FT')) !== 'Sig') return false;
  for (const key of ['A', 'AA', 'Kids', 'Parent']) if (value.has(key)) return false;
  const signatureRef = value.get('V');
  const signature = signatureRef instanceof PdfRef ? getAfter(signatureRef) : signatureRef;
  if (!(signature instanceof PdfDict)) return false;
  if (nameOf(signature.get('Type')) !== 'DocTimeStamp') return false;
  if (nameOf(signature.get('SubFilter')) !== 'ETSI.RFC3161') return false;
  const rect = value.get('Rect');
  if (rect === undefined) return !value.has('AP');
  if (!(rect instanceof PdfArray) || rect.length !== 4) return false;
  const [x1, y1, x2, y2] = rect.toArray().map((n) => Number((n as { value?: unknown }).value));
  return x1 === x2 || y1 === y2;
}

function nameOf(value: PdfObject | undefined): string | undefined {
  return value instanceof PdfName ? value.value : undefined;
}

// Values without references (the /Extensions declarations are names and numbers).
function isPlainData(
  value: PdfObject | undefined,
  getAfter: (ref: PdfRef) => PdfObject | undefined,
): boolean {
  const refs: PdfRef[] = [];
  collectRefs(value instanceof PdfRef ? getAfter(value) : value, refs);
  return refs.length === 0;
}

function sameExcept(then: PdfDict, now: PdfDict, allowed: Set<string>): boolean {
  const keys = new Set([...then.keys(), ...now.keys()].map((k) => k.value));
  for (const key of keys) {
    if (!allowed.has(key) && !sameObject(then.get(key), now.get(key))) return false;
  }
  return true;
}

// Every reference a value holds, directly or in its direct arrays and dictionaries.
function collectRefs(value: PdfObject | undefined, out: PdfRef[], skip: number[] = []): void {
  const pending: (PdfObject | undefined)[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof PdfRef) {
      if (!skip.includes(item.objectNumber)) out.push(item);
    } else if (item instanceof PdfArray) for (const entry of item.toArray()) pending.push(entry);
    else if (item instanceof PdfDict) for (const [, entry] of item) pending.push(entry);
  }
}

/** Structural equality; references are equal when they name the same object. */
export function sameObject(a: PdfObject | undefined, b: PdfObject | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  if (a instanceof PdfRef || b instanceof PdfRef) {
    return (
      a instanceof PdfRef &&
      b instanceof PdfRef &&
      a.objectNumber === b.objectNumber &&
      a.generation === b.generation
    );
  }
  if (a instanceof PdfArray || b instanceof PdfArray) {
    if (!(a instanceof PdfArray && b instanceof PdfArray) || a.length !== b.length) return false;
    const x = a.toArray();
    const y = b.toArray();
    return x.every((entry, i) => sameObject(entry, y[i]));
  }
  if (a instanceof PdfDict || b instanceof PdfDict) {
    if (!(a instanceof PdfDict && b instanceof PdfDict)) return false;
    if (a instanceof PdfStream !== b instanceof PdfStream) return false;
    if (a.size !== b.size) return false;
    for (const [name, value] of a) if (!sameObject(value, b.get(name.value))) return false;
    if (a instanceof PdfStream && b instanceof PdfStream) {
      return Buffer.from(a.data).equals(b.data);
    }
    return true;
  }
  return a.type === b.type && String(valueOf(a)) === String(valueOf(b));
}

function valueOf(object: PdfObject): unknown {
  const value =
    (object as { value?: unknown; bytes?: Uint8Array }).bytes ??
    (object as { value?: unknown }).value;
  return value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value;
}

/** Loads the document as it stood at `end` (a revision's end), or undefined if it does not load. */
export async function loadRevision(bytes: Uint8Array, end: number): Promise<PDF | undefined> {
  try {
    return await PDF.load(bytes.subarray(0, end));
  } catch {
    return undefined;
  }
}
