import { call } from './dashboard-api.js';
import { useEffect, useState, type FormEvent } from 'react';
import { fieldError, otherErrors } from './api.js';
import type { EmailLanguage, Tenant, TenantSettings } from './types.js';
import {
  readReminders,
  reminderErrors,
  ReminderInputs,
  reminderTexts,
  type ReadReminders,
  type ReminderTexts,
} from './reminder-inputs.js';
import { ErrorMessage, StatusMessage, TextField } from './ui.js';
import { useLoad } from './use-load.js';
import { useSubmit } from './use-submit.js';
import { WebhookEventChoices, webhookEventsError } from './webhook-event-choices.js';

// The settings this form shows next to their input; a 422 at any other path shows under the form.
const FORM_PATHS = [
  'emailLanguage',
  'reminderCooldownMinutes',
  'expiryDays',
  'invitationEmails',
  'signeeEvents',
  'reminderFirstAfterDays',
  'reminderEveryDays',
  'reminderMax',
];

// The API's property for each of the reminder inputs.
const REMINDER_PATHS = {
  first: 'reminderFirstAfterDays',
  every: 'reminderEveryDays',
  max: 'reminderMax',
};

/**
 * The default expiry as typed, for the PATCH: empty is none (null), a number goes as it is so
 * the service's own rule (whole days, 1 to 3650) explains a bad one; anything else is no number.
 */
function expiryDaysOf(text: string): number | null | 'not a number' {
  if (text.trim() === '') return null;
  const days = Number(text);
  return Number.isFinite(days) ? days : 'not a number';
}

/** The e-mail languages, as offered in settings and a draft's editor. */
export const LANGUAGES: { value: EmailLanguage; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'de', label: 'Deutsch' },
  { value: 'fr', label: 'Français' },
  { value: 'es', label: 'Español' },
  { value: 'nl', label: 'Nederlands' },
  { value: 'pt', label: 'Português' },
  { value: 'it', label: 'Italiano' },
  { value: 'pl', label: 'Polski' },
  { value: 'ja', label: '日本語' },
  { value: 'zh', label: '简体中文' },
  { value: 'ko', label: '한국어' },
  { value: 'ar', label: 'العربية' },
];

/** A tenant's settings; owners and admins may change them, members only read them. */
export function SettingsSection(props: { tenant: Tenant }) {
  const { tenant } = props;
  const canEdit = tenant.role !== 'member';
  const loaded = useLoad(
    async () =>
      (await call('GET /api/tenants/{tenantId}/settings', { params: { tenantId: tenant.id } }))
        .settings,
    [tenant.id],
  );
  const [form, setForm] = useState<TenantSettings | null>(null);
  const [cooldown, setCooldown] = useState('');
  const [expiry, setExpiry] = useState('');
  const [expiryTyped, setExpiryTyped] = useState(false);
  const [reminders, setReminders] = useState<ReminderTexts>(reminderTexts(null, null, null));
  const [remindersRead, setRemindersRead] = useState<ReadReminders | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useSubmit();
  const languageError = fieldError(save.errors, 'emailLanguage', 'E-mail language');
  useEffect(() => {
    if (loaded.data) {
      setForm(loaded.data);
      setCooldown(String(loaded.data.reminderCooldownMinutes));
      setExpiry(loaded.data.expiryDays === null ? '' : String(loaded.data.expiryDays));
      const { reminderFirstAfterDays, reminderEveryDays, reminderMax } = loaded.data;
      setReminders(reminderTexts(reminderFirstAfterDays, reminderEveryDays, reminderMax));
    }
  }, [loaded.data]);

  function onSave(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    setSaved(false);
    const expiryDays = expiryDaysOf(expiry);
    setExpiryTyped(expiryDays === 'not a number');
    const read = readReminders(reminders);
    setRemindersRead(read);
    if (expiryDays === 'not a number' || read.notNumbers.length > 0) return;
    void save.submit(async () => {
      const minutes = cooldown.trim() === '' ? Number.NaN : Number(cooldown);
      const result = await call('PATCH /api/tenants/{tenantId}/settings', {
        params: { tenantId: tenant.id },
        json: {
          emailLanguage: form.emailLanguage,
          invitationEmails: form.invitationEmails,
          signeeEvents: form.signeeEvents,
          // Sent as typed so the service's own rule explains a bad value next to the field.
          reminderCooldownMinutes: Number.isFinite(minutes) ? minutes : cooldown,
          expiryDays,
          webhookEvents: form.webhookEvents,
          reminderFirstAfterDays: read.first,
          reminderEveryDays: read.every,
          // Empty is the service's default, as a document's own policy has it.
          reminderMax: read.max ?? 3,
        },
      });
      loaded.setData(result.settings);
      setSaved(true);
    });
  }

  return (
    <section className="card" aria-labelledby="tenant-settings">
      <h2 id="tenant-settings">Settings</h2>
      {!canEdit && <p className="field-hint">Only owners and admins can change settings.</p>}
      <ErrorMessage error={loaded.error} />
      {form && (
        <form className="form" onSubmit={onSave} noValidate>
          <fieldset className="plain" disabled={!canEdit}>
            <div className="field">
              <label className="field-label" htmlFor="email-language">
                E-mail language
              </label>
              <span className="field-hint" id="email-language-hint">
                The language of invitations and reminders.
              </span>
              <select
                id="email-language"
                className={`text-input${languageError ? ' invalid' : ''}`}
                aria-invalid={languageError ? true : undefined}
                aria-describedby={`email-language-hint${languageError ? ' email-language-error' : ''}`}
                value={form.emailLanguage}
                onChange={(e) =>
                  setForm({ ...form, emailLanguage: e.target.value as EmailLanguage })
                }
              >
                {LANGUAGES.map((l) => (
                  <option key={l.value} value={l.value}>
                    {l.label}
                  </option>
                ))}
              </select>
              {languageError && (
                <span className="field-error" id="email-language-error">
                  {languageError}
                </span>
              )}
            </div>
            <label className="check">
              <input
                type="checkbox"
                checked={form.invitationEmails}
                onChange={(e) => setForm({ ...form, invitationEmails: e.target.checked })}
              />
              <span>
                Invitation e-mails
                <span className="field-hint block">
                  Off: Signet sends no invitations; you deliver the signing links that sending
                  returns.
                </span>
              </span>
            </label>
            <label className="check">
              <input
                type="checkbox"
                // Naming signee.status_changed in webhookEvents opts in as well: unticked is both off.
                checked={form.signeeEvents || form.webhookEvents.includes('signee.status_changed')}
                onChange={(e) =>
                  setForm({
                    ...form,
                    signeeEvents: e.target.checked,
                    webhookEvents: e.target.checked
                      ? form.webhookEvents
                      : form.webhookEvents.filter((n) => n !== 'signee.status_changed'),
                  })
                }
              />
              <span>
                Signee events
                <span className="field-hint block">
                  Also send <code>signee.status_changed</code> to webhooks.
                </span>
              </span>
            </label>
            <TextField
              label="Reminder cooldown (minutes)"
              inputMode="numeric"
              value={cooldown}
              onChange={(e) => setCooldown(e.target.value)}
              error={fieldError(save.errors, 'reminderCooldownMinutes')}
            />
            <TextField
              label="Default expiry (days)"
              hint="A document still unsigned this many days after sending is cancelled, unless it has its own expiry. Empty: no expiry."
              inputMode="numeric"
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              error={
                expiryTyped
                  ? 'Default expiry must be a whole number of days, like 30.'
                  : fieldError(save.errors, 'expiryDays', 'Default expiry')
              }
            />
            <ReminderInputs
              legend="Automatic reminders"
              hintId="reminder-defaults-hint"
              hint="For documents sent without their own, counted from each signee’s invitation. Both days empty: none; at most 1 to 10, empty: 3."
              value={reminders}
              onChange={setReminders}
              errors={reminderErrors(remindersRead, save.errors, REMINDER_PATHS)}
            />
            <WebhookEventChoices
              value={form.webhookEvents}
              onChange={(webhookEvents) => setForm({ ...form, webhookEvents })}
              error={webhookEventsError(save.errors)}
            />
            {canEdit && (
              <button type="submit" className="button primary" disabled={save.busy}>
                Save settings
              </button>
            )}
          </fieldset>
          <ErrorMessage error={save.message} />
          {otherErrors(
            save.errors.filter((e) => !webhookEventsError([e])),
            FORM_PATHS,
          ).map((e) => (
            <ErrorMessage key={e.path} error={e.message} />
          ))}
          {saved && <StatusMessage>Settings saved.</StatusMessage>}
        </form>
      )}
    </section>
  );
}
