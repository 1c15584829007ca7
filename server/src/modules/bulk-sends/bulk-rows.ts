import { validationError, type FieldError } from '../../lib/errors.js';
import type { FieldRow } from '../fields/fields.repo.js';
import { hasFieldLabel, labelKey, prefillValues, type PrefillValue } from '../templates/prefill.js';
import {
  checkTemplateSignees,
  type RoleSignee,
  type TemplateRoleRef,
} from '../templates/template-signees.js';
import { MAX_BULK_ROWS } from './bulk-csv.js';
import { MAX_EXTERNAL_ID } from '../templates/templates.schemas.js';

/** What a bulk send checks its rows against: the template's roles and fields. */
export type BulkTemplate = { roles: TemplateRoleRef[]; fields: FieldRow[] };
/** One valid row: what create-from-template takes for it. */
export type BulkRowInput = {
  signees: RoleSignee[];
  prefill: Record<string, string | boolean>;
  externalId: string | null;
};
/** A row, by its 1-based number among the data rows, and its input or what is wrong with it. */
export type CheckedRow =
  { row: number; input: BulkRowInput; error: null } | { row: number; input: null; error: string };

/** The longest cell a CSV row may hold. */
export const MAX_CELL = 1000;
const ROLE_KEYS = ['email', 'name', 'language'] as const;
type RoleKey = (typeof ROLE_KEYS)[number];
const JSON_ROW_KEYS = new Set(['signees', 'prefill', 'externalId']);

/** Where each column of a CSV goes: its cells' role and key, `externalId`, or a label. */
type CsvPlan = {
  width: number;
  /** Per role (by index): the column of each of its keys. */
  roleColumns: Array<Partial<Record<RoleKey, number>>>;
  externalId: number | null;
  prefill: number[];
};

/** Checks a parsed CSV: header problems throw 422 (validationError at `csv.header.<column>`); row problems come back per row. */
export function checkCsvRows(
  template: BulkTemplate,
  csv: { header: string[]; rows: string[][] },
): CheckedRow[] {
  const plan = planColumns(template, csv.header);
  if (csv.rows.length === 0) {
    throw validationError([{ path: 'csv', message: 'the file has no rows' }]);
  }
  const { header } = csv;
  // Errors of a row's signees point at its columns (`Client.email`), not at `signees[0].email`.
  const pathOf = (index: number, key: string) => {
    const column = plan.roleColumns[index][key as RoleKey];
    return column === undefined ? `${template.roles[index].name}.${key}` : header[column];
  };
  return csv.rows.map((cells, i) => {
    const row = i + 1;
    const problems = cellProblems(header, cells, plan.width);
    if (problems.length > 0) return { row, input: null, error: problems.join('; ') };
    const signees = plan.roleColumns.map((columns, role) => ({
      role,
      email: cells[columns.email!],
      name: cells[columns.name!],
      // An empty language cell leaves the document's language.
      language: columns.language === undefined ? undefined : cells[columns.language] || undefined,
    }));
    const prefill: Record<string, string> = {};
    for (const column of plan.prefill) prefill[header[column]] = cells[column];
    const externalId = plan.externalId === null ? undefined : cells[plan.externalId];
    return checkRow(template, { signees, prefill, externalId }, row, {
      pathOf,
      prefillPath: '',
      fromCsv: true,
    });
  });
}

/** Checks JSON rows `[{signees: [{role, email, name, language?}], prefill?, externalId?}]`: the same row rules. */
export function checkJsonRows(template: BulkTemplate, rows: unknown[]): CheckedRow[] {
  if (rows.length === 0 || rows.length > MAX_BULK_ROWS) {
    const message =
      rows.length === 0
        ? 'at least one row is required'
        : `at most ${MAX_BULK_ROWS.toLocaleString('en')} rows`;
    throw validationError([{ path: 'rows', message }]);
  }
  return rows.map((input, i) => {
    const row = i + 1;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { row, input: null, error: 'must be an object {signees, prefill?, externalId?}' };
    }
    const unknown = Object.keys(input).filter((key) => !JSON_ROW_KEYS.has(key));
    if (unknown.length > 0) {
      const problems = unknown.map((key) => ({ path: key, message: 'not a row property' }));
      const error = rowError(problems);
      return { row, input: null, error: `${error} (a row has signees, prefill and externalId)` };
    }
    const { signees, prefill, externalId } = input as Record<string, unknown>;
    return checkRow(template, { signees, prefill, externalId }, row, { prefillPath: 'prefill' });
  });
}

// Problems named in a failed row's error, which is stored with the row (one row of 50,000
// unknown labels would be megabytes); the count of the others follows.
const ROW_PROBLEMS = 10;

/** A failed row's error: its first problems, then how many more. */
function rowError(problems: FieldError[]): string {
  const listed = problems.slice(0, ROW_PROBLEMS).map((e) => `${e.path}: ${e.message}`);
  if (problems.length > ROW_PROBLEMS) listed.push(`and ${problems.length - ROW_PROBLEMS} more`);
  return listed.join('; ');
}

/**
 * One row's rules, shared by CSV and JSON: the signees and prefill by create-from-template's own
 * checks, and the externalId.
 */
function checkRow(
  template: BulkTemplate,
  raw: { signees: unknown; prefill: unknown; externalId: unknown },
  row: number,
  options: {
    pathOf?: (index: number, key: string) => string;
    prefillPath: string;
    fromCsv?: boolean;
  },
): CheckedRow {
  const signees = checkTemplateSignees(template.roles, raw.signees, 'signees', options.pathOf);
  const errors: FieldError[] = [...signees.errors];
  let prefill: Record<string, PrefillValue> = {};
  if (raw.prefill !== undefined) {
    if (typeof raw.prefill !== 'object' || raw.prefill === null || Array.isArray(raw.prefill)) {
      errors.push({ path: 'prefill', message: 'must be an object of field label to value' });
    } else {
      const checked = prefillValues(template.fields, raw.prefill as Record<string, unknown>, {
        fromCsv: options.fromCsv,
        path: options.prefillPath,
      });
      for (const problem of checked.errors) errors.push(problem);
      prefill = checked.accepted;
    }
  }
  const externalId = externalIdOf(raw.externalId);
  if (typeof externalId === 'object' && externalId !== null) errors.push(externalId);
  if (errors.length > 0) return { row, input: null, error: rowError(errors) };
  return {
    row,
    input: { signees: signees.signees, prefill, externalId: externalId as string | null },
    error: null,
  };
}

/** A row's externalId: null when absent or blank, else a string of at most 255 characters. */
function externalIdOf(value: unknown): string | null | FieldError {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return { path: 'externalId', message: 'must be a string' };
  const id = value.trim();
  if (id.length > MAX_EXTERNAL_ID) {
    return { path: 'externalId', message: `must be at most ${MAX_EXTERNAL_ID} characters` };
  }
  return id === '' ? null : id;
}

/** What is wrong with a CSV row's cells as cells: their number, length, NUL characters. */
function cellProblems(header: string[], cells: string[], width: number): string[] {
  if (cells.length !== width) {
    return [`has ${cells.length} cells; the header has ${width} columns`];
  }
  const problems: string[] = [];
  cells.forEach((cell, column) => {
    if (cell.length > MAX_CELL) problems.push(`${header[column]}: at most ${MAX_CELL} characters`);
    // Multipart parts skip the JSON body's NUL check: the same rule, here.
    else if (cell.includes('\u0000')) {
      problems.push(`${header[column]}: must not contain NUL characters`);
    }
  });
  return problems;
}

/** What each header column is; every problem with the header at once, as one 422. */
function planColumns(template: BulkTemplate, header: string[]): CsvPlan {
  const roleByName = new Map(template.roles.map((role, i) => [labelKey(role.name), i]));
  const plan: CsvPlan = {
    width: header.length,
    roleColumns: template.roles.map(() => ({})),
    externalId: null,
    prefill: [],
  };
  const errors: FieldError[] = [];
  const columnOf = new Map<string, number>();
  header.forEach((name, column) => {
    const at = `csv.header.${name}`;
    if (name.trim() === '') {
      errors.push({ path: 'csv.header', message: `column ${column + 1} has no name` });
      return;
    }
    const kind = columnKind(template, roleByName, name);
    if (typeof kind === 'string') {
      errors.push({ path: at, message: kind });
      return;
    }
    const first = columnOf.get(kind.key);
    if (first !== undefined) {
      errors.push({ path: at, message: `duplicates column ${first + 1} (${header[first]})` });
      return;
    }
    columnOf.set(kind.key, column);
    if (kind.role !== undefined) plan.roleColumns[kind.role][kind.roleKey] = column;
    else if (kind.key === 'externalid') plan.externalId = column;
    else plan.prefill.push(column);
  });
  template.roles.forEach((role, i) => {
    for (const key of ['email', 'name'] as const) {
      if (plan.roleColumns[i][key] !== undefined) continue;
      errors.push({
        path: `csv.header.${role.name}.${key}`,
        message: `role ${role.name} needs a column ${role.name}.${key}`,
      });
    }
  });
  if (errors.length > 0) throw validationError(errors, 'The CSV header is invalid.');
  return plan;
}

type ColumnKind = { key: string } & (
  { role: number; roleKey: RoleKey } | { role?: undefined; roleKey?: undefined }
);

/**
 * A column by its name: `<role>.email|name|language` (split at the last dot, so a role's name may
 * hold dots), `externalId`, or a field label, all in any case; or what is wrong with it.
 */
function columnKind(
  template: BulkTemplate,
  roleByName: Map<string, number>,
  name: string,
): ColumnKind | string {
  const key = labelKey(name);
  const dot = name.lastIndexOf('.');
  const suffix = dot < 0 ? '' : key.slice(key.lastIndexOf('.') + 1);
  if ((ROLE_KEYS as readonly string[]).includes(suffix)) {
    const role = roleByName.get(labelKey(name.slice(0, dot)));
    if (role !== undefined) {
      return { key: `${role}.${suffix}`, role, roleKey: suffix as RoleKey };
    }
    // A label may end in `.email` too ("Contact.email"); else it names a role we do not have.
    if (!hasFieldLabel(template.fields, name)) return `unknown role ${name.slice(0, dot).trim()}`;
  }
  if (key === 'externalid') return { key };
  if (hasFieldLabel(template.fields, name)) return { key: `label:${key}` };
  return (
    'neither a role column (<role>.email, <role>.name, <role>.language), externalId nor a ' +
    'field label'
  );
}
