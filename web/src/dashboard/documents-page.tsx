import { useEffect, useState, type DragEvent } from 'react';
import { call } from './dashboard-api.js';
import {
  DOCUMENT_DRAG_TYPE,
  FolderPanel,
  FolderSelect,
  folderPath,
  loadAllFolders,
} from './folders.js';
import { ListTitle, NoTenant } from './layout.js';
import { Link, navigate, useLocation } from './router.js';
import { useSession } from './session.js';
import { DOCUMENT_STATUSES, type Folder, type SignetDocument } from './types.js';
import { ErrorMessage, PageTitle, SearchForm, StatusBadge, StatusMessage, Time } from './ui.js';
import {
  ActiveFilter,
  completedSinceOf,
  DocumentsEmpty,
  FirstDocument,
  HOME_FILTERS,
  HomeCounts,
} from './home-counts.js';
import { useLoad } from './use-load.js';
import { useRowActions } from './use-row-actions.js';

const PAGE_SIZE = 10;

type View = {
  status: string;
  folderId: string | null;
  pinned: boolean;
  q: string;
  /** `7d`: completed in the last 7 days (home-counts.tsx). */
  completed: string;
  emailFailed: boolean;
};

/**
 * The current workspace's documents, newest first: the home counts on top, a folder tree
 * beside them, a search box and a status filter above, pin and move on each row, paged with the
 * API's cursor. The view lives in the URL, so back and reload keep it. A workspace without
 * documents shows one thing to do instead: upload the first.
 */
export function DocumentsPage() {
  const { tenant } = useSession();
  const { query } = useLocation();
  const view: View = {
    status: query.get('status') ?? '',
    folderId: query.get('folder'),
    pinned: query.get('pinned') === 'true',
    q: query.get('q') ?? '',
    completed: query.get('completed') === '7d' ? '7d' : '',
    emailFailed: query.get('emailFailed') === 'true',
  };
  const cursor = query.get('cursor');
  const filtered = Boolean(view.status || view.completed || view.emailFailed);
  const list = useLoad(async () => {
    if (!tenant) return null;
    const q = new URLSearchParams({ tenantId: tenant.id, limit: String(PAGE_SIZE) });
    if (view.status) q.set('status', view.status);
    if (view.folderId) q.set('folderId', view.folderId);
    if (view.pinned) q.set('pinned', 'true');
    if (view.q.trim()) q.set('q', view.q.trim());
    const completedSince = completedSinceOf(view.completed);
    if (completedSince) q.set('completedSince', completedSince);
    if (view.emailFailed) q.set('emailFailed', 'true');
    if (cursor) q.set('cursor', cursor);
    return { ...(await call('GET /api/documents', { query: q })), key: query.toString() };
  }, [
    tenant?.id,
    view.status,
    view.folderId,
    view.pinned,
    view.q,
    cursor,
    view.completed,
    view.emailFailed,
  ]);
  const folders = useLoad(async () => {
    if (!tenant) return [];
    return loadAllFolders(tenant.id);
  }, [tenant?.id]);
  const rows = useRowActions(list.reload);
  const [search, setSearch] = useState(view.q);
  useEffect(() => setSearch(view.q), [view.q]);

  const title = (
    <ListTitle newTo="/app/documents/new" newLabel="Upload a document">
      Documents
    </ListTitle>
  );
  if (!tenant) return <NoTenant title={<PageTitle>Documents</PageTitle>} />;
  // Until the first page is in, the title alone: a new workspace then shows its one action.
  if (!list.data) {
    return (
      <>
        <PageTitle>Documents</PageTitle>
        {list.error ? <ErrorMessage error={list.error} /> : <p className="loading">Loading…</p>}
      </>
    );
  }
  const unfiltered = !filtered && !view.folderId && !view.pinned && !view.q.trim() && !cursor;
  if (unfiltered && list.data.key === query.toString() && list.data.documents.length === 0) {
    return (
      <>
        <PageTitle>Documents</PageTitle>
        <FirstDocument />
      </>
    );
  }

  function go(next: Partial<View> & { cursor?: string | null }) {
    const v = { ...view, ...next };
    const q = new URLSearchParams();
    if (v.status) q.set('status', v.status);
    if (v.completed) q.set('completed', v.completed);
    if (v.emailFailed) q.set('emailFailed', 'true');
    if (v.folderId) q.set('folder', v.folderId);
    if (v.pinned) q.set('pinned', 'true');
    if (v.q.trim()) q.set('q', v.q.trim());
    if (next.cursor) q.set('cursor', next.cursor);
    navigate(`/app/documents${q.size > 0 ? `?${q}` : ''}`);
  }
  const homeFilter = HOME_FILTERS.find(
    (f) => f.query === query.toString().replace(/&?cursor=[^&]*/, ''),
  );
  const allFolders: Folder[] = folders.data ?? [];
  const fileDocument = (d: Pick<SignetDocument, 'id' | 'name'>, folderId: string | null) =>
    rows.run(async () => {
      await call('PATCH /api/documents/{documentId}', {
        params: { documentId: d.id },
        json: { folderId },
      });
      rows.setNotice(
        folderId
          ? `Moved ${d.name} to ${folderPath(allFolders, folderId)}.`
          : `${d.name} is in no folder now.`,
      );
    });
  const pin = (d: SignetDocument) =>
    rows.run(async () => {
      await call('PATCH /api/documents/{documentId}', {
        params: { documentId: d.id },
        json: { pinned: !d.pinned },
      });
      rows.setNotice(d.pinned ? `Unpinned ${d.name}.` : `Pinned ${d.name}.`);
    });
  const heading = view.pinned
    ? 'Pinned'
    : view.folderId
      ? folderPath(allFolders, view.folderId) || 'Folder'
      : (homeFilter?.label ?? 'All documents');
  function onSearch() {
    go({ q: search, cursor: null });
  }

  return (
    <>
      {title}
      <HomeCounts tenantId={tenant.id} active={homeFilter?.key ?? null} />
      <div className="documents-layout">
        <FolderPanel
          tenantId={tenant.id}
          folders={allFolders}
          view={{ folderId: view.folderId, pinned: view.pinned }}
          onView={(v) => go({ ...v, cursor: null })}
          onChanged={folders.reload}
          onDropDocument={(documentId, folderId) => {
            const d = list.data?.documents.find((x) => x.id === documentId);
            if (d) void fileDocument(d, folderId);
          }}
        />
        <div className="documents-main">
          <h2 className="documents-heading">{heading}</h2>
          <div className="toolbar">
            <SearchForm
              value={search}
              onChange={setSearch}
              onSearch={onSearch}
              placeholder="Name, signee or e-mail"
              accessibleLabel="Search documents"
            />
            <label className="field inline">
              <span className="field-label">Status</span>
              <select
                className="text-input compact"
                value={view.status}
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
          {filtered && (
            <ActiveFilter
              view={view}
              onClear={() => go({ status: '', completed: '', emailFailed: false, cursor: null })}
            />
          )}
          <ErrorMessage error={list.error ?? folders.error} />
          {rows.notice && <StatusMessage>{rows.notice}</StatusMessage>}
          <ErrorMessage error={rows.failure} />
          {list.data && list.data.documents.length === 0 && (
            <DocumentsEmpty
              view={view}
              cursor={cursor}
              filtered={filtered}
              onClear={() =>
                go({
                  q: '',
                  status: '',
                  completed: '',
                  emailFailed: false,
                  pinned: false,
                  cursor: null,
                })
              }
              onFirstPage={() => go({ cursor: null })}
            />
          )}
          {list.data && list.data.documents.length > 0 && (
            <div className="table-wrap card flush">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                    <th scope="col">Organise</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.documents.map((d) => (
                    <tr
                      key={d.id}
                      draggable
                      onDragStart={(e: DragEvent) => {
                        e.dataTransfer.setData(DOCUMENT_DRAG_TYPE, d.id);
                        e.dataTransfer.effectAllowed = 'move';
                      }}
                    >
                      <th scope="row">
                        {d.pinned && (
                          <span className="pin-mark" title="Pinned">
                            ★<span className="visually-hidden">Pinned:</span>{' '}
                          </span>
                        )}
                        <Link to={`/app/documents/${d.id}`}>{d.name}</Link>
                        {d.folderId && !view.folderId && (
                          <span className="muted block small-text">
                            {folderPath(allFolders, d.folderId)}
                          </span>
                        )}
                      </th>
                      <td>
                        <StatusBadge status={d.status} />
                      </td>
                      <td>
                        <Time value={d.createdAt} />
                      </td>
                      <td>
                        <div className="row-actions">
                          <button
                            type="button"
                            className="button secondary small"
                            aria-label={`${d.pinned ? 'Unpin' : 'Pin'} ${d.name}`}
                            onClick={() => void pin(d)}
                          >
                            {d.pinned ? 'Unpin' : 'Pin'}
                          </button>
                          <FolderSelect
                            label={`Move ${d.name} to folder`}
                            folders={allFolders}
                            value={d.folderId}
                            onChange={(folderId) => void fileDocument(d, folderId)}
                          />
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav className="button-row pager" aria-label="Pages">
            {cursor && (
              <button
                type="button"
                className="button secondary"
                onClick={() => go({ cursor: null })}
              >
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
        </div>
      </div>
    </>
  );
}
