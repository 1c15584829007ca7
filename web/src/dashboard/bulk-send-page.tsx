import { useEffect, useState } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import type { ApiError } from '../shared/http.js';
import { asApiError } from './api.js';
import { csvCell } from './audit-csv.js';
import { call } from './dashboard-api.js';
import { Link } from './router.js';
import { csvDataUrl } from './template-csv.js';
import { ErrorMessage, PageTitle, StatusBadge, Time } from './ui.js';

/** How often the page asks for progress while the bulk send runs. */
const POLL_MS = 1000;
const ROWS_PAGE = 100;

type Rows = { rows: Api.BulkSendRow[]; nextCursor: string | null };

/**
 * `/app/bulk-sends/:id`: a bulk send's progress, asked every second until it is completed, and
 * its failed rows with their reasons (and the document, when the row got one before failing).
 */
export function BulkSendPage(props: { bulkSendId: string }) {
  const [bulk, setBulk] = useState<Api.BulkSend | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [failed, setFailed] = useState<Rows | null>(null);
  const [rowsError, setRowsError] = useState<ApiError | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer = 0;
    const poll = async () => {
      try {
        const { bulkSend } = await call('GET /api/bulk-sends/{bulkSendId}', {
          params: { bulkSendId: props.bulkSendId },
        });
        if (stopped) return;
        setBulk(bulkSend);
        setError(null);
        if (bulkSend.status !== 'completed') timer = window.setTimeout(poll, POLL_MS);
      } catch (err) {
        if (stopped) return;
        const e = asApiError(err);
        setError(e);
        // Not found stays so; a lost connection is asked again, a little later.
        if (e.status !== 404 && e.status !== 403) timer = window.setTimeout(poll, POLL_MS * 3);
      }
    };
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [props.bulkSendId]);

  // The failed rows, read again whenever their number grows.
  const failedCount = bulk?.failed ?? 0;
  useEffect(() => {
    if (failedCount === 0) return;
    let current = true;
    loadRows(props.bulkSendId, null).then(
      (page) => current && setFailed(page),
      (err: unknown) => current && setRowsError(asApiError(err)),
    );
    return () => {
      current = false;
    };
  }, [props.bulkSendId, failedCount]);

  async function loadMore() {
    if (!failed?.nextCursor) return;
    try {
      const page = await loadRows(props.bulkSendId, failed.nextCursor);
      setFailed({ rows: [...failed.rows, ...page.rows], nextCursor: page.nextCursor });
    } catch (err) {
      setRowsError(asApiError(err));
    }
  }

  if (error && !bulk) {
    return (
      <>
        <PageTitle>Bulk send</PageTitle>
        <ErrorMessage error={error} />
        <Link to="/app/templates">← All templates</Link>
      </>
    );
  }
  if (!bulk) return <p className="loading">Loading…</p>;
  const done = bulk.created + bulk.failed;
  const completed = bulk.status === 'completed';

  return (
    <>
      <PageTitle>Bulk send</PageTitle>
      <p>
        <Link to={`/app/templates/${bulk.templateId}`}>← Back to the template</Link>
      </p>
      <section className="card" aria-labelledby="bulk-progress">
        <h2 id="bulk-progress">Progress</h2>
        <div className="bulk-progress">
          <progress
            max={Math.max(bulk.total, 1)}
            value={done}
            aria-labelledby="bulk-progress"
            aria-describedby="bulk-progress-text"
          />
          <p id="bulk-progress-text" className="bulk-progress-text" role="status">
            {bulk.created} of {bulk.total} created, {bulk.failed} failed
            {completed ? '.' : '…'}
          </p>
        </div>
        <dl className="facts">
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={bulk.status} />
            </dd>
          </div>
          <div>
            <dt>Started</dt>
            <dd>
              <Time value={bulk.createdAt} />
            </dd>
          </div>
          <div>
            <dt>Finished</dt>
            <dd>
              <Time value={bulk.finishedAt} empty="not yet" />
            </dd>
          </div>
        </dl>
        {bulk.waitingUntil && !completed && (
          <p className="warning-text">
            Today’s e-mail quota of the workspace is used up: the next rows go out at{' '}
            <Time value={bulk.waitingUntil} />.
          </p>
        )}
        {error && <ErrorMessage error={`Progress could not be read: ${error.message}`} />}
      </section>
      {bulk.failed > 0 && (
        <section className="card" aria-labelledby="failed-rows">
          <h2 id="failed-rows">Failed rows</h2>
          <p className="field-hint">
            Rows are counted from the first line under the header: row 1 is line 2 of the file.
            Nothing was sent for these rows and no credits were used for them.
          </p>
          <ErrorMessage error={rowsError} />
          {failed && (
            <div className="table-wrap card flush">
              <table className="table failed-rows">
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Document</th>
                  </tr>
                </thead>
                <tbody>
                  {failed.rows.map((r) => (
                    <tr key={r.row}>
                      <th scope="row">{r.row}</th>
                      <td className="reason">{r.error ?? 'No reason given.'}</td>
                      <td>
                        {r.documentId ? (
                          <Link to={`/app/documents/${r.documentId}`}>Open</Link>
                        ) : (
                          <span className="muted">none</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className="button-row">
            {failed?.nextCursor && (
              <button type="button" className="button secondary" onClick={() => void loadMore()}>
                Load more failed rows
              </button>
            )}
            {failed && !failed.nextCursor && completed && (
              <a
                className="button secondary"
                href={csvDataUrl(failedCsv(failed.rows))}
                download="failed rows.csv"
              >
                Download failed rows
              </a>
            )}
          </div>
        </section>
      )}
    </>
  );
}

function loadRows(bulkSendId: string, cursor: string | null): Promise<Rows> {
  const query = new URLSearchParams({ status: 'failed', limit: String(ROWS_PAGE) });
  if (cursor) query.set('cursor', cursor);
  return call('GET /api/bulk-sends/{bulkSendId}/rows', { params: { bulkSendId }, query });
}

// The failed rows as CSV; a reason quotes the row's own cells, so formula starts are defused.
function failedCsv(rows: Api.BulkSendRow[]): string {
  const lines = [
    ['row', 'line', 'reason', 'documentId'],
    ...rows.map((r) => [r.row, r.row + 1, r.error, r.documentId]),
  ];
  return lines.map((l) => l.map(csvCell).join(',')).join('\r\n');
}
