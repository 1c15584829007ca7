import { useEffect, useState } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { call } from './dashboard-api.js';
import { ListTitle, NoTenant } from './layout.js';
import { Link, navigate, useLocation } from './router.js';
import { useSession } from './session.js';
import { EmptyState, ErrorMessage, LoadMore, SearchForm, Time } from './ui.js';
import { usePaged } from './use-paged.js';

const PAGE_SIZE = 20;

type Loaded = { templates: Api.Template[]; nextCursor: string | null };

/**
 * `/app/templates`: the current tenant's templates, newest first, with a search box (its text in
 * the URL, so back and reload keep it) and **Load more** adding the next page below.
 */
export function TemplatesPage() {
  const { tenant } = useSession();
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const [search, setSearch] = useState(q);
  // Pages after the first, added below it by Load more, are gone when the search changes.
  const { list, error, loadingMore, loadMore } = usePaged(
    async (cursor) => {
      const page = await load(cursor);
      return page && { items: page.templates, nextCursor: page.nextCursor };
    },
    [tenant?.id, q],
  );
  useEffect(() => setSearch(q), [q, tenant?.id]);

  async function load(cursor: string | null): Promise<Loaded | null> {
    if (!tenant) return null;
    const params = new URLSearchParams({ tenantId: tenant.id, limit: String(PAGE_SIZE) });
    if (q.trim()) params.set('q', q.trim());
    if (cursor) params.set('cursor', cursor);
    return call('GET /api/templates', { query: params });
  }

  const title = (
    <ListTitle newTo="/app/templates/new" newLabel="New template">
      Templates
    </ListTitle>
  );
  if (!tenant) return <NoTenant title={title} />;
  function onSearch() {
    const params = new URLSearchParams();
    if (search.trim()) params.set('q', search.trim());
    navigate(`/app/templates${params.size > 0 ? `?${params}` : ''}`);
  }
  function clearSearch() {
    setSearch('');
    navigate('/app/templates');
  }

  return (
    <>
      {title}
      <p className="lead">
        A template is a PDF with its fields placed for roles (such as Client or Landlord): use it
        for one person, publish it as a direct link, or send it to many at once from a CSV file.
      </p>
      <div className="toolbar">
        <SearchForm
          value={search}
          onChange={setSearch}
          onSearch={onSearch}
          placeholder="Template name"
          accessibleLabel="Search templates"
        />
      </div>
      <ErrorMessage error={error} />
      {!list && !error && <p className="loading">Loading…</p>}
      {list && list.items.length === 0 && (
        <EmptyState
          title={q.trim() ? `No template matches “${q.trim()}”` : 'No templates yet'}
          action={
            q.trim() ? (
              <button type="button" className="button secondary" onClick={clearSearch}>
                Clear the search
              </button>
            ) : (
              <Link to="/app/templates/new" className="button secondary">
                Create a template
              </Link>
            )
          }
        >
          {q.trim()
            ? 'Try another name, or clear the search to see every template.'
            : 'Make one from a contract you send often; it is listed here once saved.'}
        </EmptyState>
      )}
      {list && list.items.length > 0 && (
        <div className="table-wrap card flush">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Roles</th>
                <th scope="col">Direct link</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <Link to={`/app/templates/${t.id}`}>{t.name}</Link>
                  </th>
                  <td className="break">{t.roles.map((r) => r.name).join(', ')}</td>
                  <td>{t.directLink.enabled ? 'On' : 'Off'}</td>
                  <td>
                    <Time value={t.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list?.nextCursor && <LoadMore loading={loadingMore} onClick={loadMore} />}
    </>
  );
}
