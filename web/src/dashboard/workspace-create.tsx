import { useState, type FormEvent } from 'react';
import { fieldError } from './api.js';
import { call } from './dashboard-api.js';
import { useSession } from './session.js';
import { ErrorMessage, TextField } from './ui.js';
import { useSubmit } from './use-submit.js';

/**
 * Makes a workspace (a tenant in the API) with the user as its owner, and switches to it. On
 * the Workspace page, and wherever an account made before sign-up gave one has none yet.
 */
export function CreateWorkspaceForm(props: { label: string }) {
  const session = useSession();
  const [name, setName] = useState('');
  const create = useSubmit();
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
      <form className="inline-form" onSubmit={onCreate} noValidate>
        <TextField
          label={props.label}
          autoComplete="organization"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(create.errors, 'name', props.label)}
        />
        <button type="submit" className="button primary" disabled={create.busy}>
          Create workspace
        </button>
      </form>
      <ErrorMessage error={create.message} />
    </>
  );
}
