import caveatUrl from '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf?url';
import { useEffect, type Ref } from 'react';
import { useSpeech } from './i18n.js';
import { InputField } from './input-field.js';

/** Longest typed signature the API accepts. */
export const MAX_TYPED_LENGTH = 200;

let fontRequested = false;

// The sealed PDF writes typed names in Caveat (server/src/modules/sealing/seal-fonts.ts); the
// preview uses the same file, served from our own origin like every other asset.
function loadScriptFont() {
  if (fontRequested || typeof FontFace === 'undefined') return;
  fontRequested = true;
  const face = new FontFace('Signet Script', `url(${caveatUrl})`, { display: 'swap' });
  document.fonts.add(face);
  face.load().catch(() => {
    // The preview falls back to a cursive system font; the signature itself is unaffected.
  });
}

/** The `Type your full name` text box with a preview of how the typed signature will look. */
export function TypedSignature(props: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  disabled: boolean;
  inputRef: Ref<HTMLInputElement>;
}) {
  const { value, onChange, error, disabled, inputRef } = props;
  const { t } = useSpeech();
  useEffect(loadScriptFont, []);
  return (
    <InputField
      inputRef={inputRef}
      id="typed-signature"
      label={t.typeFullName}
      error={error}
      type="text"
      autoComplete="name"
      spellCheck={false}
      maxLength={MAX_TYPED_LENGTH}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      <div className="typed-preview" aria-hidden="true">
        <span className={value.trim() ? 'typed-preview-text' : 'typed-preview-placeholder'}>
          {value.trim() || t.yourSignature}
        </span>
        <span className="signature-line" />
      </div>
    </InputField>
  );
}
