// What a template offers to fill per document: its roles and the labelled fields that can be
// prefilled, and the bulk-send CSV header made of them (decisions §11). Pure functions.
import type * as Api from '../../../server/src/api-types.js';
import { PREFILLABLE } from '../../../server/src/modules/fields/field-types.js';

/** A label that prefills fields: the first field's type and options say what it takes. */
export type PrefillLabel = {
  label: string;
  type: 'text' | 'checkbox' | 'dropdown' | 'radio' | 'number';
  options: string[];
};

/**
 * The labels of a template's prefillable fields (text, checkbox, dropdown, radio, number), each once: the
 * service matches a prefill to every field of that label, ignoring case and outer spaces.
 */
export function prefillLabels(fields: Api.TemplateField[]): PrefillLabel[] {
  const seen = new Set<string>();
  const labels: PrefillLabel[] = [];
  for (const field of fields) {
    const label = field.label?.trim();
    if (!label || !PREFILLABLE.has(field.type)) continue;
    const key = label.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    labels.push({
      label,
      type: field.type as PrefillLabel['type'],
      options: field.options ?? [],
    });
  }
  return labels;
}

/**
 * One header cell, quoted like the audit CSV's cells (audit-csv.ts) when it holds a quote, comma
 * or line break. Unlike them it keeps a leading `=`, `+`, `-` or `@`: the service reads the
 * header back and must find the role or label exactly as written.
 */
export function csvHeaderCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The columns of a bulk send for this template: `<role>.name`, `<role>.email` and
 * `<role>.language` per role, `externalId`, then the prefillable labels.
 */
export function bulkCsvColumns(roles: Api.TemplateRole[], fields: Api.TemplateField[]): string[] {
  return [
    ...roles.flatMap((r) => [`${r.name}.name`, `${r.name}.email`, `${r.name}.language`]),
    'externalId',
    ...prefillLabels(fields).map((l) => l.label),
  ];
}

/** The header line of a bulk-send CSV for this template, with a line break after it. */
export function bulkCsvHeader(roles: Api.TemplateRole[], fields: Api.TemplateField[]): string {
  return `${bulkCsvColumns(roles, fields).map(csvHeaderCell).join(',')}\r\n`;
}

/** A text as a `data:` URL of a CSV file, so a download needs no request. */
export function csvDataUrl(text: string): string {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
}
