import { useEffect, useId, useState, type CSSProperties } from 'react';
import { FieldRules } from './prepare-rules-panel.js';
import {
  CHOICE_TYPES,
  clampBox,
  colourOf,
  describeField,
  OPTIONAL_TYPES,
  optionsOf,
  propertyName,
  TYPE_NAMES,
  type DraftField,
  type PageSize,
  type PinnedError,
  type Participant,
} from './prepare-fields.js';

/** The selected field's properties, or the list of fields when none is selected. */
export function FieldPanel(props: {
  field: DraftField | null;
  fields: DraftField[];
  participants: Participant[];
  /** What a participant is called here: `Signee` on a draft, `Role` on a template. */
  participantLabel: string;
  sizes: PageSize[];
  errors: PinnedError[];
  change: (key: string, patch: Partial<DraftField>) => void;
  remove: (key: string) => void;
  select: (key: string | null) => void;
}) {
  const { field, participants } = props;
  if (!field) {
    return (
      <section className="card prepare-panel" aria-labelledby="panel-heading">
        <h2 id="panel-heading">Fields</h2>
        {props.fields.length === 0 ? (
          <p className="empty">No fields yet. Add one from the palette.</p>
        ) : (
          <>
            <p className="field-hint">Select a field to edit it.</p>
            <ul className="plain-list panel-field-list">
              {props.fields.map((f) => (
                <li key={f.key}>
                  <button
                    type="button"
                    className="link-button"
                    style={{ '--signee': colourOf(participants, f.participantId) } as CSSProperties}
                    onClick={() => props.select(f.key)}
                  >
                    <span className="palette-swatch" aria-hidden="true" />
                    {describeField(f, participants)}
                  </button>
                  {props.errors.some((e) => e.key === f.key) && (
                    <span className="error-text"> (needs attention)</span>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    );
  }
  return <FieldEditor key={field.key} {...props} field={field} />;
}

function FieldEditor(props: {
  field: DraftField;
  fields: DraftField[];
  participants: Participant[];
  participantLabel: string;
  sizes: PageSize[];
  errors: PinnedError[];
  change: (key: string, patch: Partial<DraftField>) => void;
  remove: (key: string) => void;
  select: (key: string | null) => void;
}) {
  const { field, participants, sizes } = props;
  const id = useId();
  const errors = props.errors.filter((e) => e.key === field.key);
  const errorOf = (...properties: string[]) =>
    errors
      .filter((e) => e.property !== null && properties.includes(e.property))
      .map((e) => e.message)
      .join(' · ') || undefined;
  const general = errors.filter(
    (e) =>
      ![
        'participantId',
        'label',
        'required',
        'options',
        'value',
        'min',
        'max',
        'decimals',
        'validation',
        'showIf',
      ].includes(e.property ?? ''),
  );
  const set = (patch: Partial<DraftField>) => props.change(field.key, patch);
  const page = sizes[field.page - 1] ?? { width: 1e5, height: 1e5 };
  const setBox = (patch: Partial<DraftField>) => {
    const next = { ...field, ...patch };
    const target = sizes[next.page - 1];
    set(target ? clampBox(next, target) : next);
  };
  const optionsError = errorOf('options', 'value');
  const participant = participants.find((p) => p.id === field.participantId);
  const [expanded, setExpanded] = useState(errors.length > 0);
  // A problem the service found opens the details, where it is shown.
  useEffect(() => {
    if (errors.length > 0) setExpanded(true);
  }, [errors.length]);

  return (
    <section
      className="card prepare-panel"
      aria-labelledby="panel-heading"
      style={{ '--signee': colourOf(participants, field.participantId) } as CSSProperties}
    >
      <div className="panel-head">
        <h2 id="panel-heading">
          <span className="palette-swatch" aria-hidden="true" />
          {TYPE_NAMES[field.type]} field
        </h2>
        <button
          type="button"
          className="button secondary small"
          onClick={() => props.select(null)}
          aria-label="Done editing this field"
        >
          Done
        </button>
      </div>
      <p className="panel-whose">{participant ? `${participant.name} · page ${field.page}` : ''}</p>
      <div className="button-row panel-actions">
        {/* On a phone the panel is a sheet over the pages: its details open on demand. */}
        <button
          type="button"
          className="button secondary small panel-toggle"
          aria-expanded={expanded}
          aria-controls={`${id}-details`}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? 'Hide details' : 'Edit details'}
        </button>
        <button
          type="button"
          className="button danger small"
          onClick={() => props.remove(field.key)}
        >
          Delete field
        </button>
      </div>
      {general.length > 0 && (
        <ul className="form-error plain-list" role="alert">
          {general.map((e, i) => (
            <li key={i}>
              {propertyName(e.property)}
              {e.message}
            </li>
          ))}
        </ul>
      )}
      <div className={`panel-details${expanded ? ' expanded' : ''}`} id={`${id}-details`}>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-signee`}>
            {props.participantLabel}
          </label>
          <select
            id={`${id}-signee`}
            className="text-input"
            value={field.participantId}
            aria-invalid={errorOf('participantId') ? true : undefined}
            onChange={(e) => set({ participantId: e.target.value })}
          >
            {participants.map((p) => (
              <option key={p.id} value={p.id}>
                {p.detail ? `${p.name} (${p.detail})` : p.name}
              </option>
            ))}
          </select>
          {errorOf('participantId') && (
            <span className="field-error">{errorOf('participantId')}</span>
          )}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-label`}>
            Label
          </label>
          <span className="field-hint" id={`${id}-label-hint`}>
            Shown to the signee and in the audit certificate; the type otherwise.
          </span>
          <input
            id={`${id}-label`}
            className={`text-input${errorOf('label') ? ' invalid' : ''}`}
            value={field.label}
            maxLength={200}
            aria-invalid={errorOf('label') ? true : undefined}
            aria-describedby={`${id}-label-hint${errorOf('label') ? ` ${id}-label-error` : ''}`}
            onChange={(e) => set({ label: e.target.value })}
          />
          {errorOf('label') && (
            <span className="field-error" id={`${id}-label-error`}>
              {errorOf('label')}
            </span>
          )}
        </div>
        {OPTIONAL_TYPES.has(field.type) ? (
          <label className="check">
            <input
              type="checkbox"
              checked={field.required}
              onChange={(e) => set({ required: e.target.checked })}
            />
            <span>
              Required
              <span className="block field-hint">
                {field.type === 'checkbox'
                  ? 'The signee must tick it to sign.'
                  : 'The signee must fill it to sign.'}
              </span>
            </span>
          </label>
        ) : (
          <p className="field-hint">Always required.</p>
        )}
        {CHOICE_TYPES.has(field.type) && (
          <div className="field">
            <label className="field-label" htmlFor={`${id}-options`}>
              Options
            </label>
            <span className="field-hint" id={`${id}-options-hint`}>
              One per line.
            </span>
            <textarea
              id={`${id}-options`}
              className={`text-input${optionsError ? ' invalid' : ''}`}
              value={field.optionsText}
              rows={4}
              aria-invalid={optionsError ? true : undefined}
              aria-describedby={`${id}-options-hint${optionsError ? ` ${id}-options-error` : ''}`}
              onChange={(e) => {
                const next = { ...field, optionsText: e.target.value };
                // A prefilled choice that is no longer offered goes with it.
                const keep =
                  typeof field.value === 'string' && optionsOf(next).includes(field.value);
                set({ optionsText: e.target.value, value: keep ? field.value : null });
              }}
            />
            {optionsError && (
              <span className="field-error" id={`${id}-options-error`}>
                {optionsError}
              </span>
            )}
          </div>
        )}
        <FieldRules id={id} field={field} fields={props.fields} set={set} errorOf={errorOf} />
        <fieldset className="plain place-grid">
          <legend className="field-label">Place (points from the page’s top-left)</legend>
          <NumberField
            label="Page"
            value={field.page}
            min={1}
            max={sizes.length}
            step={1}
            error={errorOf('page')}
            onCommit={(n) => setBox({ page: Math.round(n) })}
          />
          <NumberField
            label="X"
            value={field.x}
            min={0}
            max={page.width}
            error={errorOf('x')}
            onCommit={(n) => setBox({ x: n })}
          />
          <NumberField
            label="Y"
            value={field.y}
            min={0}
            max={page.height}
            error={errorOf('y')}
            onCommit={(n) => setBox({ y: n })}
          />
          <NumberField
            label="Width"
            value={field.width}
            min={1}
            max={page.width}
            error={errorOf('width')}
            onCommit={(n) => setBox({ width: Math.min(n, page.width - field.x) })}
          />
          <NumberField
            label="Height"
            value={field.height}
            min={1}
            max={page.height}
            error={errorOf('height')}
            onCommit={(n) => setBox({ height: Math.min(n, page.height - field.y) })}
          />
        </fieldset>
        <p className="field-hint">
          On the page: drag the field to move it, its corner to resize it; with the keyboard, arrows
          move it (Shift: 10 points), Alt and arrows resize it, Delete removes it.
        </p>
      </div>
    </section>
  );
}

/** A number typed freely and taken on blur or Enter; shows the field's value otherwise. */
function NumberField(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  error?: string;
  onCommit: (value: number) => void;
}) {
  const id = useId();
  const shown = String(Math.round(props.value * 100) / 100);
  const [text, setText] = useState(shown);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setText(shown);
  }, [shown, editing]);
  const commit = () => {
    setEditing(false);
    const n = Number(text);
    if (text.trim() !== '' && Number.isFinite(n)) props.onCommit(n);
    else setText(shown);
  };
  return (
    <div className="field">
      <label className="field-label small" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        className={`text-input compact${props.error ? ' invalid' : ''}`}
        value={editing ? text : shown}
        min={props.min}
        max={Math.round(props.max * 100) / 100}
        step={props.step ?? 'any'}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onFocus={() => setEditing(true)}
        onChange={(e) => {
          setEditing(true);
          setText(e.target.value);
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
      />
      {props.error && (
        <span className="field-error" id={`${id}-error`}>
          {props.error}
        </span>
      )}
    </div>
  );
}
