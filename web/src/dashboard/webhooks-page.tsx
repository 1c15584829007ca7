import { call } from './dashboard-api.js';
import { useState, type FormEvent } from 'react';
import { fieldError } from './api.js';
import { NoTenant } from './layout.js';
import { Link } from './router.js';
import { useSession } from './session.js';
import type { Webhook } from './types.js';
import {
  ConfirmButton,
  EmptyState,
  ErrorMessage,
  PageTitle,
  SecretOnce,
  StatusMessage,
  TextField,
  Time,
} from './ui.js';
import { useLoad } from './use-load.js';
import { useRowActions } from './use-row-actions.js';
import { useSubmit } from './use-submit.js';

/** The current tenant's webhooks: add, enable or disable, rotate the secret, delete. */
export function WebhooksPage() {
  const { tenant } = useSession();
  const tenantId = tenant?.id ?? '';
  const hooks = useLoad(
    async () =>
      tenant
        ? (await call('GET /api/tenants/{tenantId}/webhooks', { params: { tenantId } })).webhooks
        : [],
    [tenantId],
  );
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const { notice, setNotice, failure, run } = useRowActions(hooks.reload);
  const add = useSubmit();

  if (!tenant) {
    return (
      <>
        <PageTitle>Webhooks</PageTitle>
        <NoTenant />
      </>
    );
  }

  function onAdd(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    void add.submit(async () => {
      const result = await call('POST /api/tenants/{tenantId}/webhooks', {
        params: { tenantId },
        json: { url },
      });
      setUrl('');
      setSecret({ label: `Signing secret for ${result.webhook.url}`, value: result.secret });
      hooks.reload();
    });
  }

  const toggle = (hook: Webhook) =>
    run(async () => {
      await call('PATCH /api/tenants/{tenantId}/webhooks/{webhookId}', {
        params: { tenantId, webhookId: hook.id },
        json: { active: !hook.active },
      });
      setNotice(`${hook.url} is ${hook.active ? 'disabled' : 'enabled'}.`);
    });
  const rotate = (hook: Webhook) =>
    run(async () => {
      const result = await call('POST /api/tenants/{tenantId}/webhooks/{webhookId}/rotate-secret', {
        params: { tenantId, webhookId: hook.id },
      });
      setSecret({ label: `New signing secret for ${hook.url}`, value: result.secret });
    });
  const remove = (hook: Webhook) =>
    run(async () => {
      await call('DELETE /api/tenants/{tenantId}/webhooks/{webhookId}', {
        params: { tenantId, webhookId: hook.id },
      });
      setNotice(`Deleted the webhook for ${hook.url}.`);
    });

  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <p className="lead">
        Signet posts signed events about {tenant.name}’s documents to these URLs. Verify each
        request with the endpoint’s secret (see the SDK’s verifier).
      </p>
      {secret && (
        <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />
      )}
      {tenant.role === 'member' && (
        <p className="field-hint">Only owners and admins can see and manage webhooks.</p>
      )}
      <section className="card" aria-labelledby="webhook-list">
        <h2 id="webhook-list">Endpoints</h2>
        {notice && <StatusMessage>{notice}</StatusMessage>}
        <ErrorMessage error={failure ?? hooks.error} />
        {hooks.data && hooks.data.length === 0 && (
          <EmptyState
            inCard
            title="No webhooks yet"
            action={
              <a href="#new-webhook" className="button secondary">
                Add an endpoint
              </a>
            }
          >
            Add a URL and Signet tells your system when a document is sent, signed or declined.
          </EmptyState>
        )}
        <ul className="webhook-list">
          {hooks.data?.map((hook) => (
            <li key={hook.id} className="webhook-item">
              <div>
                <span className="mono break">{hook.url}</span>
                <span className="block muted">
                  {hook.active ? 'Enabled' : 'Disabled'} · added <Time value={hook.createdAt} />
                </span>
              </div>
              <div className="button-row">
                <Link
                  to={`/app/webhooks/${hook.id}`}
                  className="button secondary small"
                  aria-label={`Delivery log of ${hook.url}`}
                >
                  Delivery log
                </Link>
                <button
                  type="button"
                  className="button secondary small"
                  aria-label={`${hook.active ? 'Disable' : 'Enable'} ${hook.url}`}
                  onClick={() => void toggle(hook)}
                >
                  {hook.active ? 'Disable' : 'Enable'}
                </button>
                <ConfirmButton
                  label="Rotate secret"
                  accessibleLabel={`Rotate secret of ${hook.url}`}
                  question="Replace the secret? The old one stops working at once."
                  confirmLabel="Yes, rotate"
                  onConfirm={() => rotate(hook)}
                />
                <ConfirmButton
                  label="Delete"
                  accessibleLabel={`Delete ${hook.url}`}
                  question={`Delete the webhook for ${hook.url}?`}
                  confirmLabel="Yes, delete"
                  onConfirm={() => remove(hook)}
                />
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="new-webhook">
        <h2 id="new-webhook">Add an endpoint</h2>
        <form className="inline-form" onSubmit={onAdd} noValidate>
          <TextField
            label="Callback URL"
            type="url"
            placeholder="https://example.com/signet/webhooks"
            hint="HTTPS on a public address."
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={fieldError(add.errors, 'url')}
          />
          <button type="submit" className="button primary" disabled={add.busy}>
            Add webhook
          </button>
        </form>
        <ErrorMessage error={add.message} />
      </section>
    </>
  );
}
