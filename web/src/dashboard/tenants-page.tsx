import { call } from './dashboard-api.js';
import { useState, type FormEvent } from 'react';
import { fieldError } from './api.js';
import { BrandSection } from './brand-section.js';
import { MembersSection } from './members-section.js';
import { useSession } from './session.js';
import { SettingsSection } from './settings-section.js';
import type { Tenant } from './types.js';
import { ErrorMessage, PageTitle, StatusMessage, TextField } from './ui.js';
import { useLoad } from './use-load.js';
import { useSubmit } from './use-submit.js';
import { CreateWorkspaceForm } from './workspace-create.js';

/**
 * `/app/workspace`: the current workspace (a tenant in the API) with its name, credits,
 * settings, brand and members; the user's other workspaces to switch to, and a new one.
 */
export function TenantsPage() {
  const session = useSession();
  const { tenant } = session;
  const credits = useLoad(
    async () =>
      tenant
        ? (await call('GET /api/tenants/{tenantId}/credits', { params: { tenantId: tenant.id } }))
            .balance
        : null,
    [tenant?.id],
  );

  return (
    <>
      <PageTitle>Workspace</PageTitle>
      {tenant && (
        <section className="card tenant-summary" aria-labelledby="current-tenant">
          <h2 id="current-tenant">{tenant.name}</h2>
          {tenant.role !== 'member' && <RenameForm key={tenant.id} tenant={tenant} />}
          <dl className="facts">
            <div>
              <dt>Your role</dt>
              <dd>{tenant.role}</dd>
            </div>
            <div>
              <dt>Credit balance</dt>
              <dd data-testid="credit-balance">
                {credits.data === null ? '…' : `${credits.data} credits`}
              </dd>
            </div>
            <div>
              <dt>Workspace ID</dt>
              <dd className="mono">{tenant.id}</dd>
            </div>
          </dl>
          <p className="field-hint">
            Sending a document costs one credit per signee. The API calls a workspace a tenant: use
            this ID as <code>tenantId</code>.
          </p>
          <ErrorMessage error={credits.error} />
        </section>
      )}
      {session.tenants.length > 1 && (
        <section className="card" aria-labelledby="switch-tenant">
          <h2 id="switch-tenant">Your workspaces</h2>
          <ul className="tenant-list">
            {session.tenants.map((t) => (
              <li key={t.id}>
                <span>
                  <strong>{t.name}</strong> <span className="muted">({t.role})</span>
                </span>
                {t.id === tenant?.id ? (
                  <span className="badge badge-current">current</span>
                ) : (
                  <button
                    type="button"
                    className="button secondary small"
                    aria-label={`Switch to ${t.name}`}
                    onClick={() => session.selectTenant(t.id)}
                  >
                    Switch
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="card" aria-labelledby="new-tenant">
        <h2 id="new-tenant">{tenant ? 'Create another workspace' : 'Create your workspace'}</h2>
        <p className="field-hint">
          A workspace holds its own documents, templates, members, settings, webhooks and credits.
          You become its owner.
        </p>
        <CreateWorkspaceForm label="Name of the new workspace" />
      </section>
      {tenant && <SettingsSection key={`s-${tenant.id}`} tenant={tenant} />}
      {tenant && <BrandSection key={`b-${tenant.id}`} tenant={tenant} />}
      {tenant && <MembersSection key={`m-${tenant.id}`} tenant={tenant} />}
    </>
  );
}

/** Renames the current workspace (owners and admins; the service says no to members). */
function RenameForm(props: { tenant: Tenant }) {
  const session = useSession();
  const [name, setName] = useState(props.tenant.name);
  const [done, setDone] = useState<string | null>(null);
  const rename = useSubmit();
  function onRename(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    void rename.submit(async () => {
      const { tenant } = await call('PATCH /api/tenants/{tenantId}', {
        params: { tenantId: props.tenant.id },
        json: { name },
      });
      setName(tenant.name);
      await session.reloadTenants(tenant.id);
      setDone(`Renamed to ${tenant.name}.`);
    });
  }
  return (
    <>
      <form className="inline-form" onSubmit={onRename} noValidate>
        <TextField
          label="Workspace name"
          autoComplete="organization"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(rename.errors, 'name', 'Workspace name')}
        />
        <button type="submit" className="button secondary" disabled={rename.busy}>
          Rename
        </button>
      </form>
      <ErrorMessage error={rename.message} />
      {done && <StatusMessage>{done}</StatusMessage>}
    </>
  );
}
