import { call } from './dashboard-api.js';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { asApiError } from './api.js';
import { LoginPage, SignupPage } from './auth-pages.js';
import { ApiKeysPage } from './api-keys-page.js';
import { DocumentDetailPage } from './document-detail-page.js';
import { DocumentsPage } from './documents-page.js';
import { InvitationPage } from './invitation-page.js';
import { Layout, PublicLayout } from './layout.js';
import { recoveryPage } from './recovery-pages.js';
import { matchPath, navigate, useLocation } from './router.js';
import { rememberedTenantId, rememberTenantId, SessionContext, type Session } from './session.js';
import { SetupPage } from './setup-page.js';
import { TenantsPage } from './tenants-page.js';
import type { Meta, Tenant, User } from './types.js';
import { BulkSendPage } from './bulk-send-page.js';
import { TemplateDetailPage } from './template-detail-page.js';
import { TemplateUploadPage } from './template-upload-page.js';
import { TemplatesPage } from './templates-page.js';
import { ErrorMessage, PageTitle } from './ui.js';
import { UploadPage } from './upload-page.js';
import { WebhookDeliveriesPage } from './webhook-deliveries-page.js';
import { WebhooksPage } from './webhooks-page.js';
import { ActivityPage } from './activity-page.js';

type Loaded = { meta: Meta; user: User | null };

// The Prepare view brings pdf.js: loaded when first opened, not with every dashboard page.
const PreparePage = lazy(async () => ({
  default: (await import('./prepare-page.js')).PreparePage,
}));
const TemplatePreparePage = lazy(async () => ({
  default: (await import('./template-prepare.js')).TemplatePreparePage,
}));

/** The dashboard: loads who is logged in, then shows the page for the current URL. */
export function DashboardApp() {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { path } = useLocation();

  useEffect(() => {
    (async () => {
      try {
        const meta = await call('GET /api/meta');
        let user: User | null = null;
        try {
          user = (await call('GET /api/auth/me')).user;
        } catch (err) {
          if (asApiError(err).status !== 401) throw err;
        }
        setLoaded({ meta, user });
      } catch (err) {
        setFailure(asApiError(err).message);
      }
    })();
  }, []);

  const setUser = useCallback((user: User | null) => {
    setLoaded((l) => (l ? { ...l, user } : l));
  }, []);

  if (failure) return <ErrorMessage error={`Signet could not start: ${failure}`} />;
  if (!loaded) return <p className="loading">Loading…</p>;

  const { meta, user } = loaded;
  // The invitation link works logged in or not: the page itself offers to log in.
  const invitation = matchPath('/invitations/:token', path);
  if (invitation) {
    return (
      <PublicLayout meta={meta}>
        <InvitationPage token={invitation.token} meta={meta} user={user} setUser={setUser} />
      </PublicLayout>
    );
  }
  const recovery = recoveryPage(path, { meta, setUser });
  if (recovery) return <PublicLayout meta={meta}>{recovery}</PublicLayout>;
  if (!user || path === '/login' || path === '/signup') {
    if (user && (path === '/login' || path === '/signup')) {
      navigate('/app/documents', { replace: true });
      return null;
    }
    return (
      <PublicLayout meta={meta}>
        {path === '/signup' ? (
          <SignupPage meta={meta} />
        ) : (
          <LoginPage onLoggedIn={(u) => setUser(u)} />
        )}
      </PublicLayout>
    );
  }
  return <LoggedIn meta={meta} user={user} setUser={setUser} path={path} />;
}

function LoggedIn(props: {
  meta: Meta;
  user: User;
  setUser: (user: User | null) => void;
  path: string;
}) {
  const [tenants, setTenants] = useState<Tenant[] | null>(null);
  const [tenantId, setTenantId] = useState<string | null>(rememberedTenantId());

  const reloadTenants = useCallback(async (selectId?: string) => {
    const list = (await call('GET /api/tenants')).tenants;
    setTenants(list);
    if (selectId) {
      setTenantId(selectId);
      rememberTenantId(selectId);
    }
  }, []);

  useEffect(() => {
    reloadTenants().catch(() => setTenants([]));
  }, [reloadTenants]);

  const session = useMemo<Session | null>(() => {
    if (!tenants) return null;
    const tenant = tenants.find((t) => t.id === tenantId) ?? tenants[0] ?? null;
    return {
      meta: props.meta,
      user: props.user,
      tenants,
      tenant,
      selectTenant: (id) => {
        setTenantId(id);
        rememberTenantId(id);
      },
      reloadTenants,
      setUser: props.setUser,
    };
  }, [tenants, tenantId, props.meta, props.user, props.setUser, reloadTenants]);

  if (!session) return <p className="loading">Loading…</p>;
  return (
    <SessionContext.Provider value={session}>
      <Layout>
        <Route path={props.path} />
      </Layout>
    </SessionContext.Provider>
  );
}

function Route(props: { path: string }): ReactNode {
  const { path } = props;
  if (path === '/' || path === '/app' || path === '/app/') {
    navigate('/app/documents', { replace: true });
    return null;
  }
  if (path === '/app/documents') return <DocumentsPage />;
  if (path === '/app/documents/new') return <UploadPage />;
  const prepare = matchPath('/app/documents/:id/prepare', path);
  if (prepare) {
    return (
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <PreparePage key={prepare.id} documentId={prepare.id} />
      </Suspense>
    );
  }
  const setup = matchPath('/app/documents/:id/setup', path);
  if (setup) return <SetupPage key={setup.id} documentId={setup.id} />;
  const doc = matchPath('/app/documents/:id', path);
  if (doc) return <DocumentDetailPage key={doc.id} documentId={doc.id} />;
  if (path === '/app/templates') return <TemplatesPage />;
  if (path === '/app/templates/new') return <TemplateUploadPage />;
  const placeFields = matchPath('/app/templates/:id/prepare', path);
  if (placeFields) {
    return (
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <TemplatePreparePage key={placeFields.id} templateId={placeFields.id} />
      </Suspense>
    );
  }
  const template = matchPath('/app/templates/:id', path);
  if (template) return <TemplateDetailPage key={template.id} templateId={template.id} />;
  const bulkSend = matchPath('/app/bulk-sends/:id', path);
  if (bulkSend) return <BulkSendPage key={bulkSend.id} bulkSendId={bulkSend.id} />;
  if (path === '/app/api-keys') return <ApiKeysPage />;
  // The Workspace page; /app/tenants was its address before the dashboard said "workspace".
  if (path === '/app/tenants') {
    navigate('/app/workspace', { replace: true });
    return null;
  }
  if (path === '/app/workspace') return <TenantsPage />;
  if (path === '/app/webhooks') return <WebhooksPage />;
  if (path === '/app/activity') return <ActivityPage />;
  const hook = matchPath('/app/webhooks/:id', path);
  if (hook) return <WebhookDeliveriesPage key={hook.id} webhookId={hook.id} />;
  return (
    <>
      <PageTitle>Page not found</PageTitle>
      <p>There is no dashboard page at this address.</p>
    </>
  );
}
