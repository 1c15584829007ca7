import { useState, type FormEvent } from 'react';
import { fieldError, otherErrors } from './api.js';
import { call } from './dashboard-api.js';
import { navigate } from './router.js';
import { TextField, ErrorMessage } from './ui.js';
import { useSubmit } from './use-submit.js';

/**
 * **Save as template** on a draft: asks for the template's name, then makes a template of the
 * draft's PDF, fields and settings (`POST /api/documents/{id}/save-as-template`) and opens it.
 * Its signees become roles named after them.
 */
export function SaveAsTemplate(props: { documentId: string; documentName: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(props.documentName);
  const save = useSubmit();
  if (!open) {
    return (
      <button type="button" className="button secondary" onClick={() => setOpen(true)}>
        Save as template
      </button>
    );
  }
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void save.submit(async () => {
      const { template } = await call('POST /api/documents/{documentId}/save-as-template', {
        params: { documentId: props.documentId },
        json: { name: name.trim() },
      });
      navigate(`/app/templates/${template.id}`);
    });
  }
  return (
    <form className="inline-form save-as-template" onSubmit={onSubmit} noValidate>
      <TextField
        label="Template name"
        hint="The signees become roles named after them; rename them on the template’s page."
        value={name}
        maxLength={255}
        autoFocus
        onChange={(e) => setName(e.target.value)}
        error={fieldError(save.errors, 'name', 'Template name')}
      />
      <div className="button-row">
        <button type="submit" className="button primary small" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save template'}
        </button>
        <button type="button" className="button secondary small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {otherErrors(save.errors, ['name']).map((e) => (
        <ErrorMessage key={e.path} error={e.message} />
      ))}
      <ErrorMessage error={save.message} />
    </form>
  );
}
