import { call } from './dashboard-api.js';
import { Link } from './router.js';
import { EmptyState, ErrorMessage } from './ui.js';
import { useLoad } from './use-load.js';
import './home-counts.css';

/**
 * The filters the home counts link to, as the Documents page's URL holds them (`completed=7d`
 * stands for completedSince = 7 days before the list is loaded, as the count does).
 */
export const HOME_FILTERS = [
  { key: 'waiting', label: 'Waiting for others', query: 'status=in_process' },
  { key: 'prepare', label: 'Waiting for you to prepare', query: 'status=draft' },
  { key: 'completed', label: 'Completed in the last 7 days', query: 'completed=7d' },
  { key: 'failed', label: 'Failed e-mails', query: 'emailFailed=true' },
] as const;

/** The key of a home filter. */
export type HomeFilterKey = (typeof HOME_FILTERS)[number]['key'];

/** The completedSince of `completed=7d`: 7 days before now. */
export function completedSinceOf(value: string | null): string | null {
  return value === '7d' ? new Date(Date.now() - 7 * 24 * 3600_000).toISOString() : null;
}

/**
 * What needs attention in the current workspace, at the top of the Documents page: four counts
 * from one call (GET /api/documents/summary), loaded each time the page opens, each a link to
 * the list filtered to exactly those documents.
 */
export function HomeCounts(props: { tenantId: string; active: HomeFilterKey | null }) {
  const summary = useLoad(
    async () =>
      (
        await call('GET /api/documents/summary', {
          query: new URLSearchParams({ tenantId: props.tenantId }),
        })
      ).summary,
    [props.tenantId],
  );
  const s = summary.data;
  const counts: Record<HomeFilterKey, number | undefined> = {
    waiting: s?.inProcess,
    prepare: s?.draft,
    completed: s?.completed,
    failed: s?.emailFailed,
  };
  return (
    <section className="home-counts" aria-labelledby="home-counts-title">
      <h2 id="home-counts-title" className="visually-hidden">
        At a glance
      </h2>
      <ul>
        {HOME_FILTERS.map((f) => {
          const n = counts[f.key];
          const alert = f.key === 'failed' && (n ?? 0) > 0;
          return (
            <li key={f.key}>
              <Link
                to={`/app/documents?${f.query}`}
                className={`home-count${alert ? ' alert' : ''}`}
                aria-current={props.active === f.key ? 'true' : undefined}
                data-testid={`count-${f.key}`}
              >
                <span className="home-count-number">{n ?? '…'}</span>
                <span className="home-count-label">{f.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      <ErrorMessage error={summary.error} />
    </section>
  );
}

/** The first screen of a workspace without documents: what to do, once. */
export function FirstDocument() {
  return (
    <EmptyState
      title="Send your first document"
      testId="first-document"
      action={
        <Link to="/app/documents/new" className="button primary">
          Upload a document
        </Link>
      }
    >
      Upload a PDF, say who signs it and where, and send it when you are ready. Nothing goes out
      until you press Send.
    </EmptyState>
  );
}

/**
 * The list's active filter in words, with a way back to all documents: a home count's own name
 * for the filter it links to.
 */
export function ActiveFilter(props: {
  view: { status: string; completed: string; emailFailed: boolean };
  onClear: () => void;
}) {
  const { view } = props;
  const words = [
    view.status && statusWords(view.status),
    view.completed && 'Completed in the last 7 days',
    view.emailFailed && 'Failed e-mails',
  ].filter(Boolean);
  return (
    <p className="active-filter">
      <span>
        Showing <strong>{words.join(', ')}</strong>
      </span>
      <button type="button" className="button secondary small" onClick={props.onClear}>
        Clear filter
      </button>
    </p>
  );
}

function statusWords(status: string): string {
  if (status === 'in_process') return 'Waiting for others';
  if (status === 'draft') return 'Waiting for you to prepare';
  return `Status: ${status.replace('_', ' ')}`;
}

/**
 * The Documents list when a search, filter, folder or page has nothing in it: what that means
 * and one way on (a workspace with no documents at all gets FirstDocument instead).
 */
export function DocumentsEmpty(props: {
  view: { q: string; folderId: string | null; pinned: boolean };
  cursor: string | null;
  filtered: boolean;
  onClear: () => void;
  onFirstPage: () => void;
}) {
  const { view } = props;
  const q = view.q.trim();
  const button = (label: string, onClick: () => void) => (
    <button type="button" className="button secondary" onClick={onClick}>
      {label}
    </button>
  );
  if (props.cursor) {
    return (
      <EmptyState
        title="No more documents"
        action={button('Back to the first page', props.onFirstPage)}
      >
        You have reached the end of this list.
      </EmptyState>
    );
  }
  if (q || props.filtered || view.pinned) {
    const title = q
      ? `No document matches “${q}”`
      : view.pinned
        ? 'No pinned documents'
        : 'No documents with this filter';
    return (
      <EmptyState
        title={title}
        action={button(q ? 'Clear the search' : 'Show all documents', props.onClear)}
      >
        {q
          ? 'Try another word, or clear the search to see every document.'
          : view.pinned
            ? 'Pin a document in the list of all documents to keep it here.'
            : 'Nothing matches this filter right now.'}
      </EmptyState>
    );
  }
  return (
    <EmptyState
      title="No documents in this folder"
      action={
        <Link to="/app/documents/new" className="button primary">
          Upload a document
        </Link>
      }
    >
      Move a document here from the list, or upload a new one.
    </EmptyState>
  );
}
