import { useMemo } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { call } from './dashboard-api.js';
import { PrepareEditor, type PrepareSubject } from './prepare-editor.js';
import { fromServer, toTemplateInput } from './prepare-fields.js';
import { Link } from './router.js';
import { ErrorMessage, PageTitle } from './ui.js';
import { useLoad } from './use-load.js';

/**
 * `/app/templates/:id/prepare`: the documents' field editor on a template's pages, with its
 * roles in place of signees; saved by `PUT /api/templates/{id}/fields`.
 */
export function TemplatePreparePage(props: { templateId: string }) {
  const loaded = useLoad(
    () => call('GET /api/templates/{templateId}', { params: { templateId: props.templateId } }),
    [props.templateId],
  );
  const back = `/app/templates/${props.templateId}`;
  if (loaded.error && !loaded.data) {
    return (
      <>
        <PageTitle>Place fields</PageTitle>
        <ErrorMessage error={loaded.error} />
        <Link to={back}>← Back to the template</Link>
      </>
    );
  }
  if (!loaded.data) return <p className="loading">Loading…</p>;
  return <TemplatePrepare {...loaded.data} back={back} />;
}

function TemplatePrepare(props: {
  template: Api.Template;
  fields: Api.TemplateField[];
  back: string;
}) {
  const { template, back } = props;
  const subject = useMemo<PrepareSubject>(
    () => ({
      kind: 'template',
      name: template.name,
      downloadUrl: template.downloadUrl,
      // Fields are placed only for signer roles: approvers and cc recipients fill none.
      participants: template.roles
        .filter((r) => r.role === 'signer')
        .map((r) => ({ id: r.id, name: r.name })),
      back,
      save: async (fields) => {
        const res = await call('PUT /api/templates/{templateId}/fields', {
          params: { templateId: template.id },
          json: { fields: fields.map(toTemplateInput) },
        });
        return res.fields.map(fromServer);
      },
    }),
    [template, back],
  );
  const initial = useMemo(() => props.fields.map(fromServer), [props.fields]);
  return <PrepareEditor subject={subject} initial={initial} />;
}
