import type { CSSProperties } from 'react';
import {
  fieldName,
  type FieldFilling,
  type FilledField,
  type Mark,
  type SigningField,
} from './field-filling.js';
import { format, useSpeech } from './i18n.js';
import { formatDate } from '../../../server/src/i18n/dates.js';
import { describeRule } from '../../../server/src/modules/fields/validation.js';
import { AttachmentField } from './attachment-field.js';

type PageSize = { width: number; height: number };

/** What the layer needs beyond the fields: the marks to show and what to do without one. */
export type FieldLayerProps = {
  filling: FieldFilling;
  others: FilledField[];
  pages: PageSize[];
  signee: { name: string; email: string };
  marks: { signature: Mark | null; initials: string };
  /** Called when a signature or initials field is clicked before there is a mark to apply. */
  onNeedMark: (kind: 'signature' | 'initials') => void;
  disabled: boolean;
};

const MAX_TEXT_VALUE = 1000;

// A box in percentages of its page, so it follows the page through every zoom level.
function place(
  f: { page: number; x: number; y: number; width: number; height: number },
  page: PageSize,
): CSSProperties {
  return {
    left: `${(f.x / page.width) * 100}%`,
    top: `${(f.y / page.height) * 100}%`,
    width: `${(f.width / page.width) * 100}%`,
    height: `${(f.height / page.height) * 100}%`,
  };
}

// Text about as high as the box allows, in CSS pixels at this zoom; never below readable.
const fontFor = (height: number, scale: number): CSSProperties => ({
  fontSize: `${Math.max(9, Math.min(height * 0.62, 16) * scale)}px`,
});

// The text a mark shows: a typed one's, none for a picture (its alt is the field's name).
const markText = (mark: Mark | string): string =>
  typeof mark === 'string' ? mark : mark.type === 'typed' ? mark.text : '';

function MarkView({ mark, alt }: { mark: Mark | string; alt: string }) {
  if (typeof mark === 'string') return <span className="field-mark-text">{mark}</span>;
  if (mark.type === 'typed') return <span className="field-mark-text">{mark.text}</span>;
  return <img className="field-mark-image" src={mark.image} alt={alt} />;
}

/** The fields of one page, over the drawn page: the signee's own as controls, others' values as text. */
export function FieldLayer(props: FieldLayerProps & { pageNumber: number; scale: number }) {
  const { filling, others, pages, signee, marks, pageNumber, scale, disabled } = props;
  const { t } = useSpeech();
  const page = pages[pageNumber - 1];
  if (!page) return null;
  const own = filling.fields.filter((f) => f.page === pageNumber && !filling.hidden.has(f.id));
  const filled = others.filter((f) => f.page === pageNumber);
  if (own.length === 0 && filled.length === 0) return null;
  return (
    <div className="field-layer">
      {filled.map((f) => (
        <span
          key={f.id}
          className="field-box field-other"
          style={{ ...place(f, page), ...fontFor(f.height, scale) }}
        >
          <span className="visually-hidden">
            {format(t.filledBy, { field: fieldName(f, t.fieldTypes), name: f.signeeName })}{' '}
          </span>
          {f.type === 'attachment'
            ? t.fieldTypes.attachment
            : f.type === 'checkbox'
              ? f.value
                ? '✓'
                : ''
              : f.value === 'drawn' || f.value === 'uploaded'
                ? format(t.signedBy, { name: f.signeeName })
                : String(f.value)}
        </span>
      ))}
      {own.map((f) => (
        <OwnField
          key={f.id}
          field={f}
          style={{ ...place(f, page), ...fontFor(f.height, scale) }}
          {...{ filling, signee, marks, disabled, onNeedMark: props.onNeedMark }}
        />
      ))}
    </div>
  );
}

function OwnField(props: {
  field: SigningField;
  style: CSSProperties;
  filling: FieldFilling;
  signee: { name: string; email: string };
  marks: { signature: Mark | null; initials: string };
  onNeedMark: (kind: 'signature' | 'initials') => void;
  disabled: boolean;
}) {
  const { field: f, style, filling, signee, marks, disabled } = props;
  const { t, language } = useSpeech();
  const name = fieldName(f, t.fieldTypes);
  const filled = filling.isFilled(f);
  const className = `field-box field-own field-${f.type}${filled ? ' filled' : ''}${f.required ? ' required' : ''}`;
  const common = { 'data-field-id': f.id, 'data-field-type': f.type };
  switch (f.type) {
    case 'signature':
    case 'initials': {
      const mark = f.type === 'signature' ? marks.signature : marks.initials.trim() || null;
      const applied = filling.applied.has(f.id);
      const prompt = f.type === 'signature' ? t.signHere : t.initialHere;
      return (
        <button
          type="button"
          className={className}
          style={style}
          // Named as shown: the field's name with its prompt ("Signature: Sign here") or the typed
          // mark it holds, so that a voice user saying what they see reaches it.
          aria-label={`${name}: ${applied && mark ? markText(mark) : prompt}`.replace(/: $/, '')}
          aria-pressed={applied}
          disabled={disabled}
          onClick={() => {
            // Without a mark yet the field stays chosen and shows it as soon as there is one.
            if (!mark) {
              if (!applied) filling.toggleApplied(f.id);
              props.onNeedMark(f.type === 'signature' ? 'signature' : 'initials');
            } else filling.toggleApplied(f.id);
          }}
          {...common}
        >
          {applied && mark ? (
            <MarkView mark={mark} alt={name} />
          ) : (
            <span className="field-prompt">{prompt}</span>
          )}
        </button>
      );
    }
    case 'date':
    case 'name':
    case 'email': {
      const value =
        f.type === 'date'
          ? // Today in UTC, as the seal draws the signing date (seal.job.ts): what is shown is sealed.
            formatDate(new Date().toISOString(), language)
          : f.type === 'name'
            ? signee.name
            : signee.email;
      return (
        <span className={className} style={style} {...common}>
          <span className="visually-hidden">{format(t.filledWhenSigning, { field: name })} </span>
          {value}
        </span>
      );
    }
    case 'checkbox':
      return (
        <span className={className} style={style} {...common}>
          <input
            type="checkbox"
            aria-label={name}
            aria-required={f.required || undefined}
            checked={filling.values[f.id] === true}
            disabled={disabled}
            onChange={(e) => filling.setValue(f.id, e.target.checked)}
          />
        </span>
      );
    case 'attachment':
      return (
        <AttachmentField
          field={f}
          name={name}
          className={className}
          style={style}
          filling={filling}
          disabled={disabled}
        />
      );
    case 'dropdown':
      return (
        <select
          className={className}
          style={style}
          aria-label={name}
          aria-required={f.required || undefined}
          value={typeof filling.values[f.id] === 'string' ? (filling.values[f.id] as string) : ''}
          disabled={disabled}
          onChange={(e) => filling.setValue(f.id, e.target.value)}
          {...common}
        >
          <option value="">{f.required ? t.choose : t.none}</option>
          {(f.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    case 'radio':
      return <RadioField {...props} name={name} className={className} />;
    default: {
      const problem = filling.problems.get(f.id);
      const number = f.type === 'number';
      return (
        <>
          <input
            type={number ? 'number' : 'text'}
            inputMode={number ? (f.decimals ? 'decimal' : 'numeric') : undefined}
            min={number ? (f.min ?? undefined) : undefined}
            max={number ? (f.max ?? undefined) : undefined}
            step={number ? 10 ** -(f.decimals ?? 0) : undefined}
            className={`${className}${problem ? ' invalid' : ''}`}
            style={style}
            aria-label={name}
            aria-required={f.required || undefined}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `problem-${f.id}` : undefined}
            maxLength={number ? undefined : (f.validation?.maxLength ?? MAX_TEXT_VALUE)}
            placeholder={f.label ?? undefined}
            value={typeof filling.values[f.id] === 'string' ? (filling.values[f.id] as string) : ''}
            disabled={disabled}
            onChange={(e) => filling.setValue(f.id, e.target.value)}
            {...common}
          />
          {problem && (
            <span
              id={`problem-${f.id}`}
              className="field-problem"
              style={{
                left: style.left,
                top: `calc(${String(style.top)} + ${String(style.height)})`,
              }}
            >
              {name}: {describeRule(problem, t.fieldRules)}
            </span>
          )}
        </>
      );
    }
  }
}

// A radio's options as a group of native radio buttons (arrow keys move between them), laid out
// in the field's box.
function RadioField(props: {
  field: SigningField;
  style: CSSProperties;
  filling: FieldFilling;
  disabled: boolean;
  name: string;
  className: string;
}) {
  const { field: f, filling } = props;
  const chosen = filling.values[f.id];
  return (
    <span
      role="radiogroup"
      aria-label={props.name}
      aria-required={f.required || undefined}
      className={props.className}
      style={props.style}
      data-field-id={f.id}
      data-field-type={f.type}
    >
      {(f.options ?? []).map((option) => (
        <label key={option} className="field-radio-option">
          <input
            type="radio"
            name={`radio-${f.id}`}
            value={option}
            checked={chosen === option}
            disabled={props.disabled}
            onChange={() => filling.setValue(f.id, option)}
          />
          <span>{option}</span>
        </label>
      ))}
    </span>
  );
}
