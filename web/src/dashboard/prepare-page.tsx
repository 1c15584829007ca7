import { useMemo } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { call } from './dashboard-api.js';
import { PrepareEditor, type PrepareSubject } from './prepare-editor.js';
import type { NextStep } from './prepare-next.js';
import { fromServer, toInput } from './prepare-fields.js';
import { Link } from './router.js';
import { ErrorMessage, PageTitle } from './ui.js';
import { useLoad } from './use-load.js';

/**
 * `/app/documents/:id/prepare`: place, move, resize and edit a draft's fields on its pages. In
 * the guided flow (`flow`), the way back and the step after it are the flow's.
 */
export function PreparePage(props: { documentId: string; flow?: PrepareFlow }) {
  const params = { documentId: props.documentId };
  const loaded = useLoad(async () => {
    const [detail, fields] = await Promise.all([
      call('GET /api/documents/{documentId}', { params }),
      call('GET /api/documents/{documentId}/fields', { params }),
    ]);
    return { ...detail, fields: fields.fields };
  }, [props.documentId]);
  const back = props.flow?.back ?? `/app/documents/${props.documentId}`;

  if (loaded.error && !loaded.data) {
    return (
      <>
        <PageTitle>Prepare fields</PageTitle>
        <ErrorMessage error={loaded.error} />
        <Link to={back}>← Back to the document</Link>
      </>
    );
  }
  if (!loaded.data) return <p className="loading">Loading…</p>;
  const { document: doc, signees, fields } = loaded.data;
  if (doc.status !== 'draft') {
    return (
      <>
        <PageTitle>{`Prepare fields: ${doc.name}`}</PageTitle>
        <p>
          This document has been sent for signing (it is {doc.status.replace(/_/g, ' ')}): its
          fields can no longer change.
        </p>
        <Link to={back}>← Back to the document</Link>
      </>
    );
  }
  return (
    <DocumentPrepare doc={doc} signees={signees} fields={fields} back={back} flow={props.flow} />
  );
}

/** The guided flow's way back (a link with its words) and its next step. */
export type PrepareFlow = { back: string; backLabel: string; next: NextStep };

// The editor on a draft: fields for its signees, saved by `PUT /api/documents/{id}/fields`.
function DocumentPrepare(props: {
  doc: Api.SignetDocument;
  signees: Api.Signee[];
  fields: Api.Field[];
  back: string;
  flow?: PrepareFlow;
}) {
  const { doc, signees, back, flow } = props;
  const subject = useMemo<PrepareSubject>(
    () => ({
      kind: 'document',
      name: doc.name,
      downloadUrl: doc.downloadUrl,
      // Fields are placed only for signers: approvers and cc recipients have none to fill.
      participants: signees
        .filter((s) => s.role === 'signer')
        .map((s) => ({ id: s.id, name: s.name, detail: s.email })),
      back,
      backLabel: flow?.backLabel,
      next: flow?.next,
      save: async (fields) => {
        const res = await call('PUT /api/documents/{documentId}/fields', {
          params: { documentId: doc.id },
          json: { fields: fields.map(toInput) },
        });
        return res.fields.map(fromServer);
      },
    }),
    [doc.id, doc.name, doc.downloadUrl, signees, back, flow],
  );
  const initial = useMemo(() => props.fields.map(fromServer), [props.fields]);
  return <PrepareEditor subject={subject} initial={initial} />;
}
