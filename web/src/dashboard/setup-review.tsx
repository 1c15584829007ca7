import type * as Api from '../../../server/src/api-types.js';
import { AskFirstButton } from './ask-first.js';
import { call } from './dashboard-api.js';
import { DocumentExpiry } from './document-expiry.js';
import { DraftSettings } from './document-edit.js';
import { nameList, unsignedQuestion } from './prepare-next.js';
import { signeesWithoutSignature } from './prepare-fields.js';
import { ROLE_NAMES } from './role-select.js';
import { Link, navigate } from './router.js';
import { setupUrl } from './setup-progress.js';
import { ErrorMessage, PageTitle } from './ui.js';
import { useSubmit } from './use-submit.js';

type Detail = Api.DocumentDetail;

/** What a recipient fills, in words: "3 fields (no signature field)", "no fields: approves". */
function fieldsOf(signee: Api.Signee, fields: Api.Field[]): string {
  if (signee.role === 'approver') return 'no fields: approves or rejects';
  if (signee.role === 'cc') return 'no fields: gets a copy';
  const own = fields.filter((f) => f.signeeId === signee.id);
  const count = `${own.length} ${own.length === 1 ? 'field' : 'fields'}`;
  return own.some((f) => f.type === 'signature') ? count : `${count} (no signature field)`;
}

/**
 * The review step: the recipients (role, order, fields each), the fields, the message,
 * language and expiry (changed here), and the one place of the flow that sends. Signers without
 * a signature field are named: with no fields at all sending asks first; with some it is
 * refused by the service, so the button waits for the fields to be put right.
 */
export function SetupReview(props: {
  detail: Detail;
  fields: Api.Field[];
  onChanged: (detail: Detail) => void;
  onSent: (result: Api.SendForSigningResult) => void;
}) {
  const { detail, fields } = props;
  const { document: doc, signees } = detail;
  const ordered = doc.signingOrderEnabled === true;
  const shown = ordered
    ? [...signees].sort((a, b) => (a.signingOrder ?? 1e9) - (b.signingOrder ?? 1e9))
    : signees;
  const signers = signees.filter((s) => s.role === 'signer');
  // Fields placed, yet a signer has no signature field: the service refuses to send.
  const refused = signeesWithoutSignature(fields, signees).map((s) => s.name);
  const noFields = fields.length === 0 ? signers.map((s) => s.name) : [];
  const send = useSubmit();
  const fieldsUrl = setupUrl(doc.id, 'fields');

  return (
    <>
      <PageTitle>{`Review and send: ${doc.name}`}</PageTitle>
      <section className="card" aria-labelledby="review-recipients">
        <h2 id="review-recipients">Recipients</h2>
        <ol className="plain-list review-list">
          {shown.map((s) => (
            <li key={s.id}>
              <strong>{s.name}</strong> <span className="break">{s.email}</span>
              <span className="block muted">
                {ROLE_NAMES[s.role]}
                {ordered ? ` · order ${s.signingOrder ?? 'none'}` : ''} · {fieldsOf(s, fields)}
              </span>
            </li>
          ))}
        </ol>
        <p className="muted">
          {ordered ? 'Invited one after another, by order number.' : 'All invited at once.'}{' '}
          <Link to={setupUrl(doc.id, 'recipients')}>Change recipients</Link>
        </p>
      </section>
      <section className="card" aria-labelledby="review-fields">
        <h2 id="review-fields">Fields</h2>
        <p>
          {fields.length === 0
            ? 'No fields placed.'
            : `${fields.length} ${fields.length === 1 ? 'field' : 'fields'} placed on the pages.`}{' '}
          <Link to={fieldsUrl}>Change fields</Link>
        </p>
        {noFields.length > 0 && (
          <p className="warning-text" id="review-warning">
            No signature field for {nameList(noFields)}: without fields, they sign on a page added
            at the end.
          </p>
        )}
        {refused.length > 0 && (
          <p className="form-error" id="review-warning">
            Sending is refused until every signer has a signature field: {nameList(refused)}{' '}
            {refused.length === 1 ? 'has' : 'have'} none. <Link to={fieldsUrl}>Add one</Link>.
          </p>
        )}
      </section>
      <DraftSettings detail={detail} onChanged={props.onChanged} title="Message and language" />
      <section className="card" aria-labelledby="review-expiry">
        <h2 id="review-expiry">Expiry</h2>
        <dl className="facts">
          <DocumentExpiry document={doc} onChanged={props.onChanged} />
        </dl>
      </section>
      <section className="card" aria-labelledby="review-send">
        <h2 id="review-send">Send</h2>
        <p>
          Sending e-mails an invitation to each recipient whose turn it is. After that the document,
          its recipients and its fields can no longer change.
        </p>
        <div className="setup-actions">
          <AskFirstButton
            label={send.busy ? 'Sending…' : 'Send for signing'}
            className="button primary"
            disabled={send.busy || refused.length > 0 || signers.length === 0}
            describedBy={noFields.length > 0 || refused.length > 0 ? 'review-warning' : undefined}
            question={unsignedQuestion(noFields, 0, 'Send anyway?')}
            goLabel="Send anyway"
            stayLabel="Keep editing"
            onGo={() =>
              void send.submit(async () => {
                const result = await call('POST /api/documents/{documentId}/send-for-signing', {
                  params: { documentId: doc.id },
                });
                props.onSent(result);
                navigate(setupUrl(doc.id, 'send'));
              })
            }
          />
          <Link to={`/app/documents/${doc.id}`}>Finish later</Link>
        </div>
        <ErrorMessage error={send.message} />
        {send.errors.length > 0 && (
          <div className="form-error" role="alert">
            <p>
              <strong>Not sent:</strong> nothing was sent and no credits were used.
            </p>
            <ul>
              {send.errors.map((e) => (
                <li key={e.path}>{e.message}</li>
              ))}
            </ul>
          </div>
        )}
      </section>
    </>
  );
}
