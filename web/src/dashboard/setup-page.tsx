import { lazy, Suspense, useMemo, useState } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { call } from './dashboard-api.js';
import { DeliveryResults } from './delivery-results.js';
import { Link, useLocation } from './router.js';
import { SetupProgress, setupStep, setupUrl, type DraftSetupStep } from './setup-progress.js';
import { SetupRecipients } from './setup-recipients.js';
import { SetupReview } from './setup-review.js';
import { ErrorMessage, PageTitle, StatusMessage } from './ui.js';
import { useLoad } from './use-load.js';

// The fields step brings pdf.js, as the Prepare page does: loaded when first opened.
const PreparePage = lazy(async () => ({
  default: (await import('./prepare-page.js')).PreparePage,
}));

/**
 * `/app/documents/:id/setup?step=…`: a draft's guided setup after its upload (recipients,
 * fields, review and send), resumable at any step by its address. Sending happens only at the
 * review; the send step shows what sending did.
 */
export function SetupPage(props: { documentId: string }) {
  const { query } = useLocation();
  const step = setupStep(query.get('step'));
  const { documentId } = props;
  // What sending answered: kept here, as the send step is the same page at another address.
  const [sent, setSent] = useState<Api.SendForSigningResult | null>(null);
  const flow = useMemo(
    () => ({
      back: setupUrl(documentId, 'recipients'),
      backLabel: '← Back to recipients',
      next: { label: 'Continue to review', to: setupUrl(documentId, 'review') },
    }),
    [documentId],
  );
  return (
    <div className="setup">
      <SetupProgress current={step} documentId={documentId} />
      {step === 'fields' ? (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <PreparePage documentId={documentId} flow={flow} />
        </Suspense>
      ) : (
        <DraftStep key={step} documentId={documentId} step={step} sent={sent} onSent={setSent} />
      )}
    </div>
  );
}

// The steps shown from the draft's detail: recipients, review, and the send step's results.
function DraftStep(props: {
  documentId: string;
  step: Exclude<DraftSetupStep, 'fields'>;
  sent: Api.SendForSigningResult | null;
  onSent: (result: Api.SendForSigningResult) => void;
}) {
  const { documentId, step, sent } = props;
  const params = { documentId };
  const loaded = useLoad(async () => {
    const [detail, fields] = await Promise.all([
      call('GET /api/documents/{documentId}', { params }),
      call('GET /api/documents/{documentId}/fields', { params }),
    ]);
    return { detail, fields: fields.fields };
  }, [documentId]);
  const documentUrl = `/app/documents/${documentId}`;

  if (loaded.error && !loaded.data) {
    return (
      <>
        <PageTitle>New document</PageTitle>
        <ErrorMessage error={loaded.error} />
        <Link to="/app/documents">← All documents</Link>
      </>
    );
  }
  if (!loaded.data) return <p className="loading">Loading…</p>;
  const { detail, fields } = loaded.data;
  const doc = detail.document;

  if (step === 'send' || doc.status !== 'draft') {
    return (
      <>
        <PageTitle>{`${doc.status === 'draft' ? 'Not sent yet' : 'Sent for signing'}: ${doc.name}`}</PageTitle>
        {sent ? (
          <StatusMessage>
            Sent for signing. The recipients get their invitations as listed below.
          </StatusMessage>
        ) : doc.status === 'draft' ? (
          <p>
            This draft has not been sent. <Link to={setupUrl(documentId, 'review')}>Review it</Link>{' '}
            and send it from there.
          </p>
        ) : (
          <p>This document has been sent for signing: its setup is done.</p>
        )}
        {sent && <DeliveryResults deliveries={sent.deliveries} />}
        <div className="setup-actions">
          <Link className="button primary" to={documentUrl}>
            Open the document
          </Link>
          <Link className="button secondary" to="/app/documents/new">
            Upload another document
          </Link>
        </div>
      </>
    );
  }

  const onChanged = (changed: Api.DocumentDetail) => loaded.setData({ detail: changed, fields });
  if (step === 'recipients') return <SetupRecipients detail={detail} onChanged={onChanged} />;
  return (
    <SetupReview detail={detail} fields={fields} onChanged={onChanged} onSent={props.onSent} />
  );
}
