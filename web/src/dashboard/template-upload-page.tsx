import { useState } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { fieldError, otherErrors, uploadWithProgress } from './api.js';
import { NoTenant } from './layout.js';
import { useSession } from './session.js';
import {
  emptyRole,
  plainErrors,
  roleErrorPaths,
  RolesFieldset,
  type RoleRow,
} from './template-roles.js';
import { TextField } from './ui.js';
import { UploadForm } from './upload-form.js';
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

  return (
    <UploadForm
      title="New template"
      back={{ to: '/app/templates', label: '← All templates' }}
      tenantId={tenant.id}
      fileId="template-file"
      file={file}
      onFile={setFile}
      fileError={fileError}
      parts={(form) => {
        const roleNames = roles.map((r) => ({ name: r.name.trim(), role: r.role }));
        form.append('template', JSON.stringify({ name: name.trim(), roles: roleNames }));
        if (textTags) form.append('textTags', 'true');
      }}
      send={async (form, transfer) => {
        const result = await uploadWithProgress<Api.TemplateWithFields>(
          '/api/templates',
          form,
          transfer,
        );
        return `/app/templates/${result.template.id}`;
      }}
      upload={upload}
      otherErrors={otherErrors(errors, known)}
      submitLabel="Create template"
    >
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
