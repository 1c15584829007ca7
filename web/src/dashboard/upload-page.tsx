import { call } from './dashboard-api.js';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { FieldError } from '../shared/http.js';
import { fieldError, otherErrors } from './api.js';
import { NoTenant } from './layout.js';
import { Link, navigate } from './router.js';
import { useSession } from './session.js';
import { ErrorMessage, Field, PageTitle, TextField } from './ui.js';
import { useSubmit } from './use-submit.js';
import { RoleSelect, ROLES_HINT, type SigneeRole } from './role-select.js';

type SigneeRow = { key: number; email: string; name: string; role: SigneeRole };
let nextKey = 1;
const emptyRow = (): SigneeRow => ({ key: nextKey++, email: '', name: '', role: 'signer' });

/** The PDF to upload, with its hint and its error. */
export function PdfFileField(props: {
  id: string;
  error?: string;
  onChange: (file: File | null) => void;
}) {
  return (
    <Field id={props.id} label="PDF file" hint="A PDF under 50 MiB." error={props.error}>
      {(control) => (
        <input
          {...control}
          type="file"
          accept="application/pdf,.pdf"
          onChange={(e) => props.onChange(e.target.files?.[0] ?? null)}
        />
      )}
    </Field>
  );
}

/**
 * An upload page: its title, the way back, the form's errors above its fields and the submit
 * button (`Uploading…` while it is busy) below them. On submit the multipart body is the
 * tenant, the page's `parts`, then the file; `send` posts it and names the page to go to.
 */
export function UploadForm(props: {
  title: string;
  back: { to: string; label: string };
  tenantId: string;
  file: File | null;
  parts: (form: FormData) => void;
  send: (form: FormData) => Promise<string>;
  upload: ReturnType<typeof useSubmit>;
  otherErrors: FieldError[];
  submitLabel: string;
  children: ReactNode;
}) {
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void props.upload.submit(async () => {
      const form = new FormData();
      form.append('tenantId', props.tenantId);
      props.parts(form);
      // The file goes last: the service streams it, having read the other parts first.
      if (props.file) form.append('file', props.file, props.file.name);
      navigate(await props.send(form));
    });
  }
  return (
    <>
      <PageTitle>{props.title}</PageTitle>
      <p>
        <Link to={props.back.to}>{props.back.label}</Link>
      </p>
      <form className="card form" onSubmit={onSubmit} noValidate>
        <ErrorMessage error={props.upload.message} />
        {props.otherErrors.map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        {props.children}
        <div className="button-row">
          <button type="submit" className="button primary" disabled={props.upload.busy}>
            {props.upload.busy ? 'Uploading…' : props.submitLabel}
          </button>
        </div>
      </form>
    </>
  );
}

/**
 * Upload a PDF with its signees (quick-create). The service checks everything; its 422 paths
 * (`file`, `signees.1.email`, …) put each message next to the field that caused it.
 */
export function UploadPage() {
  const { tenant } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const [rows, setRows] = useState<SigneeRow[]>([emptyRow()]);
  const upload = useSubmit();
  if (!tenant) return <NoTenant />;

  // Each message as a sentence with the label of the field it sits next to.
  const err = (path: string, label?: string) => fieldError(upload.errors, path, label);
  const fileError = err('file', 'PDF file');
  const messageError = err('signingMessage', 'Message to signees');
  const signeeFields = rows.flatMap((_, i) => [
    `signees.${i}.email`,
    `signees.${i}.name`,
    `signees.${i}.role`,
    `signees.${i}`,
  ]);
  const known = ['file', 'name', 'signingMessage', 'signees', ...signeeFields];
  const update = (key: number, patch: Partial<SigneeRow>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  return (
    <UploadForm
      title="Upload a document"
      back={{ to: '/app/documents', label: '← All documents' }}
      tenantId={tenant.id}
      file={file}
      parts={(form) => {
        if (name.trim()) form.append('name', name.trim());
        if (message.trim()) form.append('signingMessage', message.trim());
        form.append(
          'signees',
          JSON.stringify(rows.map((r) => ({ email: r.email, name: r.name, role: r.role }))),
        );
      }}
      send={async (form) => {
        const result = await call('POST /api/documents/quick-create', { form });
        return `/app/documents/${result.document.id}`;
      }}
      upload={upload}
      otherErrors={otherErrors(upload.errors, known)}
      submitLabel="Upload"
    >
      <PdfFileField id="upload-file" error={fileError} onChange={setFile} />
      <TextField
        label="Document name"
        hint="Optional: the file name is used otherwise."
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={err('name', 'Document name')}
      />
      <Field id="signing-message" label="Message to signees" error={messageError}>
        {(control) => (
          <textarea {...control} value={message} onChange={(e) => setMessage(e.target.value)} />
        )}
      </Field>
      <fieldset className="signees">
        <legend>Signees</legend>
        <p className="field-hint">{ROLES_HINT}</p>
        {err('signees') && (
          <p className="field-error" role="alert">
            {err('signees')}
          </p>
        )}
        {rows.map((row, i) => (
          <div key={row.key} className="signee-row" role="group" aria-label={`Signee ${i + 1}`}>
            <TextField
              label={`Signee ${i + 1} name`}
              value={row.name}
              onChange={(e) => update(row.key, { name: e.target.value })}
              error={err(`signees.${i}.name`, `Signee ${i + 1} name`)}
            />
            <TextField
              label={`Signee ${i + 1} e-mail`}
              type="email"
              value={row.email}
              onChange={(e) => update(row.key, { email: e.target.value })}
              error={
                err(`signees.${i}.email`, `Signee ${i + 1} e-mail`) ??
                err(`signees.${i}`, `Signee ${i + 1}`)
              }
            />
            <RoleSelect
              label={`Signee ${i + 1} role`}
              value={row.role}
              onChange={(role) => update(row.key, { role })}
              error={err(`signees.${i}.role`, `Signee ${i + 1} role`)}
            />
            {rows.length > 1 && (
              <button
                type="button"
                className="button secondary small"
                aria-label={`Remove signee ${i + 1}`}
                onClick={() => setRows((rs) => rs.filter((r) => r.key !== row.key))}
              >
                Remove
              </button>
            )}
          </div>
        ))}
        <button
          type="button"
          className="button secondary small"
          onClick={() => setRows((rs) => [...rs, emptyRow()])}
        >
          Add signee
        </button>
      </fieldset>
    </UploadForm>
  );
}
