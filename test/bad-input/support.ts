import { sql } from 'kysely';
import { expect } from 'vitest';
import type { TestContext } from '../helpers/context.js';

/** The tables whose row counts a rejected request must leave alone. */
export const WATCHED_TABLES = [
  'documents',
  'signees',
  'events',
  'tenants',
  'users',
  'api_keys',
  'webhooks',
] as const;

/** Row counts of the watched tables, in one round trip. */
export async function rowCounts(ctx: TestContext): Promise<Record<string, number>> {
  const columns = WATCHED_TABLES.map(
    (t) => sql`(select count(*) from ${sql.table(t)}) as ${sql.ref(t)}`,
  );
  const { rows } = await sql<Record<string, number | string>>`select ${sql.join(columns)}`.execute(
    ctx.db.kysely,
  );
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

/** Strings that have broken parsers, path handling and SQL before. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '..\\..\\windows\\win.ini',
  "'; drop table users; --",
  '" OR 1=1 --',
  "' OR '1'='1",
  '%',
  '_',
  '\\',
  '\\x00',
  '\u0000',
  'a\r\nX-Injected: yes',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  '\u202e\u0000\uffff',
  '😀'.repeat(50),
  'x'.repeat(5000),
  '00000000-0000-0000-0000-000000000000',
  'NaN',
  '-1',
  '1e309',
  'null',
  'true',
  '[]',
  '{}',
];

/** The problem+json contract of every 4xx answer. */
export function expectProblem(
  response: { statusCode: number; headers: Record<string, unknown>; body: string },
  label: string,
) {
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(String(response.headers['content-type']), label).toContain('application/problem+json');
    const body = JSON.parse(response.body) as { status: number; code: string };
    expect(body.status, label).toBe(response.statusCode);
    expect(typeof body.code, label).toBe('string');
  }
}
