import { call } from './dashboard-api.js';
import { useState, type FormEvent } from 'react';
import { fieldError } from './api.js';
import type { ApiKey } from './types.js';
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
import { useSubmit } from './use-submit.js';

/** API settings: create keys (secret shown once), list them, revoke with confirmation. */
export function ApiKeysPage() {
  const keys = useLoad(async () => (await call('GET /api/account/api-keys')).apiKeys, []);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ apiKey: ApiKey; secret: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const create = useSubmit();

  function onCreate(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    void create.submit(async () => {
      const result = await call('POST /api/account/api-keys', { json: { name } });
      setCreated(result);
      setName('');
      keys.reload();
    });
  }

  async function revoke(key: ApiKey) {
    try {
      await call('DELETE /api/account/api-keys/{keyId}', { params: { keyId: key.id } });
      setNotice(`Revoked “${key.name}”. Requests with it are refused from now on.`);
      keys.reload();
    } catch (err) {
      setNotice(`Could not revoke “${key.name}”: ${(err as Error).message}`);
    }
  }

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <p className="lead">
        Keys authenticate your server with the <code>X-Api-Key</code> header. A key acts as you, in
        every workspace you belong to.
      </p>
      {created && (
        <SecretOnce
          label={`Secret of “${created.apiKey.name}”`}
          secret={created.secret}
          onDone={() => setCreated(null)}
        />
      )}
      <section className="card" aria-labelledby="new-key">
        <h2 id="new-key">Create a key</h2>
        <form className="inline-form" onSubmit={onCreate} noValidate>
          <TextField
            label="Key name"
            hint="Where it will be used, e.g. “CRM production”."
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={fieldError(create.errors, 'name', 'Key name')}
          />
          <button type="submit" className="button primary" disabled={create.busy}>
            Create key
          </button>
        </form>
        <ErrorMessage error={create.message} />
      </section>
      <section className="card" aria-labelledby="key-list">
        <h2 id="key-list">Your keys</h2>
        {notice && <StatusMessage>{notice}</StatusMessage>}
        <ErrorMessage error={keys.error} />
        {keys.data && keys.data.length === 0 && (
          <EmptyState
            inCard
            title="No keys yet"
            action={
              <a href="#new-key" className="button secondary">
                Create your first key
              </a>
            }
          >
            A key lets your own software call the Signet API for this workspace.
          </EmptyState>
        )}
        {keys.data && keys.data.length > 0 && (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">{key.name}</th>
                    <td className="mono">
                      {key.prefix}…{key.lastFour}
                    </td>
                    <td>{key.environment}</td>
                    <td>
                      <Time value={key.createdAt} />
                    </td>
                    <td>
                      <Time value={key.lastUsedAt} empty="Never" />
                    </td>
                    <td>
                      <ConfirmButton
                        label="Revoke"
                        accessibleLabel={`Revoke ${key.name}`}
                        question={`Revoke “${key.name}”? Programs using it stop working at once.`}
                        confirmLabel="Yes, revoke"
                        onConfirm={() => revoke(key)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
