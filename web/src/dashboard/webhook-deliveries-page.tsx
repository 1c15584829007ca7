import { call } from './dashboard-api.js';
import { useState } from 'react';
import { NoTenant } from './layout.js';
import { Link } from './router.js';
import { useSession } from './session.js';
import type { Delivery } from './types.js';
import { EmptyState, ErrorMessage, PageTitle, StatusBadge, StatusMessage, Time } from './ui.js';
import { useLoad } from './use-load.js';

/** One webhook's delivery log: every attempt's time, status code, duration and error. */
export function WebhookDeliveriesPage(props: { webhookId: string }) {
  const { tenant } = useSession();
  const params = { tenantId: tenant?.id ?? '', webhookId: props.webhookId };
  const [cursor, setCursor] = useState<string | null>(null);
  const hook = useLoad(
    async () =>
      tenant
        ? (await call('GET /api/tenants/{tenantId}/webhooks/{webhookId}', { params })).webhook
        : null,
    [params.tenantId, params.webhookId],
  );
  const log = useLoad(async () => {
    if (!tenant) return null;
    const query = new URLSearchParams({ limit: '20' });
    if (cursor) query.set('cursor', cursor);
    return call('GET /api/tenants/{tenantId}/webhooks/{webhookId}/deliveries', { params, query });
  }, [params.tenantId, params.webhookId, cursor]);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (!tenant) return <NoTenant />;

  async function redeliver(delivery: Delivery) {
    setNotice(null);
    setFailure(null);
    try {
      await call(
        'POST /api/tenants/{tenantId}/webhooks/{webhookId}/deliveries/{eventId}/redeliver',
        { params: { ...params, eventId: delivery.eventId } },
      );
      setNotice(`Redelivery of ${delivery.eventType} started.`);
    } catch (err) {
      setFailure((err as Error).message);
    }
    log.reload();
  }

  return (
    <>
      <PageTitle
        actions={
          <button type="button" className="button secondary small" onClick={log.reload}>
            Refresh
          </button>
        }
      >
        Delivery log
      </PageTitle>
      <p>
        <Link to="/app/webhooks">← All webhooks</Link>
      </p>
      {hook.data && <p className="mono break">{hook.data.url}</p>}
      {notice && <StatusMessage>{notice}</StatusMessage>}
      <ErrorMessage error={failure ?? hook.error ?? log.error} />
      {log.data && log.data.deliveries.length === 0 && (
        <EmptyState
          title="No deliveries yet"
          action={
            <Link to="/app/documents/new" className="button secondary">
              Send a document
            </Link>
          }
        >
          Events appear here once documents change: sending one is the quickest way to see one.
        </EmptyState>
      )}
      <ol className="delivery-list">
        {log.data?.deliveries.map((d) => (
          <li key={d.id} className="card delivery">
            <div className="delivery-head">
              <h2>
                <code>{d.eventType}</code>
              </h2>
              <StatusBadge status={d.status} />
            </div>
            <p className="muted small">
              Event <span className="mono">{d.eventId}</span> · created <Time value={d.createdAt} />
            </p>
            <div className="table-wrap">
              <table className="table">
                <caption className="visually-hidden">Attempts of {d.eventType}</caption>
                <thead>
                  <tr>
                    <th scope="col">Attempt</th>
                    <th scope="col">Time</th>
                    <th scope="col">Status code</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {d.attempts.length === 0 && (
                    <tr>
                      <td colSpan={5} className="muted">
                        Not attempted yet.
                      </td>
                    </tr>
                  )}
                  {d.attempts.map((a) => (
                    <tr key={a.attempt}>
                      <td>{a.attempt}</td>
                      <td>
                        <Time value={a.startedAt} />
                      </td>
                      <td>{a.statusCode ?? '—'}</td>
                      <td>{a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
                      <td className="break">{a.error ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <button
              type="button"
              className="button secondary small"
              aria-label={`Redeliver ${d.eventType} ${d.eventId}`}
              onClick={() => void redeliver(d)}
            >
              Redeliver
            </button>
          </li>
        ))}
      </ol>
      <div className="button-row">
        {cursor && (
          <button type="button" className="button secondary" onClick={() => setCursor(null)}>
            Newest deliveries
          </button>
        )}
        {log.data?.nextCursor && (
          <button
            type="button"
            className="button secondary"
            onClick={() => setCursor(log.data?.nextCursor ?? null)}
          >
            Older deliveries
          </button>
        )}
      </div>
    </>
  );
}
