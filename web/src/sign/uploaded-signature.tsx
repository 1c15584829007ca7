import { useRef, useState } from 'react';
import { useSpeech } from './i18n.js';

/** The largest picture the service takes as an uploaded signature (decisions §15). */
const MAX_UPLOADED_BYTES = 1024 * 1024;

/**
 * `Upload`: a picture of the signee's signature (PNG or JPEG, at most 1 MiB), chosen with a
 * native file input (keyboard operable, labelled) and previewed; reported as a data URL, or
 * null while there is none. The service decodes and re-encodes it.
 */
export function UploadedSignature(props: {
  onChange: (image: string | null) => void;
  error: string | null;
  disabled: boolean;
}) {
  const { onChange, error, disabled } = props;
  const { t } = useSpeech();
  const [image, setImage] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const shown = problem ?? error;

  const choose = (file: File | undefined) => {
    setProblem(null);
    if (!file) return;
    const refuse = (message: string) => {
      setProblem(message);
      setImage(null);
      onChange(null);
    };
    if (!['image/png', 'image/jpeg'].includes(file.type)) return refuse(t.uploadWrongType);
    if (file.size > MAX_UPLOADED_BYTES) return refuse(t.uploadTooLarge);
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : null;
      setImage(url);
      onChange(url);
    };
    reader.readAsDataURL(file);
  };

  return (
    <div className="field">
      <label className="field-label" htmlFor="uploaded-signature">
        {t.uploadLabel}
      </label>
      <p className="field-hint" id="uploaded-signature-hint">
        {t.uploadHint}
      </p>
      <input
        ref={input}
        id="uploaded-signature"
        className="file-input"
        type="file"
        accept="image/png,image/jpeg"
        disabled={disabled}
        aria-invalid={shown ? true : undefined}
        aria-describedby={`uploaded-signature-hint${shown ? ' uploaded-signature-error' : ''}`}
        onChange={(e) => choose(e.target.files?.[0])}
      />
      {image && (
        <div className="signature-pad uploaded-preview">
          <img className="uploaded-signature-image" src={image} alt={t.yourSignature} />
          <span className="signature-line" aria-hidden="true" />
        </div>
      )}
      {shown && (
        <p className="field-error" id="uploaded-signature-error">
          {shown}
        </p>
      )}
    </div>
  );
}
