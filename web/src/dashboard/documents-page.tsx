import { call } from './dashboard-api.js';
import { NoTenant } from './layout.js';
import { Link, navigate, useLocation } from './router.js';
import { useSession } from './session.js';
import { DOCUMENT_STATUSES } from './types.js';
import { ErrorMessage, PageTitle, StatusBadge, Time } from './ui.js';
import { useLoad } from './use-load.js';

const PAGE_SIZE = 10;

/**
 * The current tenant's documents, newest first, filtered by status and paged with the API's
 * cursor. Filter and cursor live in the URL, so back and reload keep the view.
 */
export function DocumentsPage() {
  const { tenant } = useSession();
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const cursor = query.get('cursor');
  const list = useLoad(async () => {
    if (!tenant) return null;
    const q = new URLSearchParams({ tenantId: tenant.id, limit: String(PAGE_SIZE) });
    if (status) q.set('status', status);
    if (cursor) q.set('cursor', cursor);
    return call('GET /api/documents', { query: q });
  }, [tenant?.id, status, cursor]);

  const title = (
    <PageTitle
      actions={
        <Link to="/app/documents/new" className="button primary">
          Upload a document
        </Link>
      }
    >
      Documents
    </PageTitle>
  );
  if (!tenant) {
    return (
      <>
        {title}
        <NoTenant />
      </>
    );
  }

  function go(next: { status?: string; cursor?: string | null }) {
    const q = new URLSearchParams();
    const s = next.status ?? status;
    if (s) q.set('status', s);
    if (next.cursor) q.set('cursor', next.cursor);
    navigate(`/app/documents${q.size > 0 ? `?${q}` : ''}`);
  }

  return (
    <>
      {title}
      <div className="toolbar">
        <label className="field inline">
          <span className="field-label">Status</span>
          <select
            className="text-input compact"
            value={status}
            onChange={(e) => go({ status: e.target.value, cursor: null })}
          >
            <option value="">All</option>
            {DOCUMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorMessage error={list.error} />
      {list.data && list.data.documents.length === 0 && (
        <p className="empty">
          {cursor ? 'No more documents.' : 'No documents here yet.'}{' '}
          <Link to="/app/documents/new">Upload one</Link>.
        </p>
      )}
      {list.data && list.data.documents.length > 0 && (
        <div className="table-wrap card flush">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.documents.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    <Link to={`/app/documents/${d.id}`}>{d.name}</Link>
                  </th>
                  <td>
                    <StatusBadge status={d.status} />
                  </td>
                  <td>
                    <Time value={d.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="button-row pager" aria-label="Pages">
        {cursor && (
          <button type="button" className="button secondary" onClick={() => go({ cursor: null })}>
            First page
          </button>
        )}
        {list.data?.nextCursor && (
          <button
            type="button"
            className="button secondary"
            onClick={() => go({ cursor: list.data?.nextCursor })}
          >
            Next page
          </button>
        )}
      </nav>
    </>
  );
}
