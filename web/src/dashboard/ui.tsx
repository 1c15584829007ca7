import {
  useEffect,
  useId,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { formatDateTime } from '../../../server/src/i18n/dates.js';
import type { ApiError } from '../shared/http.js';

/**
 * The page's h1, focused on arrival so screen readers announce the new view after a client-side
 * navigation, and the document title to match.
 */
export function PageTitle(props: { children: string; actions?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.children} · Signet`;
    ref.current?.focus({ preventScroll: true });
  }, [props.children]);
  return (
    <div className="page-head">
      <h1 ref={ref} tabIndex={-1}>
        {props.children}
      </h1>
      {props.actions && <div className="button-row">{props.actions}</div>}
    </div>
  );
}

/** What a labelled field gives its control: its id, and its error and hint tied to it. */
export type ControlProps = {
  id: string;
  className: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/**
 * A label, an optional hint, the control and its error: the control gets the id, the `invalid`
 * class and the aria attributes that tie the hint and the error to it.
 */
export function Field(props: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const { id, hint, error } = props;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return (
    <div className={props.className ?? 'field'}>
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      {hint && (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {props.children({
        id,
        className: `text-input${error ? ' invalid' : ''}`,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described.length > 0 ? described.join(' ') : undefined,
      })}
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

/** A labelled text field with its hint and error tied to it by aria-describedby. */
export function TextField(
  props: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: string },
) {
  const { label, error, hint, className, ...input } = props;
  const id = useId();
  return (
    <Field id={id} label={label} hint={hint} error={error} className={`field ${className ?? ''}`}>
      {(control) => <input {...input} {...control} />}
    </Field>
  );
}

/**
 * A labelled dropdown of `options`, with an error; `empty` (when given) is a first choice whose
 * value is ''. `id` defaults to a generated one.
 */
export function SelectField<T extends string>(props: {
  label: string;
  value: T | '';
  options: readonly { value: T; label: string }[];
  onChange: (value: T | '') => void;
  empty?: string;
  error?: string;
  id?: string;
}) {
  const generated = useId();
  return (
    <Field id={props.id ?? generated} label={props.label} error={props.error}>
      {(control) => (
        <select
          {...control}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value as T | '')}
        >
          {props.empty !== undefined && <option value="">{props.empty}</option>}
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A list page's search box and its Search button. */
export function SearchForm(props: {
  value: string;
  onChange: (value: string) => void;
  onSearch: () => void;
  placeholder: string;
  accessibleLabel: string;
}) {
  return (
    <form
      role="search"
      className="search-form"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSearch();
      }}
    >
      <label className="field inline">
        <span className="field-label">Search</span>
        <input
          type="search"
          className="text-input compact"
          placeholder={props.placeholder}
          aria-label={props.accessibleLabel}
          maxLength={200}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      </label>
      <button type="submit" className="button secondary small">
        Search
      </button>
    </form>
  );
}

/** An error box announced when it appears. */
export function ErrorMessage(props: { error: ApiError | string | null }) {
  if (!props.error) return null;
  const text = typeof props.error === 'string' ? props.error : props.error.message;
  return (
    <p className="form-error" role="alert">
      {text}
    </p>
  );
}

/**
 * A list with nothing in it (yet): a title, one sentence on what goes here, and exactly one next
 * action (a link or a button). On its own card, or `inCard` inside a card that has a heading,
 * where its title is an h3.
 */
export function EmptyState(props: {
  title: string;
  children: ReactNode;
  action: ReactNode;
  inCard?: boolean;
  testId?: string;
}) {
  const id = useId();
  const Heading = props.inCard ? 'h3' : 'h2';
  return (
    <section
      className={props.inCard ? 'empty-state' : 'card empty-state'}
      aria-labelledby={id}
      data-testid={props.testId ?? 'empty-state'}
    >
      <Heading id={id}>{props.title}</Heading>
      <p className="empty-state-text">{props.children}</p>
      <div className="empty-state-action">{props.action}</div>
    </section>
  );
}

/** A status line announced politely (saved, copied, sent…). */
export function StatusMessage(props: { children: ReactNode }) {
  return (
    <p className="status-message" role="status">
      {props.children}
    </p>
  );
}

/**
 * A destructive button that asks first, in the page rather than a browser dialog, so the
 * question is announced and reachable by keyboard like everything else.
 */
export function ConfirmButton(props: {
  label: string;
  /** The button's accessible name when the visible label alone is ambiguous in a list. */
  accessibleLabel?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<void> | void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        className="button secondary small"
        disabled={props.disabled}
        aria-label={props.accessibleLabel}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={props.question}>
      <span className="confirm-question">{props.question}</span>
      <button
        ref={confirmRef}
        type="button"
        className="button danger small"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await props.onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {props.confirmLabel}
      </button>
      <button type="button" className="button secondary small" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}

/** A secret shown exactly once, with a copy button and the warning that it will not come back. */
export function SecretOnce(props: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const id = useId();
  return (
    <section className="secret-once" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{props.label}</h2>
      <p className="warning-text">
        Copy it now: this is the only time Signet shows it. Only a hash is stored, so it cannot be
        shown again.
      </p>
      <div className="secret-row">
        <input
          className="text-input mono"
          readOnly
          value={props.secret}
          aria-label={props.label}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className="button primary"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(props.secret);
              setCopied('yes');
            } catch {
              setCopied('failed');
            }
          }}
        >
          Copy
        </button>
      </div>
      {copied === 'yes' && <StatusMessage>Copied to the clipboard.</StatusMessage>}
      {copied === 'failed' && (
        <StatusMessage>
          Copying is blocked here: select the text and copy it yourself.
        </StatusMessage>
      )}
      <button type="button" className="button secondary small" onClick={props.onDone}>
        I have saved it
      </button>
    </section>
  );
}

// The browser's time zone, named with every time shown (docs/dashboard.md): read once.
const READER_TIME_ZONE = new Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * A date and time as the dashboard writes them (the English rule of dates.ts, in the reader's
 * time zone, named), with the exact instant in the machine-readable attribute.
 */
export function Time(props: { value: string | null; empty?: string }) {
  if (!props.value) return <span className="muted">{props.empty ?? '—'}</span>;
  return <time dateTime={props.value}>{formatDateTime(props.value, 'en', READER_TIME_ZONE)}</time>;
}

/** A coloured status pill; the text carries the meaning, the colour only repeats it. */
export function StatusBadge(props: { status: string }) {
  return <span className={`badge badge-${props.status}`}>{props.status.replace(/_/g, ' ')}</span>;
}

/** The "Load more" button under a list with a next page; shows that it is loading. */
export function LoadMore(props: { loading: boolean; onClick: () => Promise<void> | void }) {
  return (
    <div className="button-row pager">
      <button
        type="button"
        className="button secondary"
        disabled={props.loading}
        onClick={() => void props.onClick()}
      >
        {props.loading ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
