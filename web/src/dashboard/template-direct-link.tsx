import { useState } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { asApiError } from './api.js';
import { call } from './dashboard-api.js';
import { useSession } from './session.js';
import { ConfirmButton, ErrorMessage, StatusMessage } from './ui.js';

/**
 * A template's direct link: a public address where anyone enters a name and e-mail and signs
 * for its one role. Owners and admins enable, copy and disable it (each use costs a credit of
 * the tenant); members see it.
 */
export function DirectLinkSection(props: {
  template: Api.Template;
  onChanged: (detail: Api.TemplateWithFields) => void;
}) {
  const { template } = props;
  const { tenant } = useSession();
  const canPublish = tenant !== null && tenant.role !== 'member';
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { enabled, url } = template.directLink;
  const oneRole = template.roles.length === 1;

  async function set(enable: boolean) {
    setBusy(true);
    setFailure(null);
    setNotice(null);
    try {
      const result = await call('PATCH /api/templates/{templateId}', {
        params: { templateId: template.id },
        json: { directLink: { enabled: enable } },
      });
      props.onChanged(result);
      setNotice(
        enable
          ? 'The direct link is on: anyone with it can sign.'
          : 'The direct link is off: it now says it has been disabled.',
      );
    } catch (err) {
      const e = asApiError(err);
      const detail = e.fieldErrors.map((f) => f.message).join(' ');
      setFailure(`${enable ? 'Enabling' : 'Disabling'} failed: ${detail || e.message}`);
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setNotice('Link copied to the clipboard.');
    } catch {
      setNotice('Copying is blocked here: select the link and copy it yourself.');
    }
  }

  return (
    <section className="card" aria-labelledby="direct-link">
      <h2 id="direct-link">Direct link</h2>
      <p className="field-hint">
        A public address for this template: whoever opens it enters their name and e-mail and signs
        at once. Each use makes a document and costs one credit.
      </p>
      {enabled && url && (
        <div className="secret-row">
          <input
            className="text-input mono"
            readOnly
            value={url}
            aria-label="Direct link address"
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="button secondary" onClick={() => void copy()}>
            Copy link
          </button>
        </div>
      )}
      {!enabled && !oneRole && (
        <p className="muted">
          A direct link needs a template with exactly one role; this one has {template.roles.length}
          .
        </p>
      )}
      {canPublish ? (
        <div className="button-row">
          {enabled ? (
            <ConfirmButton
              label="Disable"
              question="Disable the link? Whoever opens it is told it no longer works."
              confirmLabel="Yes, disable"
              disabled={busy}
              onConfirm={() => set(false)}
            />
          ) : (
            <button
              type="button"
              className="button primary"
              disabled={busy || !oneRole}
              onClick={() => void set(true)}
            >
              Enable
            </button>
          )}
        </div>
      ) : (
        <p className="muted">
          {enabled ? 'The direct link is on.' : 'The direct link is off.'} Only owners and admins of
          the workspace can turn it on or off.
        </p>
      )}
      {notice && <StatusMessage>{notice}</StatusMessage>}
      <ErrorMessage error={failure} />
    </section>
  );
}
