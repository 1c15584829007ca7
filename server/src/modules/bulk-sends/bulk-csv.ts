import { setImmediate as yieldTurn } from 'node:timers/promises';
import { CsvError, parse, type Options } from 'csv-parse';
import { validationError } from '../../lib/errors.js';
import { MAX_FIELDS } from '../fields/fields.schemas.js';
import { MAX_ROLES } from '../templates/templates.schemas.js';

/** At most this many data rows in one bulk send (decisions §11). */
export const MAX_BULK_ROWS = 10_000;
/**
 * At most this many columns in a line: every role's email, name and language, externalId and a
 * label per field. A wider header can only hold columns a template has not, refused anyway; this
 * refuses it before a problem per column is written (a 10 MiB `a,a,…` header was 5 million,
 * and held the event loop for 9 s).
 */
export const MAX_BULK_COLUMNS = MAX_ROLES * 3 + 1 + MAX_FIELDS;
// Longer than any column a template has (role names and labels are at most 200 characters):
// a header cell is echoed in the problem's paths, and must not be megabytes long.
const MAX_COLUMN_NAME = 255;

const utf8 = new TextDecoder('utf-8', { fatal: true });

// Characters handed to the parser at a time: other requests get the event loop in between (a
// 10,000-row file took 80-125 ms parsed in one call, as long as /healthz's p99 allowance).
const CHUNK_CHARS = 64 * 1024;

/**
 * The header and data rows of an uploaded CSV; 422 (AppError via validationError) when it
 * cannot be read. Parsed in chunks, yielding the event loop between them.
 */
export async function parseBulkCsv(data: Buffer): Promise<{ header: string[]; rows: string[][] }> {
  let text: string;
  try {
    // The decoder drops a BOM. A legacy Excel export (Windows-1252) is told apart here rather
    // than read as mojibake names and e-mails.
    text = utf8.decode(data);
  } catch {
    throw unreadable('the file is not UTF-8 text (save it as "CSV UTF-8")');
  }
  // One line ending, whatever mix the file has (the parser takes the first it meets for all),
  // also inside quoted cells: values and line numbers stay the same on every system.
  text = text.replace(/\r\n?/g, '\n');
  let lastLine = 0;
  const records: string[][] = [];
  try {
    await parseInChunks(text, records, {
      bom: true,
      delimiter: delimiterOf(text),
      record_delimiter: '\n',
      // Rows of another length are kept for the row checker to report, not fatal here.
      relax_column_count: true,
      // `5" screen` unquoted is read as written; a broken quoted cell still fails.
      relax_quotes: true,
      // Spaces around a quoted cell (`a, "b" ,c`) are not part of it.
      trim: true,
      skip_empty_lines: true,
      // Lines of empty cells only (`;;;`), as spreadsheets leave below the data, are blank too.
      skip_records_with_empty_values: true,
      // Stops reading past the limit: one row too many is enough to refuse the file.
      to: MAX_BULK_ROWS + 2,
      on_record: (record: string[], context: { lines: number }) => {
        // No line read before: this record is the header.
        tooWide(record, context.lines, lastLine === 0);
        lastLine = context.lines;
        // `trim` keeps the spaces inside quotes; a cell is trimmed whole.
        return record.map((cell) => cell.trim());
      },
    } as Options);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw unreadable(csvProblem(error, text, lastLine));
  }
  const [header, ...rows] = records;
  if (!header) throw unreadable('the file is empty: it needs a header line and rows');
  if (rows.length > MAX_BULK_ROWS) {
    throw unreadable(`at most ${MAX_BULK_ROWS.toLocaleString('en')} rows`);
  }
  return { header, rows };
}

// The streaming parser fed a chunk at a time; its records pushed to `records` as they come.
async function parseInChunks(text: string, records: string[][], options: Options) {
  const parser = parse(options);
  let failure: unknown = null;
  parser.on('data', (record: string[]) => records.push(record));
  parser.on('error', (error) => (failure ??= error));
  const ended = new Promise<void>((resolve) => parser.once('close', resolve));
  for (let at = 0; at < text.length && failure === null; at += CHUNK_CHARS) {
    parser.write(text.slice(at, at + CHUNK_CHARS));
    await yieldTurn();
  }
  if (failure === null) parser.end();
  await ended;
  if (failure !== null) throw failure;
}

// A line wider than any template's header, or a header cell longer than any column's name, is
// refused whole (as a file over the row limit is): the parser error stops the reading there.
function tooWide(record: string[], line: number, isHeader: boolean) {
  const max = MAX_BULK_COLUMNS.toLocaleString('en');
  if (record.length > MAX_BULK_COLUMNS) {
    throw unreadable(`line ${line}: ${record.length.toLocaleString('en')} cells; at most ${max}`);
  }
  const long = isHeader ? record.findIndex((name) => name.trim().length > MAX_COLUMN_NAME) : -1;
  if (long >= 0) {
    throw unreadable(
      `line ${line}: column ${long + 1} is longer than ${MAX_COLUMN_NAME} characters, ` +
        'longer than any role column or field label',
    );
  }
}

function unreadable(message: string) {
  return validationError([{ path: 'csv', message }], 'The CSV file cannot be read.');
}

/**
 * `;` when the header line has more semicolons than commas outside quotes (Excel in German or
 * French writes `;`), else `,`.
 */
function delimiterOf(text: string): string {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '\n') break;
    else if (c === ',') commas++;
    else if (c === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** The parser's error in the sender's words, with the line it concerns. */
function csvProblem(error: CsvError, text: string, lastLine: number): string {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    // The parser reports the end of the file; the quote opened in the first record after the
    // last one read, on the first line that is not blank.
    return `line ${firstNonBlankLineAfter(text, lastLine)}: a quoted cell is never closed`;
  }
  const line = typeof error.lines === 'number' ? error.lines : lastLine + 1;
  if (error.code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE') {
    return `line ${line}: text after the closing quote of a cell`;
  }
  return `line ${line}: not valid CSV (${error.message})`;
}

function firstNonBlankLineAfter(text: string, line: number): number {
  const lines = text.split('\n');
  let next = line;
  while (next < lines.length - 1 && lines[next].trim() === '') next++;
  return next + 1;
}
