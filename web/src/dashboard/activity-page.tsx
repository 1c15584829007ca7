import type * as Api from '../../../server/src/api-types.js';
import { describeActivity } from './activity-words.js';
import { call } from './dashboard-api.js';
import { NoTenant } from './layout.js';
import { Link } from './router.js';
import { useSession } from './session.js';
import { EmptyState, ErrorMessage, LoadMore, PageTitle, Time } from './ui.js';
import { usePaged } from './use-paged.js';

type Loaded = { activity: Api.ActivityEntry[]; nextCursor: string | null };
const PAGE_SIZE = 25;

/**
 * `/app/activity`: the current tenant's activity log, newest first, with **Load more** adding
 * the next page below. Owners and admins only; a member is told so instead of a 403.
 */
export function ActivityPage() {
  const { tenant } = useSession();
  const allowed = tenant !== null && tenant.role !== 'member';
  const { list, error, loadingMore, loadMore } = usePaged(
    async (cursor) => {
      const page = allowed ? await load(cursor) : null;
      return page && { items: page.activity, nextCursor: page.nextCursor };
    },
    [tenant?.id, tenant?.role],
  );

  async function load(cursor: string | null): Promise<Loaded | null> {
    if (!tenant) return null;
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (cursor) query.set('cursor', cursor);
    return call('GET /api/tenants/{tenantId}/activity', { params: { tenantId: tenant.id }, query });
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
          <ErrorMessage error={error} />
          {list && list.items.length === 0 && (
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
          {list && list.items.length > 0 && (
            <ol className="activity-list" aria-label="Activity">
              {list.items.map((entry) => (
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
