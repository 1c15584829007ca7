import { call } from './dashboard-api.js';
import { useEffect, useState } from 'react';
import type { ApiError } from '../shared/http.js';
import { asApiError } from './api.js';
import { DraftEditor } from './document-edit.js';
import { forgetHandover, handoverFor } from './document-handover.js';
import { loadAllFolders } from './folders.js';
import { AskFirstButton } from './ask-first.js';
import { signeesWithoutSignature } from './prepare-fields.js';
import { unsignedQuestion } from './prepare-next.js';
import { setupUrl } from './setup-progress.js';
import { Link, navigate } from './router.js';
import { SaveAsTemplate } from './save-as-template.js';
import { SigneeTimelines } from './signee-timeline.js';
import { auditCsv } from './audit-csv.js';
import { DeliveryResults } from './delivery-results.js';
import { DocumentFacts } from './document-facts.js';
import { DocumentTimeline } from './document-timeline.js';
import type { AuditEntry, Delivered } from './types.js';
import { ConfirmButton, ErrorMessage, PageTitle, StatusMessage } from './ui.js';
import { useLoad } from './use-load.js';

/** One document: signees, actions (send, remind, cancel, delete, download) and its timeline. */
export function DocumentDetailPage(props: { documentId: string }) {
  const params = { documentId: props.documentId };
  const detail = useLoad(
    () => call('GET /api/documents/{documentId}', { params }),
    [props.documentId],
  );
  const trail = useLoad(
    async () => (await call('GET /api/documents/{documentId}/audit-trail', { params })).auditTrail,
    [props.documentId],
  );
  // A page that just made this document (from a template) says what happened.
  const [handover] = useState(() => handoverFor(props.documentId));
  useEffect(() => forgetHandover(props.documentId), [props.documentId]);
  const [deliveries, setDeliveries] = useState<Delivered[] | null>(handover?.deliveries ?? null);
  const [notice, setNotice] = useState<string | null>(handover?.notice ?? null);
  const [failure, setFailure] = useState<string | null>(null);
  // Sending refused because a signee has no signature field: said with who, and where to fix it.
  const [missing, setMissing] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(label: string, action: () => Promise<void>) {
    setBusy(true);
    setNotice(null);
    setFailure(null);
    setMissing(null);
    try {
      await action();
    } catch (err) {
      const e = asApiError(err);
      if (e.code === 'signature_field_missing') setMissing(e);
      else setFailure(`${label} failed: ${e.message}`);
    } finally {
      setBusy(false);
    }
    detail.reload();
    trail.reload();
  }

  const send = () =>
    run('Sending', async () => {
      const r = await call('POST /api/documents/{documentId}/send-for-signing', { params });
      setDeliveries(r.deliveries);
      setNotice('Sent for signing.');
    });
  const remind = () =>
    run('Reminding', async () => {
      const r = await call('POST /api/documents/{documentId}/remind', { params });
      setDeliveries(r.deliveries);
      setNotice('Reminders sent to the signees whose turn it is.');
    });
  const cancel = () =>
    run('Cancelling', async () => {
      await call('POST /api/documents/{documentId}/cancel', { params });
      setNotice('The document is cancelled; its signing links no longer work.');
    });
  const retrySeal = () =>
    run('Sealing again', async () => {
      await call('POST /api/documents/{documentId}/seal', { params });
      setNotice('Sealing again: the document is pending seal.');
    });
  const remove = () =>
    run('Deleting', async () => {
      await call('DELETE /api/documents/{documentId}', { params });
      navigate('/app/documents', { replace: true });
    });

  const tenantId = detail.data?.document.tenantId;
  const folders = useLoad(async () => {
    if (!tenantId) return [];
    return loadAllFolders(tenantId);
  }, [tenantId]);
  const organise = (json: { pinned?: boolean; folderId?: string | null }, done: string) =>
    run('Saving', async () => {
      await call('PATCH /api/documents/{documentId}', { params, json });
      setNotice(done);
    });

  if (detail.error && !detail.data) {
    return (
      <>
        <PageTitle>Document</PageTitle>
        <ErrorMessage error={detail.error} />
        <Link to="/app/documents">← All documents</Link>
      </>
    );
  }
  if (!detail.data) return <p className="loading">Loading…</p>;
  const { document: doc, signees, fields } = detail.data;
  const sealed = doc.status === 'signed';
  const draft = doc.status === 'draft';
  const unsigned = draft ? signeesWithoutSignature(fields, signees) : [];
  // With no fields at all, every signer signs on an added page: sending asks first.
  const noFields =
    draft && fields.length === 0
      ? signees.filter((s) => s.role === 'signer').map((s) => s.name)
      : [];
  const prepareUrl = `/app/documents/${doc.id}/prepare`;

  return (
    <>
      <PageTitle>{doc.name}</PageTitle>
      <p>
        <Link to="/app/documents">← All documents</Link>
      </p>
      <section className="card" aria-labelledby="doc-summary">
        <h2 id="doc-summary" className="visually-hidden">
          Summary
        </h2>
        <DocumentFacts
          document={doc}
          folders={folders.data ?? []}
          busy={busy}
          organise={organise}
          entries={trail.data}
          onChanged={(changed) => {
            detail.setData(changed);
            trail.reload();
          }}
        />
        <div className="button-row">
          <a className="button secondary" href={doc.downloadUrl} download>
            {sealed ? 'Download sealed PDF' : 'Download original PDF'}
          </a>
          {trail.data && (
            <a
              className="button secondary"
              href={auditCsvUrl(trail.data)}
              download={`${doc.name}-audit-trail.csv`}
            >
              Download audit trail (CSV)
            </a>
          )}
          {!draft && (
            // Made and sealed by the service on each click; a draft has none (409).
            <a
              className="button secondary"
              href={`/api/documents/${encodeURIComponent(doc.id)}/certificate`}
              download
            >
              Download audit certificate (PDF)
            </a>
          )}
          {draft && (
            // The guided setup is the way on for a draft: it sends only after a review.
            <Link
              className="button primary"
              to={setupUrl(doc.id, fields.length === 0 ? 'fields' : 'review')}
            >
              Continue setup
            </Link>
          )}
          {draft && (
            <Link className="button secondary" to={prepareUrl}>
              Prepare fields
            </Link>
          )}
          {draft && (
            <AskFirstButton
              label="Send for signing"
              className="button secondary"
              disabled={busy}
              describedBy={unsigned.length > 0 ? 'send-warning' : undefined}
              question={unsignedQuestion(noFields, 0, 'Send anyway?')}
              goLabel="Send anyway"
              stayLabel="Keep editing"
              onGo={() => void send()}
            />
          )}
          {draft && <SaveAsTemplate documentId={doc.id} documentName={doc.name} />}
          {doc.status === 'in_process' && (
            <button type="button" className="button secondary" disabled={busy} onClick={remind}>
              Remind
            </button>
          )}
          {doc.status === 'in_process' && (
            <ConfirmButton
              label="Cancel document"
              question="Cancel this document? Signees can no longer sign it."
              confirmLabel="Yes, cancel"
              onConfirm={cancel}
            />
          )}
          {doc.status !== 'in_process' && doc.status !== 'pending_seal' && (
            <ConfirmButton
              label="Delete"
              accessibleLabel="Delete document"
              question="Delete this document and its files?"
              confirmLabel="Yes, delete"
              onConfirm={remove}
            />
          )}
        </div>
        {draft && fields.length > 0 && (
          <p className="muted">
            {fields.length} {fields.length === 1 ? 'field' : 'fields'} placed on the pages.
          </p>
        )}
        {unsigned.length > 0 && !missing && (
          <p className="warning-text" id="send-warning">
            Sending will be refused: {unsigned.map((s) => s.name).join(', ')}{' '}
            {unsigned.length === 1 ? 'has' : 'have'} no signature field.{' '}
            <Link to={prepareUrl}>Add one in Prepare fields</Link>.
          </p>
        )}
        {doc.status === 'seal_failed' && (
          <div className="form-error" role="alert">
            <p>
              <strong>Sealing failed:</strong>{' '}
              {(doc.sealFailure ?? 'every attempt failed').replace(/[.\s]*$/, '.')} The signatures
              are kept; seal it again once the cause is put right.
            </p>
            <button type="button" className="button primary" disabled={busy} onClick={retrySeal}>
              Retry sealing
            </button>
          </div>
        )}
        {notice && <StatusMessage>{notice}</StatusMessage>}
        <ErrorMessage error={failure} />
        {missing && (
          <div className="form-error" role="alert">
            <p>
              <strong>Not sent:</strong> {missing.message}
            </p>
            {missing.fieldErrors.length > 0 && (
              <ul>
                {missing.fieldErrors.map((e) => (
                  <li key={e.path}>{e.message}</li>
                ))}
              </ul>
            )}
            <p>
              Nothing was sent and no credits were used. <Link to={prepareUrl}>Prepare fields</Link>{' '}
              to give every signee a signature field.
            </p>
          </div>
        )}
      </section>
      {deliveries && <DeliveryResults deliveries={deliveries} />}
      {draft && (
        <DraftEditor
          detail={detail.data}
          onChanged={(changed) => {
            detail.setData(changed);
            trail.reload();
          }}
        />
      )}
      {!draft && <SigneeTimelines document={doc} signees={signees} entries={trail.data} />}
      <DocumentTimeline entries={trail.data} signees={signees} />
      <ErrorMessage error={trail.error} />
    </>
  );
}

// The audit trail as a CSV file (a data: URL, so nothing leaves the page): one row per entry.
function auditCsvUrl(entries: AuditEntry[]): string {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(auditCsv(entries))}`;
}
