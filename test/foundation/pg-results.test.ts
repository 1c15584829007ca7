import { createRequire } from 'node:module';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../helpers/context.js';

// patches/pg+8.23.1.patch (docs/upstream/pg.md): a result takes the names and the empty row of
// a row description it has seen before from a cache, rather than building them again from the
// description's fresh strings. Each result must still read its own columns with its own types.
describe('PostgreSQL results with the cached row descriptions', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  it('is the patched pg', () => {
    const Result = createRequire(import.meta.url)('pg/lib/result.js');
    expect(String(Result.prototype.addFields)).toContain('shapeOf(fieldDescriptions)');
  });

  it('parse each result with its own types, whatever the names share', async () => {
    for (let i = 0; i < 3; i++) {
      const numbers = await client.query('select 1::int as a, 2::int as b');
      expect(numbers.rows).toEqual([{ a: 1, b: 2 }]);
      const texts = await client.query(`select '1'::text as a, '2'::text as b`);
      expect(texts.rows).toEqual([{ a: '1', b: '2' }]);
      const swapped = await client.query(`select 'x'::text as b, 3::int as a`);
      expect(swapped.rows).toEqual([{ b: 'x', a: 3 }]);
      expect(Object.keys(swapped.rows[0])).toEqual(['b', 'a']);
    }
  });

  it('give every row its own object, nulls and repeated names as pg always did', async () => {
    const { rows } = await client.query(
      `select * from (values (1, null::text), (2, 'two')) as v(n, t) order by n`,
    );
    expect(rows).toEqual([
      { n: 1, t: null },
      { n: 2, t: 'two' },
    ]);
    rows[0].t = 'changed';
    const again = await client.query(`select 1 as n, null::text as t`);
    expect(again.rows).toEqual([{ n: 1, t: null }]);
    // Two columns of one name: the last one's value, as before the patch.
    const twice = await client.query('select 1 as x, 2 as x');
    expect(twice.rows).toEqual([{ x: 2 }]);
  });

  it('read an empty result and a statement without rows', async () => {
    expect((await client.query('select 1 as n where false')).rows).toEqual([]);
    const made = await client.query('create temporary table t (n int)');
    expect(made.rows).toEqual([]);
    expect(made.fields).toEqual([]);
  });
});
