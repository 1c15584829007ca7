import { call } from './dashboard-api.js';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ResendVerification } from './resend-verification.js';
import { Link, navigate, useLocation } from './router.js';
import { useSession } from './session.js';
import type { Meta } from './types.js';
import { EmptyState, PageTitle } from './ui.js';
import { CreateWorkspaceForm } from './workspace-create.js';

const NAV = [
  { to: '/app/documents', label: 'Documents' },
  { to: '/app/templates', label: 'Templates' },
  { to: '/app/workspace', label: 'Workspace' },
  { to: '/app/webhooks', label: 'Webhooks' },
  // The activity log is for owners and admins only (decisions §16).
  { to: '/app/activity', label: 'Activity', managers: true },
  { to: '/app/api-keys', label: 'API keys' },
];

/**
 * The sandbox banner: every page of a sandbox host says so, with the dev mailbox at hand. On a
 * phone it is one short line (the long wording is hidden there), so it does not push the page
 * down.
 */
export function SandboxBanner(props: { meta: Meta }) {
  if (props.meta.environment !== 'sandbox') return null;
  return (
    <div className="sandbox-banner" role="note">
      <strong>Sandbox</strong>
      <span className="wide-only">
        : test keys and documents only; nothing here is legally binding.
      </span>
      <span className="phone-only">: test data only</span>
      {props.meta.devMailbox && (
        <>
          <span className="wide-only"> E-mails are not sent: read them in the </span>
          <span className="phone-only"> · </span>
          <a href="/dev/mailbox">dev mailbox</a>
          <span className="wide-only">.</span>
        </>
      )}
    </div>
  );
}

function Brand() {
  return (
    <span className="brand">
      <span className="brand-mark" aria-hidden="true" />
      Signet
    </span>
  );
}

/** Header and main landmark for the login and sign-up pages. */
export function PublicLayout(props: { meta: Meta; children: ReactNode }) {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SandboxBanner meta={props.meta} />
      <header className="site-header">
        <Brand />
      </header>
      <main id="main" className="main narrow">
        {props.children}
      </main>
    </div>
  );
}

/**
 * Header with navigation, workspace selector and log-out around every logged-in page. On a phone
 * they fold behind a Menu button (a disclosure), so the header is one row.
 */
export function Layout(props: { children: ReactNode }) {
  const session = useSession();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // Escape folds the open menu and gives focus back to its button.
  function onMenuKey(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  }
  async function logOut() {
    try {
      await call('POST /api/auth/logout');
    } finally {
      session.setUser(null);
      navigate('/login', { replace: true });
    }
  }
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SandboxBanner meta={session.meta} />
      <header className="site-header dash-header" onKeyDown={onMenuKey}>
        <Link to="/app/documents" className="brand-link" onClick={() => setMenuOpen(false)}>
          <Brand />
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="button secondary small menu-button"
          aria-expanded={menuOpen}
          aria-controls="dash-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span className="menu-icon" aria-hidden="true" />
          Menu
        </button>
        <div id="dash-menu" className={`dash-menu${menuOpen ? ' open' : ''}`}>
          <nav aria-label="Dashboard" className="dash-nav">
            <ul>
              {NAV.filter((item) => !item.managers || session.tenant?.role !== 'member').map(
                (item) => (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      aria-current={path.startsWith(item.to) ? 'page' : undefined}
                      onClick={() => setMenuOpen(false)}
                    >
                      {item.label}
                    </Link>
                  </li>
                ),
              )}
            </ul>
          </nav>
          <div className="dash-account">
            {session.tenants.length > 0 && (
              <label className="tenant-select">
                <span>Current workspace</span>
                <select
                  value={session.tenant?.id ?? ''}
                  onChange={(e) => session.selectTenant(e.target.value)}
                >
                  {session.tenants.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <span className="user-name" title={session.user.email}>
              {session.user.name}
            </span>
            <button type="button" className="button secondary small" onClick={logOut}>
              Log out
            </button>
          </div>
        </div>
      </header>
      {!session.user.emailVerified && (
        <div className="verify-banner" role="note">
          Verify your e-mail address ({session.user.email}) to create and send documents: open the
          link in the e-mail we sent
          {session.meta.devMailbox && (
            <>
              {' '}
              (<a href="/dev/mailbox">dev mailbox</a>)
            </>
          )}
          , then reload this page. <ResendVerification email={session.user.email} />
        </div>
      )}
      <main id="main" className="main">
        {props.children}
      </main>
    </div>
  );
}

/**
 * Shown on a workspace's pages when the user has none (an account made before sign-up made
 * one, or one who left theirs), under the page's `title` if given: one thing to do, make one.
 */
export function NoTenant(props: { title?: ReactNode }) {
  return (
    <>
      {props.title}
      <EmptyState
        title="Create your workspace"
        action={<CreateWorkspaceForm label="Workspace name" />}
      >
        Your documents, templates and team live in a workspace, and you have none yet. Name it after
        your company or team; you can rename it later.
      </EmptyState>
    </>
  );
}

/** A list page's title with its button to the page that makes a new one. */
export function ListTitle(props: { children: string; newTo: string; newLabel: string }) {
  return (
    <PageTitle
      actions={
        <Link to={props.newTo} className="button primary">
          {props.newLabel}
        </Link>
      }
    >
      {props.children}
    </PageTitle>
  );
}
