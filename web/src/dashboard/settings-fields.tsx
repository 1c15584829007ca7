import type { FieldError } from '../shared/http.js';
import { fieldError } from './api.js';
import { LANGUAGES } from './settings-section.js';
import type { EmailLanguage } from './types.js';
import { Field, SelectField, TextField } from './ui.js';

/** The settings a draft and a template share, as the API holds them. */
export type SavedSettings = {
  name: string;
  signingMessage: string | null;
  emailLanguage: string;
  signingOrderEnabled?: boolean | null;
};

/** The same settings as the form holds them. */
export type SettingsValues = {
  name: string;
  message: string;
  language: EmailLanguage;
  ordered: boolean;
};

/** The 422 paths the settings fields show next to themselves. */
export const SETTINGS_PATHS = ['name', 'signingMessage', 'emailLanguage', 'signingOrderEnabled'];

/** The form's starting values: what is saved. */
export function settingsValues(saved: SavedSettings): SettingsValues {
  return {
    name: saved.name,
    message: saved.signingMessage ?? '',
    language: saved.emailLanguage as EmailLanguage,
    ordered: saved.signingOrderEnabled === true,
  };
}

/**
 * Only what the form changed, for a PATCH: a setting left alone keeps its value (an unset
 * signing order stays unset rather than becoming false); an empty message is none.
 */
export function settingsChanges(saved: SavedSettings, values: SettingsValues) {
  const { name, language, ordered } = values;
  const signingMessage = values.message.trim() === '' ? null : values.message;
  return {
    ...(name !== saved.name ? { name } : {}),
    ...(signingMessage !== saved.signingMessage ? { signingMessage } : {}),
    ...(language !== saved.emailLanguage ? { emailLanguage: language } : {}),
    ...(ordered !== (saved.signingOrderEnabled === true) ? { signingOrderEnabled: ordered } : {}),
  };
}

/**
 * The name, message, e-mail language and signing order inputs of a draft's or a template's
 * settings; the words that differ between the two come in `words`.
 */
export function SettingsFields(props: {
  values: SettingsValues;
  onChange: (values: SettingsValues) => void;
  errors: FieldError[];
  words: {
    nameLabel: string;
    messageId: string;
    messageHint: string;
    languageId: string;
    orderHint: string;
  };
}) {
  const { values, onChange, errors, words } = props;
  const messageError = fieldError(errors, 'signingMessage', 'Message to the signees');
  return (
    <>
      <TextField
        label={words.nameLabel}
        value={values.name}
        maxLength={255}
        onChange={(e) => onChange({ ...values, name: e.target.value })}
        error={fieldError(errors, 'name', words.nameLabel)}
      />
      <Field
        id={words.messageId}
        label="Message to the signees"
        hint={words.messageHint}
        error={messageError}
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            maxLength={5000}
            value={values.message}
            onChange={(e) => onChange({ ...values, message: e.target.value })}
          />
        )}
      </Field>
      <SelectField
        id={words.languageId}
        label="E-mail language"
        value={values.language}
        options={LANGUAGES}
        onChange={(language) => onChange({ ...values, language: language as EmailLanguage })}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={values.ordered}
          onChange={(e) => onChange({ ...values, ordered: e.target.checked })}
        />
        <span>
          Signing order
          <span className="field-hint block">{words.orderHint}</span>
        </span>
      </label>
    </>
  );
}
