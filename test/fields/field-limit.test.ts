import { PDF } from '@libpdf/core';
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { useTenantFixture } from '../helpers/factories.js';

// A PDF of `tags` text tags for signee 1, fifty to a page.
async function manyTags(tags: number): Promise<Buffer> {
  const pdf = PDF.create();
  for (let made = 0; made < tags; made += 50) {
    const page = pdf.addPage({ width: 595, height: 842 });
    for (let i = 0; i < Math.min(50, tags - made); i++) {
      page.drawText('{{text:1}}', {
        x: 40 + (i % 2) * 280,
        y: 800 - Math.floor(i / 2) * 30,
        size: 8,
      });
    }
  }
  return Buffer.from(await pdf.save());
}

const placed = (n: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      signee: 0,
      type: 'checkbox',
      page: 1,
      x: 10 + (i % 20) * 25,
      y: 10 + Math.floor(i / 20) * 25,
      width: 20,
      height: 20,
    })),
  );

describe.each(ENGINES)('the 500-field limit with text tags on %s', (engine) => {
  const f = useTenantFixture(engine, { listen: true });

  const create = (file: Buffer, fields?: string) =>
    quickCreate(f.ctx, f.apiKey, {
      tenantId: f.tenantId,
      file,
      signees: [{ email: 'tagged@example.com', name: 'Tag Signee' }],
      extra: { textTags: 'true', ...(fields ? { fields } : {}) },
    });

  it('refuses text tags and placed fields beyond 500 together, naming the limit', async () => {
    const before = await f.ctx.db.kysely
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const tagsOnly = await create(await manyTags(501));
    expect(tagsOnly.status).toBe(422);
    expect(tagsOnly.body.code).toBe('validation_failed');
    expect(tagsOnly.body.errors).toEqual([
      {
        path: 'textTags',
        message: 'at most 500 fields: the text tags make 501 and the fields part 0',
      },
    ]);
    const mixed = await create(await manyTags(400), placed(101));
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors[0].message).toContain('at most 500 fields');
    const after = await f.ctx.db.kysely
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    // 500 in all is allowed, and the sender can PUT them back as they are.
    const full = await create(await manyTags(400), placed(100));
    expect(full.status, JSON.stringify(full.body).slice(0, 300)).toBe(201);
    expect(full.body.fields).toHaveLength(500);
    const id = full.body.document.id as string;
    const { fields } = (await api(f.ctx, f.apiKey, 'GET', `/api/documents/${id}/fields`)).body;
    const back = await api(f.ctx, f.apiKey, 'PUT', `/api/documents/${id}/fields`, {
      fields: fields.map((f: Record<string, unknown>) => {
        const { id, signeeId, type, page, x, y, width, height, required, label } = f;
        return { id, signeeId, type, page, x, y, width, height, required, label };
      }),
    });
    expect(back.status, JSON.stringify(back.body).slice(0, 300)).toBe(200);
  });
});
