import { useState } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { asApiError } from './api.js';
import { BulkSendPanel } from './bulk-send-panel.js';
import { call } from './dashboard-api.js';
import { withoutSignature } from './prepare-fields.js';
import { Link, navigate } from './router.js';
import { DirectLinkSection } from './template-direct-link.js';
import { TemplateSettings } from './template-settings.js';
import { ConfirmButton, ErrorMessage, PageTitle, Time } from './ui.js';
import { UseTemplateForm } from './use-template-form.js';
import { withRole } from './role-select.js';
import { useLoad } from './use-load.js';

/**
 * `/app/templates/:id`: a template's facts, then what to do with it (use it for one set of
 * signees, send it in bulk from a CSV file, publish a direct link), its settings and roles, and
 * delete.
 */
export function TemplateDetailPage(props: { templateId: string }) {
  const params = { templateId: props.templateId };
  const loaded = useLoad(
    () => call('GET /api/templates/{templateId}', { params }),
    [props.templateId],
  );
  const [failure, setFailure] = useState<string | null>(null);

  if (loaded.error && !loaded.data) {
    return (
      <>
        <PageTitle>Template</PageTitle>
        <ErrorMessage error={loaded.error} />
        <Link to="/app/templates">← All templates</Link>
      </>
    );
  }
  if (!loaded.data) return <p className="loading">Loading…</p>;
  const { template, fields } = loaded.data;
  const changed = (next: Api.TemplateWithFields) => loaded.setData(next);
  const unsigned = withoutSignature(
    fields.map((f) => ({ owner: f.roleId, type: f.type })),
    template.roles,
  );
  const prepareUrl = `/app/templates/${template.id}/prepare`;

  async function remove() {
    setFailure(null);
    try {
      await call('DELETE /api/templates/{templateId}', { params });
      navigate('/app/templates', { replace: true });
    } catch (err) {
      setFailure(`Deleting failed: ${asApiError(err).message}`);
    }
  }

  return (
    <>
      <PageTitle>{template.name}</PageTitle>
      <p>
        <Link to="/app/templates">← All templates</Link>
      </p>
      <section className="card" aria-labelledby="template-summary">
        <h2 id="template-summary" className="visually-hidden">
          Summary
        </h2>
        <dl className="facts">
          <div>
            <dt>Roles</dt>
            <dd className="break">
              {template.roles.map((r) => withRole(r.name, r.role)).join(', ')}
            </dd>
          </div>
          <div>
            <dt>Pages</dt>
            <dd>{template.pageCount}</dd>
          </div>
          <div>
            <dt>Fields</dt>
            <dd>{fields.length}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <Time value={template.createdAt} />
            </dd>
          </div>
          <div>
            <dt>File</dt>
            <dd className="break">{template.originalFile}</dd>
          </div>
        </dl>
        <div className="button-row">
          <Link className="button primary" to={prepareUrl}>
            Place fields
          </Link>
          <a className="button secondary" href={template.downloadUrl} download>
            Download PDF
          </a>
          <ConfirmButton
            label="Delete template"
            question="Delete this template? Documents made from it stay."
            confirmLabel="Yes, delete"
            onConfirm={remove}
          />
        </div>
        {unsigned.length > 0 && (
          <p className="warning-text">
            Documents made from it cannot be sent yet: {unsigned.map((r) => r.name).join(', ')}{' '}
            {unsigned.length === 1 ? 'has' : 'have'} no signature field.{' '}
            <Link to={prepareUrl}>Place one</Link>.
          </p>
        )}
        {fields.length === 0 && (
          <p className="field-hint">
            No fields yet: the signees of each document sign on a page added at the end. Place
            fields to say where they sign.
          </p>
        )}
        <ErrorMessage error={failure} />
      </section>
      <UseTemplateForm template={template} fields={fields} />
      <BulkSendPanel template={template} fields={fields} />
      <DirectLinkSection template={template} onChanged={changed} />
      <TemplateSettings key={template.id} detail={loaded.data} onChanged={changed} />
    </>
  );
}
