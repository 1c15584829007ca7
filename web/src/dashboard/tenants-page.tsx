import { call } from './dashboard-api.js';
import { useState, type FormEvent } from 'react';
import { fieldError } from './api.js';
import { BrandSection } from './brand-section.js';
import { MembersSection } from './members-section.js';
import { useSession } from './session.js';
import { SettingsSection } from './settings-section.js';
import { ErrorMessage, PageTitle, TextField } from './ui.js';
import { useLoad } from './use-load.js';
import { useSubmit } from './use-submit.js';

/** Tenants: create and switch, and for the current one its credits, settings and members. */
export function TenantsPage() {
  const session = useSession();
  const { tenant } = session;
  const [name, setName] = useState('');
  const create = useSubmit();
  const credits = useLoad(
    async () =>
      tenant
        ? (await call('GET /api/tenants/{tenantId}/credits', { params: { tenantId: tenant.id } }))
            .balance
        : null,
    [tenant?.id],
  );

  function onCreate(event: FormEvent) {
    event.preventDefault();
    void create.submit(async () => {
      const result = await call('POST /api/tenants', { json: { name } });
      setName('');
      await session.reloadTenants(result.tenant.id);
    });
  }

  return (
    <>
      <PageTitle>Tenants</PageTitle>
      {tenant && (
        <section className="card tenant-summary" aria-labelledby="current-tenant">
          <h2 id="current-tenant">{tenant.name}</h2>
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
              <dt>Tenant ID</dt>
              <dd className="mono">{tenant.id}</dd>
            </div>
          </dl>
          <p className="field-hint">Sending a document costs one credit per signee.</p>
          <ErrorMessage error={credits.error} />
        </section>
      )}
      {session.tenants.length > 1 && (
        <section className="card" aria-labelledby="switch-tenant">
          <h2 id="switch-tenant">Your tenants</h2>
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
        <h2 id="new-tenant">Create a tenant</h2>
        <p className="field-hint">
          A tenant is a workspace: its documents, members, settings, webhooks and credits. You
          become its owner.
        </p>
        <form className="inline-form" onSubmit={onCreate} noValidate>
          <TextField
            label="Tenant name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={fieldError(create.errors, 'name', 'Tenant name')}
          />
          <button type="submit" className="button primary" disabled={create.busy}>
            Create tenant
          </button>
        </form>
        <ErrorMessage error={create.message} />
      </section>
      {tenant && <SettingsSection key={`s-${tenant.id}`} tenant={tenant} />}
      {tenant && <BrandSection key={`b-${tenant.id}`} tenant={tenant} />}
      {tenant && <MembersSection key={`m-${tenant.id}`} tenant={tenant} />}
    </>
  );
}
