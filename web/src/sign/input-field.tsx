import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

/**
 * A labelled input of the signing page with its hint and error tied to it by aria-describedby;
 * `children` follow the error inside the field.
 */
export function InputField(
  props: Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> & {
    id: string;
    label: string;
    hint?: string;
    error?: string | null;
    inputRef?: Ref<HTMLInputElement>;
    children?: ReactNode;
  },
) {
  const { id, label, hint, error, inputRef, children, ...input } = props;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input
        {...input}
        ref={inputRef}
        id={id}
        className={`text-input${error ? ' invalid' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={described.length > 0 ? described.join(' ') : undefined}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {children}
    </div>
  );
}
