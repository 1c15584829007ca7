import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { MAX_BULK_ROWS, parseBulkCsv } from './bulk-csv.js';

const csv = (text: string) => Buffer.from(text, 'utf8');

// The 422's status and errors a file is refused with.
async function refusal(data: Buffer) {
  try {
    await parseBulkCsv(data);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, errors: error.errors };
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('parseBulkCsv', () => {
  it('reads a header and rows, cells trimmed', async () => {
    expect(await parseBulkCsv(csv('Client.email,Client.name\n ann@example.com , Ann \n'))).toEqual({
      header: ['Client.email', 'Client.name'],
      rows: [['ann@example.com', 'Ann']],
    });
  });

  it('drops a BOM and reads CRLF, LF, CR, a mix of them and a last line without an end', async () => {
    const rows = [
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ];
    expect(await parseBulkCsv(csv('\ufeffa,b\r\n1,2\r\n3,4\r\n5,6\r\n'))).toEqual({
      header: ['a', 'b'],
      rows,
    });
    expect(await parseBulkCsv(csv('a,b\n1,2\n3,4\n5,6'))).toEqual({ header: ['a', 'b'], rows });
    expect(await parseBulkCsv(csv('a,b\r1,2\r3,4\r5,6\r'))).toEqual({ header: ['a', 'b'], rows });
    expect(await parseBulkCsv(csv('a,b\r\n1,2\n3,4\r5,6'))).toEqual({ header: ['a', 'b'], rows });
  });

  it('reads quoted cells: delimiters, doubled quotes, line breaks, inner spaces trimmed', async () => {
    const { rows } = await parseBulkCsv(
      csv('a,b\n"Lovelace, Ada","say ""hi"""\n"two\r\nlines"," padded "\n'),
    );
    expect(rows).toEqual([
      ['Lovelace, Ada', 'say "hi"'],
      ['two\nlines', 'padded'],
    ]);
  });

  it('keeps a quote inside an unquoted cell as written, and drops spaces around quotes', async () => {
    expect((await parseBulkCsv(csv('a,b\n5" screen,2'))).rows).toEqual([['5" screen', '2']]);
    expect((await parseBulkCsv(csv('a,b\n "x, y" , "z"\t\n'))).rows).toEqual([['x, y', 'z']]);
  });

  it('takes `;` as the delimiter when the header line has more of them (Excel in de/fr)', async () => {
    expect(
      await parseBulkCsv(csv('\ufeffKunde.email;Kunde.name;Betrag\r\na@example.com;Ann;1,50\r\n')),
    ).toEqual({
      header: ['Kunde.email', 'Kunde.name', 'Betrag'],
      rows: [['a@example.com', 'Ann', '1,50']],
    });
    // Commas inside a quoted header cell do not count.
    expect((await parseBulkCsv(csv('"a,b,c";d;e\n1;2;3'))).header).toEqual(['a,b,c', 'd', 'e']);
    expect((await parseBulkCsv(csv('a;b,c,d\n1;2,3,4'))).header).toEqual(['a;b', 'c', 'd']);
  });

  it('skips blank lines and lines of empty cells, and keeps rows of another length', async () => {
    expect((await parseBulkCsv(csv('a;b;c\n\n1;2;3\n   \n;;\n4;5\n6;7;8;9\n\n'))).rows).toEqual([
      ['1', '2', '3'],
      ['4', '5'],
      ['6', '7', '8', '9'],
    ]);
  });

  it('keeps a cell over 1,000 characters for the row checker', async () => {
    expect((await parseBulkCsv(csv(`a\n${'x'.repeat(5000)}`))).rows[0][0]).toHaveLength(5000);
  });

  it('answers a header and no rows', async () => {
    expect(await parseBulkCsv(csv('a,b\r\n\r\n'))).toEqual({ header: ['a', 'b'], rows: [] });
  });

  it.each([
    ['an empty file', ''],
    ['a BOM alone', '\ufeff'],
    ['blank lines', '\r\n\n  \n'],
  ])('refuses %s', async (_, text) => {
    expect(await refusal(csv(text))).toEqual({
      status: 422,
      errors: [{ path: 'csv', message: 'the file is empty: it needs a header line and rows' }],
    });
  });

  it('reads 10,000 rows and refuses 10,001', async () => {
    const lines = (n: number) => ['email', ...Array.from({ length: n }, (_, i) => `a${i}@x.io`)];
    expect((await parseBulkCsv(csv(lines(MAX_BULK_ROWS).join('\n')))).rows).toHaveLength(10_000);
    expect(await refusal(csv(lines(MAX_BULK_ROWS + 1).join('\n')))).toEqual({
      status: 422,
      errors: [{ path: 'csv', message: 'at most 10,000 rows' }],
    });
  });

  it('names the line of a quoted cell that is never closed', async () => {
    expect(await refusal(csv('a,b\n1,2\n"x\ny",3\n\n4,"open\n5,6\n7,8\n'))).toEqual({
      status: 422,
      errors: [{ path: 'csv', message: 'line 6: a quoted cell is never closed' }],
    });
    expect((await refusal(csv('"a,b\n1,2\n'))).errors).toEqual([
      { path: 'csv', message: 'line 1: a quoted cell is never closed' },
    ]);
  });

  it('names the line of text after a closing quote', async () => {
    expect((await refusal(csv('a,b\r\n1,2\r\n"abc"def,3\r\n'))).errors).toEqual([
      { path: 'csv', message: 'line 3: text after the closing quote of a cell' },
    ]);
  });

  it('refuses a file that is not UTF-8', async () => {
    // "Müller" as Windows-1252, as an older Excel saves "CSV".
    const latin1 = Buffer.from('a;b\nx@example.com;M\xfcller\n', 'latin1');
    expect((await refusal(latin1)).errors).toEqual([
      { path: 'csv', message: 'the file is not UTF-8 text (save it as "CSV UTF-8")' },
    ]);
  });

  it('reads UTF-8 text in any script', async () => {
    expect((await parseBulkCsv(csv('name\nZoë Ωμέγα 山田 محمد\n'))).rows).toEqual([
      ['Zoë Ωμέγα 山田 محمد'],
    ]);
  });
});
