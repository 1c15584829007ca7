import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../server/src/db/migrate.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';

describe.each(ENGINES)('fields as one set per document (migrations 0013, 0014) on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
  });
  afterAll(() => ctx.close());

  it('moves every field down to a row each and back, in order, values kept', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const signees = [
      { email: 'ada@example.com', name: 'Ada' },
      { email: 'bo@example.com', name: 'Bo' },
    ];
    const make = async (fields: unknown[]) => {
      const made = await quickCreate(ctx, owner.apiKey, {
        tenantId,
        file: makePdf({ pages: 2 }),
        signees,
        extra: fields.length ? { fields: JSON.stringify(fields) } : {},
      });
      expect(made.status).toBe(201);
      return made.body.document.id as string;
    };
    const withFields = await make([
      { signee: 1, type: 'signature', page: 2, x: 40, y: 500, width: 150, height: 40 },
      { signee: 0, type: 'signature', page: 1, x: 40, y: 500, width: 150, height: 40 },
      {
        signee: 0,
        type: 'dropdown',
        page: 1,
        x: 300,
        y: 80.25,
        width: 120,
        height: 20,
        label: 'Plan',
        options: ['Monthly', 'Yearly'],
        value: 'Yearly',
        required: false,
      },
      { signee: 1, type: 'checkbox', page: 2, x: 10, y: 10, width: 12, height: 12, value: true },
    ]);
    const other = await make([
      { signee: 0, type: 'signature', page: 1, x: 1, y: 2, width: 30, height: 40 },
    ]);
    const without = await make([]);
    const read = async (id: string) => {
      const res = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/fields`);
      expect(res.status).toBe(200);
      return res.body.fields;
    };
    const before = await Promise.all([withFields, other, without].map(read));
    expect(before.map((f) => f.length)).toEqual([4, 1, 0]);

    // Latest (0014): in the document's row, compact: no nulls, `required` only when true.
    const stored = async (id: string) =>
      (
        await sql<{ fields: string | null }>`select fields from documents where id = ${id}`.execute(
          ctx.db.kysely,
        )
      ).rows[0]!.fields;
    expect(JSON.parse((await stored(withFields))!)[2]).toEqual({
      id: before[0][2].id,
      signee_id: before[0][2].signeeId,
      type: 'dropdown',
      page: 1,
      x: 300,
      y: 80.25,
      width: 120,
      height: 20,
      label: 'Plan',
      options: ['Monthly', 'Yearly'],
      value: 'Yearly',
    });
    expect(JSON.parse((await stored(withFields))!)[0].required).toBe(true);
    expect(await stored(without)).toBeNull();

    // 0013: one document_fields row per document with fields, 0008's columns JSON-encoded.
    await migrateTo(ctx.db, '0013-field-sets');
    const sets = await sql<{ document_id: string; fields: string }>`
      select document_id, fields from document_fields`.execute(ctx.db.kysely);
    expect(sets.rows.map((r) => r.document_id).sort()).toEqual([withFields, other].sort());
    const set = JSON.parse(sets.rows.find((r) => r.document_id === withFields)!.fields);
    expect(set[2]).toMatchObject({
      position: 2,
      required: 0,
      options: '["Monthly","Yearly"]',
      value: '"Yearly"',
      tag_box: null,
      filled_at: null,
    });
    expect(set[3]).toMatchObject({ position: 3, type: 'checkbox', value: 'true' });

    await migrateTo(ctx.db, '0012-account-recovery');
    const rows = await sql<{ document_id: string; position: number; type: string }>`
      select document_id, position, type from fields order by document_id, position`.execute(
      ctx.db.kysely,
    );
    const of = (id: string) =>
      rows.rows.filter((r) => r.document_id === id).map((r) => [Number(r.position), r.type]);
    expect(of(withFields)).toEqual([
      [0, 'signature'],
      [1, 'signature'],
      [2, 'dropdown'],
      [3, 'checkbox'],
    ]);
    expect(of(other)).toEqual([[0, 'signature']]);
    const tables = (await ctx.db.kysely.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('document_fields');

    await migrateToLatest(ctx.db);
    expect(await Promise.all([withFields, other, without].map(read))).toEqual(before);
  });
});
