import type { SignetDocument } from './types.js';
import './workflow.css';

/**
 * What an integrator attached to a document, as facts of its page, each only when set: its own
 * id (`externalId`), its `metadata` (key and value per line) and the `redirectUrl` signees go to
 * after signing. Shown as text, not links: they are the integrator's, not Signet's.
 */
export function DocumentReferences(props: { document: SignetDocument }) {
  const { externalId, metadata, redirectUrl } = props.document;
  const pairs = Object.entries(metadata ?? {});
  return (
    <>
      {externalId !== null && (
        <div>
          <dt>External ID</dt>
          <dd className="mono break">{externalId}</dd>
        </div>
      )}
      {redirectUrl !== null && (
        <div className="wide">
          <dt>Redirect after signing</dt>
          <dd className="mono break">{redirectUrl}</dd>
        </div>
      )}
      {pairs.length > 0 && (
        <div className="wide">
          <dt>Metadata</dt>
          <dd>
            <dl className="metadata">
              {pairs.map(([key, value]) => (
                <div key={key}>
                  <dt className="mono">{key}</dt>
                  <dd className="break">{value}</dd>
                </div>
              ))}
            </dl>
          </dd>
        </div>
      )}
    </>
  );
}
