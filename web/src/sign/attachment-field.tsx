import { useRef, useState, type CSSProperties } from 'react';
import { ApiError } from '../shared/http.js';
import type { FieldFilling, SigningField } from './field-filling.js';
import { format, useSpeech } from './i18n.js';
import { tokenFromPath, uploadAttachment } from './signing-api.js';

/** The largest file the service takes for an attachment field (decisions §15). */
const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const ACCEPT = 'application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg';

/**
 * An attachment field on the page: a button (reached and pressed by keyboard like any other)
 * that opens the file picker; the chosen file is uploaded at once and its id becomes the
 * field's value, its name what the box shows. A refusal is said next to the box.
 */
export function AttachmentField(props: {
  field: SigningField;
  name: string;
  className: string;
  style: CSSProperties;
  filling: FieldFilling;
  disabled: boolean;
}) {
  const { field: f, name, className, style, filling, disabled } = props;
  const { t } = useSpeech();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileName = filling.fileNames[f.id];
  const errorId = `attachment-error-${f.id}`;

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_ATTACHMENT_BYTES) return setError(t.attachTooLarge);
    // The link's token is the page's own path (/sign/{token}): the field needs nothing else.
    const token = tokenFromPath(window.location.pathname);
    if (!token) return;
    setBusy(true);
    try {
      const { attachmentId } = await uploadAttachment(token, file, f.id);
      filling.setFileName(f.id, file.name);
      filling.setValue(f.id, attachmentId);
    } catch (err) {
      const reason = err instanceof ApiError ? err.message : String(err);
      setError(
        err instanceof ApiError && err.status === 413
          ? t.attachTooLarge
          : format(t.attachRefused, { reason }),
      );
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <>
      <button
        type="button"
        className={`${className} field-attachment-button`}
        style={style}
        aria-label={`${name}: ${fileName ? format(t.attachedName, { name: fileName }) : t.attachFile}`}
        aria-describedby={error ? errorId : undefined}
        aria-busy={busy || undefined}
        disabled={disabled || busy}
        onClick={() => input.current?.click()}
        data-field-id={f.id}
        data-field-type={f.type}
      >
        <span className="field-attachment-text">
          {busy ? t.attaching : fileName ? `📎 ${fileName}` : t.attachFile}
        </span>
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid={`attachment-input-${f.id}`}
        onChange={(e) => void choose(e.target.files?.[0])}
      />
      {error && (
        <span
          className="field-attachment-error"
          id={errorId}
          role="alert"
          style={{ left: style.left, top: `calc(${String(style.top)} + ${String(style.height)})` }}
        >
          {error}
        </span>
      )}
    </>
  );
}
