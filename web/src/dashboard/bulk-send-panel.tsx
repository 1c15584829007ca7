import { useState, type FormEvent } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import type { FieldError } from '../shared/http.js';
import { asApiError } from './api.js';
import { call } from './dashboard-api.js';
import { Link, navigate } from './router.js';
import { bulkCsvColumns, bulkCsvHeader, csvDataUrl } from './template-csv.js';
import { StatusBadge, Time } from './ui.js';
import { useLoad } from './use-load.js';

/**
 * Bulk send: the CSV header for this template to download, a CSV file to upload
 * (`POST /api/templates/{id}/bulk-sends`, part `csv`), then the bulk send's progress page; and
 * the template's earlier bulk sends.
 */
export function BulkSendPanel(props: { template: Api.Template; fields: Api.TemplateField[] }) {
  const { template, fields } = props;
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; problems: string[] } | null>(null);
  const history = useLoad(
    () =>
      call('GET /api/templates/{templateId}/bulk-sends', { params: { templateId: template.id } }),
    [template.id],
  );
  const columns = bulkCsvColumns(template.roles, fields);
  const fileName = `${template.name.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'template'} bulk send.csv`;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    if (!file) {
      setRefusal({ message: 'Choose a CSV file first.', problems: [] });
      return;
    }
    setBusy(true);
    try {
      const form = new FormData();
      form.append('csv', file, file.name);
      const { bulkSend } = await call('POST /api/templates/{templateId}/bulk-sends', {
        params: { templateId: template.id },
        form,
      });
      navigate(`/app/bulk-sends/${bulkSend.id}`);
    } catch (err) {
      const e = asApiError(err);
      setRefusal({
        message: `Nothing was sent: ${e.message.replace(/[.\s]*$/, '.')}`,
        problems: e.fieldErrors.map(describeProblem),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="bulk-send">
      <h2 id="bulk-send">Bulk send</h2>
      <p className="field-hint">
        One document per row of a CSV file, each sent for signing at once: up to 10,000 rows. The
        whole file is checked first; a row with a mistake (such as an invalid e-mail) is skipped and
        listed, the others go out.
      </p>
      <details className="csv-columns">
        <summary>The CSV’s columns</summary>
        <ul>
          {template.roles.map((r) => (
            <li key={r.id}>
              <code>{r.name}.name</code>, <code>{r.name}.email</code>: who signs as {r.name}{' '}
              (required); <code>{r.name}.language</code>: their e-mail language (en, de, fr, es, nl,
              pt, it, pl, ja, zh, ko, ar; optional)
            </li>
          ))}
          <li>
            <code>externalId</code>: your own reference for the document (optional)
          </li>
          {columns.slice(template.roles.length * 3 + 1).map((label) => (
            <li key={label}>
              <code>{label}</code>: the value of the field with this label (optional)
            </li>
          ))}
        </ul>
      </details>
      <div className="button-row">
        <a
          className="button secondary"
          href={csvDataUrl(bulkCsvHeader(template.roles, fields))}
          download={fileName}
        >
          Download CSV header
        </a>
      </div>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="field">
          <label className="field-label" htmlFor="bulk-csv">
            CSV file
          </label>
          <span className="field-hint" id="bulk-csv-hint">
            Comma- or semicolon-separated, UTF-8, the header in the first line.
          </span>
          <input
            id="bulk-csv"
            type="file"
            accept=".csv,text/csv"
            className={`text-input${refusal ? ' invalid' : ''}`}
            aria-describedby="bulk-csv-hint"
            aria-invalid={refusal ? true : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setRefusal(null);
            }}
          />
        </div>
        {refusal && (
          <div className="form-error" role="alert">
            <p>{refusal.message}</p>
            {refusal.problems.length > 0 && (
              <ul>
                {refusal.problems.map((p, i) => (
                  <li key={i}>{p}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <div className="button-row">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Starting…' : 'Start bulk send'}
          </button>
        </div>
      </form>
      {history.data && history.data.bulkSends.length > 0 && (
        <>
          <h3>Earlier bulk sends</h3>
          <ul className="plain-list">
            {history.data.bulkSends.map((b) => (
              <li key={b.id}>
                <Link to={`/app/bulk-sends/${b.id}`}>
                  <Time value={b.createdAt} />
                </Link>{' '}
                <StatusBadge status={b.status} /> {b.created} of {b.total} created
                {b.failed > 0 ? `, ${b.failed} failed` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

// A problem of a refused file in words: `csv.header.Client.emial` is about that column.
function describeProblem(e: FieldError): string {
  const path = e.path.replace(/^body\./, '');
  const message = e.message.replace(/[.\s]*$/, '.');
  const capital = message.charAt(0).toUpperCase() + message.slice(1);
  // A missing column: the message names it already ("role Client needs a column Client.email").
  if (path.startsWith('csv.header.') && /needs a column/.test(message)) return capital;
  if (path.startsWith('csv.header.')) return `Column “${path.slice(11)}”: ${message}`;
  if (path === 'csv.header') return `Header: ${message}`;
  const row = /^(?:rows|csv)\.?\[?(\d+)\]?/.exec(path);
  if (row && path !== 'csv') return `Row ${row[1]}: ${message}`;
  return capital;
}
