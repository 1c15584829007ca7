import { call } from './dashboard-api.js';
import { useEffect, useState, type FormEvent } from 'react';
import { fieldError } from './api.js';
import type { EmailLanguage, Tenant, TenantSettings } from './types.js';
import { ErrorMessage, StatusMessage, TextField } from './ui.js';
import { useLoad } from './use-load.js';
import { useSubmit } from './use-submit.js';

/** The e-mail languages, as offered in settings and a draft's editor. */
export const LANGUAGES: { value: EmailLanguage; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'de', label: 'Deutsch' },
  { value: 'fr', label: 'Français' },
  { value: 'es', label: 'Español' },
  { value: 'nl', label: 'Nederlands' },
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
  const [saved, setSaved] = useState(false);
  const save = useSubmit();
  const languageError = fieldError(save.errors, 'emailLanguage', 'E-mail language');
  useEffect(() => {
    if (loaded.data) {
      setForm(loaded.data);
      setCooldown(String(loaded.data.reminderCooldownMinutes));
    }
  }, [loaded.data]);

  function onSave(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    setSaved(false);
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
                checked={form.signeeEvents}
                onChange={(e) => setForm({ ...form, signeeEvents: e.target.checked })}
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
            {canEdit && (
              <button type="submit" className="button primary" disabled={save.busy}>
                Save settings
              </button>
            )}
          </fieldset>
          <ErrorMessage error={save.message} />
          {saved && <StatusMessage>Settings saved.</StatusMessage>}
        </form>
      )}
    </section>
  );
}
