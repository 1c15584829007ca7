import { useEffect, useState } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import type { ApiError } from '../shared/http.js';
import { describeActivity } from './activity-words.js';
import { asApiError } from './api.js';
import { call } from './dashboard-api.js';
import { NoTenant } from './layout.js';
import { Link } from './router.js';
import { useSession } from './session.js';
import { EmptyState, ErrorMessage, LoadMore, PageTitle, Time } from './ui.js';
import { useLoad } from './use-load.js';

type Loaded = { activity: Api.ActivityEntry[]; nextCursor: string | null };
const PAGE_SIZE = 25;

/**
 * `/app/activity`: the current tenant's activity log, newest first, with **Load more** adding
 * the next page below. Owners and admins only; a member is told so instead of a 403.
 */
export function ActivityPage() {
  const { tenant } = useSession();
  const allowed = tenant !== null && tenant.role !== 'member';
  const first = useLoad(
    () => (allowed ? load(null) : Promise.resolve(null)),
    [tenant?.id, tenant?.role],
  );
  const [more, setMore] = useState<Loaded | null>(null);
  const [moreError, setMoreError] = useState<ApiError | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => setMore(null), [tenant?.id]);

  async function load(cursor: string | null): Promise<Loaded | null> {
    if (!tenant) return null;
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (cursor) query.set('cursor', cursor);
    return call('GET /api/tenants/{tenantId}/activity', { params: { tenantId: tenant.id }, query });
  }

  const list: Loaded | null = first.data && {
    activity: [...first.data.activity, ...(more?.activity ?? [])],
    nextCursor: more ? more.nextCursor : first.data.nextCursor,
  };

  async function loadMore() {
    if (!list?.nextCursor) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      const page = await load(list.nextCursor);
      if (page) {
        setMore((m) => ({
          activity: [...(m?.activity ?? []), ...page.activity],
          nextCursor: page.nextCursor,
        }));
      }
    } catch (err) {
      setMoreError(asApiError(err));
    } finally {
      setLoadingMore(false);
    }
  }

  if (!tenant) return <NoTenant />;
  return (
    <>
      <PageTitle>Activity</PageTitle>
      {!allowed ? (
        <p className="empty">Only owners and admins of {tenant.name} can see its activity.</p>
      ) : (
        <>
          <p className="field-hint">
            Changes to {tenant.name}: members, invitations, settings, branding, identity keys,
            webhooks, templates and API keys, newest first.
          </p>
          <ErrorMessage error={first.error ?? moreError} />
          {list && list.activity.length === 0 && (
            <EmptyState
              title="No activity yet"
              action={
                <Link to="/app/workspace" className="button secondary">
                  Invite your team
                </Link>
              }
            >
              Changes to members, settings, webhooks, templates and keys are listed here.
            </EmptyState>
          )}
          {list && list.activity.length > 0 && (
            <ol className="activity-list" aria-label="Activity">
              {list.activity.map((entry) => (
                <li key={entry.id} className="card activity-entry">
                  <p className="activity-what break">{describeActivity(entry)}</p>
                  <p className="muted small activity-meta">
                    <Time value={entry.createdAt} /> ·{' '}
                    <span className="break">{entry.actor.email}</span>
                    {entry.actor.apiKeyId && ' (API key)'}
                    {entry.ip && (
                      <>
                        {' '}
                        · IP <span className="mono">{entry.ip}</span>
                      </>
                    )}{' '}
                    · <code>{entry.action}</code>
                  </p>
                </li>
              ))}
            </ol>
          )}
          {list?.nextCursor && <LoadMore loading={loadingMore} onClick={loadMore} />}
        </>
      )}
    </>
  );
}
