import { useState } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { fieldError, otherErrors, uploadWithProgress } from './api.js';
import { NoTenant } from './layout.js';
import { useSession } from './session.js';
import { SetupProgress, setupUrl } from './setup-progress.js';
import { TextField } from './ui.js';
import { UploadForm } from './upload-form.js';
import { useSubmit } from './use-submit.js';

/**
 * `/app/documents/new`, the first step of a new document: the PDF, its name and the first
 * recipient. Quick-create needs at least one signee, so the first one is asked for here and the
 * upload itself makes the draft (with a real progress bar on the real request); the next step
 * adds the others, their roles and the signing order to that draft.
 */
export function UploadPage() {
  const { tenant } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [signer, setSigner] = useState({ name: '', email: '' });
  const upload = useSubmit();
  if (!tenant) return <NoTenant />;

  // Each message as a sentence with the label of the field it sits next to.
  const err = (path: string, label: string) => fieldError(upload.errors, path, label);
  const known = ['file', 'name', 'signees', 'signees.0', 'signees.0.name', 'signees.0.email'];

  return (
    <UploadForm
      title="Upload a document"
      above={<SetupProgress current="upload" />}
      back={{ to: '/app/documents', label: '← All documents' }}
      tenantId={tenant.id}
      fileId="upload-file"
      file={file}
      onFile={setFile}
      fileError={err('file', 'PDF file')}
      parts={(form) => {
        if (name.trim()) form.append('name', name.trim());
        form.append('signees', JSON.stringify([{ ...signer, role: 'signer' }]));
      }}
      send={async (form, transfer) => {
        const result = await uploadWithProgress<Api.QuickCreateResult>(
          '/api/documents/quick-create',
          form,
          transfer,
        );
        return setupUrl(result.document.id, 'recipients');
      }}
      upload={upload}
      otherErrors={otherErrors(upload.errors, known)}
      submitLabel="Upload and continue"
    >
      <TextField
        label="Document name"
        hint="Optional: the file name is used otherwise."
        value={name}
        maxLength={255}
        onChange={(e) => setName(e.target.value)}
        error={err('name', 'Document name')}
      />
      <fieldset className="signees">
        <legend>First recipient</legend>
        <p className="field-hint">
          Who signs first. The next step adds more recipients, their roles and the signing order.
        </p>
        <TextField
          label="Recipient name"
          value={signer.name}
          maxLength={200}
          autoComplete="off"
          onChange={(e) => setSigner({ ...signer, name: e.target.value })}
          error={err('signees.0.name', 'Recipient name')}
        />
        <TextField
          label="Recipient e-mail"
          type="email"
          value={signer.email}
          maxLength={254}
          autoComplete="off"
          onChange={(e) => setSigner({ ...signer, email: e.target.value })}
          error={
            err('signees.0.email', 'Recipient e-mail') ??
            err('signees.0', 'Recipient') ??
            err('signees', 'Recipients')
          }
        />
      </fieldset>
    </UploadForm>
  );
}
