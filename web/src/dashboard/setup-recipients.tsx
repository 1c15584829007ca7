import type * as Api from '../../../server/src/api-types.js';
import { call } from './dashboard-api.js';
import { DraftSignees } from './document-edit.js';
import { Link } from './router.js';
import { setupUrl } from './setup-progress.js';
import { ErrorMessage, PageTitle } from './ui.js';
import { useSubmit } from './use-submit.js';

type Detail = Api.DocumentDetail;

/**
 * The recipients step: whether they sign in order, and each recipient (name, e-mail, order
 * number, role) changed, removed or added through the draft's signee API at once.
 */
export function SetupRecipients(props: { detail: Detail; onChanged: (detail: Detail) => void }) {
  const doc = props.detail.document;
  const signers = props.detail.signees.filter((s) => s.role === 'signer');
  return (
    <>
      <PageTitle>{`Recipients: ${doc.name}`}</PageTitle>
      <SigningOrder detail={props.detail} onChanged={props.onChanged} />
      <DraftSignees detail={props.detail} onChanged={props.onChanged} />
      {signers.length === 0 && (
        <p className="warning-text">
          No recipient signs: add a signer, or make one of these a signer, for a document to be
          signed.
        </p>
      )}
      <div className="setup-actions">
        <Link className="button primary" to={setupUrl(doc.id, 'fields')}>
          Continue to fields
        </Link>
        <Link to={`/app/documents/${doc.id}`}>Finish later</Link>
      </div>
    </>
  );
}

// The signing order on or off, saved as soon as it is changed.
function SigningOrder(props: { detail: Detail; onChanged: (detail: Detail) => void }) {
  const doc = props.detail.document;
  const save = useSubmit();
  return (
    <section className="card" aria-labelledby="signing-order">
      <h2 id="signing-order">Signing order</h2>
      <label className="check">
        <input
          type="checkbox"
          checked={doc.signingOrderEnabled === true}
          disabled={save.busy}
          onChange={(e) => {
            const signingOrderEnabled = e.target.checked;
            void save.submit(async () => {
              props.onChanged(
                await call('PATCH /api/documents/{documentId}', {
                  params: { documentId: doc.id },
                  json: { signingOrderEnabled },
                }),
              );
            });
          }}
        />
        <span>
          Invite the recipients one after another
          <span className="field-hint block">
            Each recipient then has an order number: the lowest are invited first, equal numbers
            together, the next when they have all signed.
          </span>
        </span>
      </label>
      <ErrorMessage error={save.message ?? save.errors[0]?.message ?? null} />
    </section>
  );
}
