import { useState, type FormEvent } from 'react';
import { fieldError, otherErrors } from './api.js';
import { call } from './dashboard-api.js';
import { NoTenant } from './layout.js';
import { navigate } from './router.js';
import { useSession } from './session.js';
import {
  emptyRole,
  plainErrors,
  roleErrorPaths,
  RolesFieldset,
  type RoleRow,
} from './template-roles.js';
import { TextField } from './ui.js';
import { PdfFileField, UploadForm } from './upload-page.js';
import { useSubmit } from './use-submit.js';

/**
 * `/app/templates/new`: a PDF, the template's name and its roles (`POST /api/templates`). The
 * service checks everything; its 422 paths put each message next to its field.
 */
export function TemplateUploadPage() {
  const { tenant } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<RoleRow[]>(() => [emptyRole()]);
  const [textTags, setTextTags] = useState(false);
  const upload = useSubmit();
  if (!tenant) return <NoTenant />;

  const errors = plainErrors(upload.errors);
  const fileError = fieldError(errors, 'file', 'PDF file');
  const known = ['file', 'name', 'textTags', 'template', ...roleErrorPaths(roles)];

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!tenant) return;
    void upload.submit(async () => {
      const form = new FormData();
      form.append('tenantId', tenant.id);
      form.append(
        'template',
        JSON.stringify({ name: name.trim(), roles: roles.map((r) => ({ name: r.name.trim() })) }),
      );
      if (textTags) form.append('textTags', 'true');
      // The file goes last: the service streams it, having read the other parts first.
      if (file) form.append('file', file, file.name);
      const result = await call('POST /api/templates', { form });
      navigate(`/app/templates/${result.template.id}`);
    });
  }

  return (
    <UploadForm
      title="New template"
      back={{ to: '/app/templates', label: '← All templates' }}
      onSubmit={onSubmit}
      upload={upload}
      otherErrors={otherErrors(errors, known)}
      submitLabel="Create template"
    >
      <PdfFileField id="template-file" error={fileError} onChange={setFile} />
      <TextField
        label="Template name"
        value={name}
        maxLength={255}
        onChange={(e) => setName(e.target.value)}
        error={
          fieldError(errors, 'name', 'Template name') ?? fieldError(errors, 'template', 'Template')
        }
      />
      <RolesFieldset roles={roles} onChange={setRoles} ordered={false} errors={errors} />
      <label className="check">
        <input type="checkbox" checked={textTags} onChange={(e) => setTextTags(e.target.checked)} />
        <span>
          Place fields from text tags in the PDF
          <span className="field-hint block">
            Tags such as {'{{signature:1}}'} in the PDF’s text become fields, the number being the
            role (1 for the first). Otherwise place the fields on the template’s page.
          </span>
        </span>
      </label>
    </UploadForm>
  );
}
