import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { sql } from 'kysely';
import { indexPendingSearchText } from '../../server/src/modules/documents/search-indexer.js';
import { createSignetClient, SignetApiError } from '../../sdk/src/index.js';

type Folder = { id: string; tenantId: string; name: string; parentId: string | null };

describe.each(ENGINES)('folders, pins and search on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  const call = (method: string, path: string, body?: unknown) =>
    api(ctx, owner.apiKey, method, path, body);
  const folders = `/api/tenants/${'{t}'}/folders`;
  const folderUrl = (tail = '') => `${folders.replace('{t}', tenantId)}${tail}`;
  const mkFolder = async (name: string, parentId?: string) => {
    const res = await call('POST', folderUrl(), { name, ...(parentId ? { parentId } : {}) });
    expect(res.status).toBe(201);
    return res.body.folder as Folder;
  };

  it('creates, lists, renames, moves and deletes nested folders', async () => {
    const clients = await mkFolder('  Clients ');
    expect(clients).toMatchObject({ name: 'Clients', tenantId, parentId: null });
    expect(Object.keys(clients).sort()).toEqual([
      'createdAt',
      'id',
      'name',
      'parentId',
      'tenantId',
    ]);
    const acme = await mkFolder('Acme', clients.id);
    const leases = await mkFolder('Leases', acme.id);
    const archive = await mkFolder('Archive');

    const listed = await call('GET', folderUrl());
    expect(listed.status).toBe(200);
    expect(listed.body.folders.map((f: Folder) => [f.name, f.parentId])).toEqual([
      ['Acme', clients.id],
      ['Archive', null],
      ['Clients', null],
      ['Leases', acme.id],
    ]);
    expect((await call('GET', folderUrl(`/${acme.id}`))).body.folder.name).toBe('Acme');

    const renamed = await call('PATCH', folderUrl(`/${acme.id}`), { name: 'Acme Ltd' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.folder).toMatchObject({ name: 'Acme Ltd', parentId: clients.id });
    const moved = await call('PATCH', folderUrl(`/${acme.id}`), { parentId: archive.id });
    expect(moved.body.folder.parentId).toBe(archive.id);
    const top = await call('PATCH', folderUrl(`/${acme.id}`), { parentId: null });
    expect(top.body.folder.parentId).toBeNull();

    // No cycles: not into itself, not into a folder inside it.
    for (const parentId of [acme.id, leases.id]) {
      const res = await call('PATCH', folderUrl(`/${acme.id}`), { parentId });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].path).toBe('body.parentId');
    }
    expect((await call('GET', folderUrl(`/${acme.id}`))).body.folder.parentId).toBeNull();

    // Deleted only when empty: a folder inside, then a document inside.
    const notEmpty = await call('DELETE', folderUrl(`/${acme.id}`));
    expect(notEmpty.status).toBe(409);
    expect(notEmpty.body.code).toBe('folder_not_empty');
    const doc = await quickCreate(ctx, owner.apiKey, { tenantId });
    await call('PATCH', `/api/documents/${doc.body.document.id}`, { folderId: leases.id });
    expect((await call('DELETE', folderUrl(`/${leases.id}`))).body.code).toBe('folder_not_empty');
    await call('PATCH', `/api/documents/${doc.body.document.id}`, { folderId: null });
    expect((await call('DELETE', folderUrl(`/${leases.id}`))).status).toBe(204);
    expect((await call('DELETE', folderUrl(`/${acme.id}`))).status).toBe(204);
    expect((await call('GET', folderUrl(`/${acme.id}`))).status).toBe(404);
    expect((await call('GET', folderUrl())).body.folders.map((f: Folder) => f.name)).toEqual([
      'Archive',
      'Clients',
    ]);
  });

  it('validates folders and hides other tenants', async () => {
    const mine = await mkFolder('Mine');
    for (const [body, path] of [
      [{}, 'body.name'],
      [{ name: '' }, 'body.name'],
      [{ name: 'x'.repeat(256) }, 'body.name'],
      [{ name: 'A', parentId: 'nope' }, 'body.parentId'],
      [{ name: 'A', colour: 'red' }, 'body'],
    ] as const) {
      const res = await call('POST', folderUrl(), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await call('PATCH', folderUrl(`/${mine.id}`), {})).status).toBe(422);

    const stranger = await createUser(ctx);
    const theirTenant = (await createTenant(ctx, stranger.apiKey)).id;
    const theirs = (
      await api(ctx, stranger.apiKey, 'POST', `/api/tenants/${theirTenant}/folders`, {
        name: 'Theirs',
      })
    ).body.folder as Folder;
    // Their folder, reached through our tenant or theirs, is a 404 to us.
    expect((await call('GET', folderUrl(`/${theirs.id}`))).status).toBe(404);
    expect((await call('GET', `/api/tenants/${theirTenant}/folders/${theirs.id}`)).status).toBe(
      404,
    );
    expect((await call('GET', `/api/tenants/${theirTenant}/folders`)).status).toBe(404);
    expect((await call('POST', folderUrl(), { name: 'X', parentId: theirs.id })).status).toBe(404);
    expect((await call('PATCH', folderUrl(`/${mine.id}`), { parentId: theirs.id })).status).toBe(
      404,
    );
    expect((await call('DELETE', folderUrl(`/${theirs.id}`))).status).toBe(404);
    const doc = await quickCreate(ctx, owner.apiKey, { tenantId });
    const filed = await call('PATCH', `/api/documents/${doc.body.document.id}`, {
      folderId: theirs.id,
    });
    expect(filed.status).toBe(404);
    const listed = await call('GET', `/api/documents?tenantId=${tenantId}&folderId=${theirs.id}`);
    expect(listed.status).toBe(404);
    expect(
      (await call('GET', `/api/documents?tenantId=${tenantId}&folderId=${randomUUID()}`)).status,
    ).toBe(404);
  });

  it('lists by folder, pin and search, combined with status and keyset pages', async () => {
    const tenant = (await createTenant(ctx, owner.apiKey, 'Search Co')).id;
    const make = async (name: string, signees: Array<{ email: string; name: string }>) =>
      (await quickCreate(ctx, owner.apiKey, { tenantId: tenant, signees, extra: { name } })).body
        .document.id as string;
    const lease = await make('Office Lease Zürich', [
      { email: 'maria@zurich.example', name: 'María Zoë' },
    ]);
    const nda = await make('NDA 100%_done', [{ email: 'bob@example.com', name: 'Bob Builder' }]);
    const offer = await make('Offer letter', [
      { email: 'ann@example.com', name: 'Ann' },
      { email: 'zoe.k@example.com', name: 'Zoë König' },
    ]);
    const other = await make('Invoice', [{ email: 'carl@example.com', name: 'Carl' }]);
    const folder = (
      await api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenant}/folders`, { name: 'HR' })
    ).body.folder as Folder;
    await call('PATCH', `/api/documents/${offer}`, { folderId: folder.id, pinned: true });
    await call('PATCH', `/api/documents/${nda}`, { folderId: folder.id });
    await call('PATCH', `/api/documents/${lease}`, { pinned: true });
    await call('POST', `/api/documents/${nda}/send-for-signing`);

    const ids = async (query: string) => {
      const res = await call('GET', `/api/documents?tenantId=${tenant}&${query}`);
      expect(res.status, query).toBe(200);
      return res.body.documents.map((d: { id: string }) => d.id);
    };
    expect(await ids(`folderId=${folder.id}`)).toEqual([offer, nda]);
    expect(await ids('pinned=true')).toEqual([offer, lease]);
    expect(await ids('pinned=false')).toEqual([other, nda]);
    expect(await ids(`folderId=${folder.id}&pinned=true`)).toEqual([offer]);
    expect(await ids(`folderId=${folder.id}&status=in_process`)).toEqual([nda]);
    // q: document name, signee name or e-mail; any case; any script; substrings; wildcards literal.
    expect(await ids('q=lease')).toEqual([lease]);
    expect(await ids('q=ZOË')).toEqual([offer, lease]);
    expect(await ids('q=zürich')).toEqual([lease]);
    expect(await ids('q=BUILD')).toEqual([nda]);
    expect(await ids('q=example.com')).toEqual([other, offer, nda]);
    expect(await ids(`q=${encodeURIComponent('100%_')}`)).toEqual([nda]);
    expect(await ids(`q=${encodeURIComponent('%')}`)).toEqual([nda]);
    expect(await ids('q=_')).toEqual([nda]);
    expect(await ids('q=of')).toEqual([offer, lease]);
    expect(await ids('q=zz')).toEqual([]);
    expect(await ids(`q=${encodeURIComponent('"lease')}`)).toEqual([]);
    expect(await ids('q=%20%20')).toEqual([other, offer, nda, lease]);
    expect(await ids(`q=zo&folderId=${folder.id}&pinned=true&status=draft`)).toEqual([offer]);
    expect(await ids('q=example&status=in_process')).toEqual([nda]);

    // A renamed document and an edited signee are found by their new text only.
    await call('PATCH', `/api/documents/${other}`, { name: 'Purchase order' });
    const carl = (await call('GET', `/api/documents/${other}`)).body.signees[0].id;
    await call('PATCH', `/api/documents/${other}/signees/${carl}`, { email: 'karl@firma.example' });
    expect(await ids('q=invoice')).toEqual([]);
    expect(await ids('q=purchase')).toEqual([other]);
    expect(await ids('q=carl@')).toEqual([]);
    expect(await ids('q=karl@firma')).toEqual([other]);

    // Keyset pages through a search.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(
        'GET',
        `/api/documents?tenantId=${tenant}&q=e&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...res.body.documents.map((d: { id: string }) => d.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([other, offer, nda, lease]);

    for (const bad of ['pinned=yes', `q=${'x'.repeat(201)}`, 'folderId=nope']) {
      expect((await call('GET', `/api/documents?tenantId=${tenant}&${bad}`)).status, bad).toBe(422);
    }
  });
});

describe.each(ENGINES)('search text on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  it('folds case, composition and final sigma, and reads FTS5 syntax as plain text', async () => {
    const make = async (name: string) =>
      (
        await quickCreate(ctx, owner.apiKey, {
          tenantId,
          signees: [{ email: 'x@example.com', name: 'X' }],
          extra: { name },
        })
      ).body.document.id as string;
    const greek = await make('ΣΥΜΒΑΣΗ ΜΙΣΘΩΣΗΣ');
    const accents = await make('Cafe\u0301 contract');
    const syntax = await make('Deal - NEAR "x" * col:1 (a OR b)');
    const ids = async (q: string) =>
      (
        await api(
          ctx,
          owner.apiKey,
          'GET',
          `/api/documents?tenantId=${tenantId}&q=${encodeURIComponent(q)}`,
        )
      ).body.documents.map((d: { id: string }) => d.id);
    // "σύμβασης": written with a final sigma in the query, a capital one in the name.
    expect(await ids('μισθωσης')).toEqual([greek]);
    expect(await ids('ΜΙΣΘΩΣΗΣ')).toEqual([greek]);
    expect(await ids('συμβασ')).toEqual([greek]);
    // Composed é in the query finds the decomposed e + accent in the name, and back.
    expect(await ids('café')).toEqual([accents]);
    expect(await ids('cafe\u0301')).toEqual([accents]);
    for (const q of ['- NEAR', '"x" *', 'col:1', '(a OR b)', 'NEAR', '*']) {
      expect(await ids(q), q).toEqual([syntax]);
    }
    expect(await ids('a OR z')).toEqual([]);
  });

  it('finds the same documents before and after the SQLite index takes in its batch', async () => {
    const make = async (name: string) =>
      (
        await quickCreate(ctx, owner.apiKey, {
          tenantId,
          signees: [{ email: 'y@example.com', name: 'Y' }],
          extra: { name },
        })
      ).body.document.id as string;
    const ids = async (q: string) =>
      (
        await api(ctx, owner.apiKey, 'GET', `/api/documents?tenantId=${tenantId}&q=${q}`)
      ).body.documents.map((d: { id: string }) => d.id);
    const index = async () => {
      if (engine === 'sqlite') await indexPendingSearchText(ctx.db.kysely);
    };
    const kept = await make('Quarterly report');
    const renamed = await make('Quarterly draft');
    const removed = await make('Quarterly memo');
    await index();
    expect(await ids('quarterly')).toEqual([removed, renamed, kept]);
    await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${renamed}`, { name: 'Annual plan' });
    await api(ctx, owner.apiKey, 'DELETE', `/api/documents/${removed}`);
    // Before the batch: the changed rows are read as pending; after it, from the index.
    expect(await ids('quarterly')).toEqual([kept]);
    expect(await ids('annual')).toEqual([renamed]);
    await index();
    expect(await ids('quarterly')).toEqual([kept]);
    expect(await ids('annual')).toEqual([renamed]);
    if (engine === 'sqlite') {
      const pending = await sql<{ n: number }>`
        select count(*) as n from documents_search_pending`.execute(ctx.db.kysely);
      expect(Number(pending.rows[0].n)).toBe(0);
    }
  });
});

describe('organising through the SDK', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { listen: true });
  });
  afterAll(() => ctx.close());

  it('files, pins, searches and edits with the typed client', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const client = createSignetClient({ baseUrl: ctx.baseUrl, apiKey: owner.apiKey });
    const created = await client.documents.quickCreate({
      tenantId,
      file: makePdf(),
      signees: [{ email: 'ann@example.com', name: 'Ann Example' }],
      name: 'Framework agreement',
    });
    const id = created.document.id;
    const parent = await client.folders.create(tenantId, { name: 'Legal' });
    const child = await client.folders.create(tenantId, { name: 'Signed', parentId: parent.id });
    expect((await client.folders.list(tenantId)).map((f) => f.name)).toEqual(['Legal', 'Signed']);
    expect(
      (await client.folders.update(tenantId, child.id, { parentId: null })).parentId,
    ).toBeNull();
    const updated = await client.documents.update(id, { folderId: parent.id, pinned: true });
    expect(updated.document.folderId).toBe(parent.id);
    const added = await client.documents.addSignee(id, { email: 'bo@example.com', name: 'Bo' });
    await client.documents.updateSignee(id, added.signee.id, { name: 'Bo Svensson' });
    const page = await client.documents.list({ tenantId, q: 'svensson', pinned: true });
    expect(page.documents.map((d) => d.id)).toEqual([id]);
    await client.documents.removeSignee(id, added.signee.id);
    expect((await client.documents.list({ tenantId, q: 'svensson' })).documents).toEqual([]);
    const refused = await client.folders.delete(tenantId, parent.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SignetApiError);
    expect((refused as SignetApiError).code).toBe('folder_not_empty');
    await client.folders.delete(tenantId, child.id);
    expect(await client.folders.get(tenantId, parent.id)).toMatchObject({ name: 'Legal' });
  });
});
