import { useId, useState, type FormEvent } from 'react';
import type { DocumentDetail } from '../../../server/src/api-types.js';
import { call } from './dashboard-api.js';
import { fieldError, otherErrors } from './api.js';
import {
  describeReminders,
  readReminders,
  reminderErrors,
  ReminderInputs,
  reminderTexts,
  type ReadReminders,
  type ReminderTexts,
} from './reminder-inputs.js';
import type { AuditEntry, SignetDocument } from './types.js';
import { ErrorMessage } from './ui.js';
import { useLoad } from './use-load.js';
import { useSubmit } from './use-submit.js';
import './workflow.css';

// The 422 paths of a PATCH's `reminders`, per input; `reminders` itself is the policy as a whole.
const PATHS = {
  first: 'reminders.firstAfterDays',
  every: 'reminders.everyDays',
  max: 'reminders.max',
};

/**
 * Whether a draft's reminders were turned off. A draft answers `reminders: null` both without its
 * own setting and with reminders off, so the latest PATCH of `reminders` in its trail tells.
 */
function turnedOff(entries: AuditEntry[] | null): boolean {
  const changes = (entries ?? []).flatMap((e) => {
    const changed = e.action === 'updated' ? e.details?.changed : undefined;
    return changed && typeof changed === 'object' && 'reminders' in changed
      ? [{ at: e.createdAt, off: (changed as { reminders: unknown }).reminders === null }]
      : [];
  });
  changes.sort((a, b) => a.at.localeCompare(b.at));
  return changes.at(-1)?.off ?? false;
}

/**
 * A document's automatic reminders as a fact of its page: the policy in words, "None", or in a
 * draft without its own "Tenant defaults when sent" with what those are now. While draft or in
 * process they can be set to custom values or turned off (`PATCH … {reminders}`); the service's
 * 422 shows at its input.
 */
export function DocumentReminders(props: {
  document: SignetDocument;
  entries: AuditEntry[] | null;
  onChanged: (detail: DocumentDetail) => void;
}) {
  const { document: doc } = props;
  const open = doc.status === 'draft' || doc.status === 'in_process';
  const [editing, setEditing] = useState(false);
  const [texts, setTexts] = useState<ReminderTexts>(reminderTexts(null, null, null));
  const [read, setRead] = useState<ReadReminders | null>(null);
  const [missing, setMissing] = useState(false);
  // Set when this page turned them off, before the trail reloads to say so.
  const [offHere, setOffHere] = useState(false);
  const save = useSubmit();
  const hintId = useId();
  const tenantDefaults =
    doc.status === 'draft' && doc.reminders === null && !offHere && !turnedOff(props.entries);
  const defaults = useLoad(async () => {
    if (!tenantDefaults) return null;
    const { settings } = await call('GET /api/tenants/{tenantId}/settings', {
      params: { tenantId: doc.tenantId },
    });
    const first = settings.reminderFirstAfterDays ?? settings.reminderEveryDays;
    if (first === null) return 'The workspace sets none at the moment.';
    const words = describeReminders({
      firstAfterDays: first,
      everyDays: settings.reminderEveryDays,
      max: settings.reminderMax,
    });
    return `The workspace’s now: ${words.charAt(0).toLowerCase()}${words.slice(1)}.`;
  }, [tenantDefaults, doc.tenantId]);

  const patch = (reminders: Record<string, number | null> | null) =>
    save.submit(async () => {
      const detail = await call('PATCH /api/documents/{documentId}', {
        params: { documentId: doc.id },
        json: { reminders },
      });
      setOffHere(reminders === null);
      setEditing(false);
      props.onChanged(detail);
    });

  function start() {
    const p = doc.reminders;
    setTexts(
      p ? reminderTexts(p.firstAfterDays, p.everyDays, p.max) : reminderTexts(null, null, 3),
    );
    setRead(null);
    setMissing(false);
    setEditing(true);
  }

  function onSave(event: FormEvent) {
    event.preventDefault();
    const typed = readReminders(texts);
    setRead(typed);
    const none = typed.first === null && typed.every === null && typed.notNumbers.length === 0;
    setMissing(none);
    if (none || typed.notNumbers.length > 0) return;
    void patch({
      ...(typed.first !== null && { firstAfterDays: typed.first }),
      everyDays: typed.every,
      ...(typed.max !== null && { max: typed.max }),
    });
  }

  const whole = missing
    ? 'Give the days until the first reminder, or turn the schedule off.'
    : fieldError(save.errors, 'reminders', 'Automatic reminders');
  const shown = doc.reminders
    ? describeReminders(doc.reminders)
    : tenantDefaults
      ? 'Workspace defaults when sent'
      : 'None';
  return (
    // Wide: the policy in words is a line, and the form's three inputs sit side by side.
    <div className="wide">
      <dt>Automatic reminders</dt>
      <dd className="expiry">
        <span data-testid="reminders">{shown}</span>
        {tenantDefaults && defaults.data && (
          <span className="field-hint block">{defaults.data}</span>
        )}
        {open && !editing && (
          <button type="button" className="button secondary small" onClick={start}>
            {doc.reminders || tenantDefaults ? 'Change schedule' : 'Set a schedule'}
          </button>
        )}
        {editing && (
          <form className="expiry-form reminders-form" onSubmit={onSave} noValidate>
            <ReminderInputs
              legend="This document’s reminders"
              hintId={hintId}
              hint="Counted from each signee’s invitation. Then every empty: one reminder only; at most 1 to 10, empty: 3."
              value={texts}
              onChange={setTexts}
              errors={reminderErrors(read, save.errors, PATHS)}
              error={whole}
            />
            <div className="button-row">
              <button type="submit" className="button primary small" disabled={save.busy}>
                Save schedule
              </button>
              {(doc.reminders || tenantDefaults) && (
                <button
                  type="button"
                  className="button secondary small"
                  disabled={save.busy}
                  onClick={() => void patch(null)}
                >
                  Turn schedule off
                </button>
              )}
              <button
                type="button"
                className="button secondary small"
                onClick={() => setEditing(false)}
              >
                Keep as is
              </button>
            </div>
          </form>
        )}
        <ErrorMessage error={save.message} />
        {otherErrors(save.errors, ['reminders', ...Object.values(PATHS)]).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
      </dd>
    </div>
  );
}
