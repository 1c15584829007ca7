import type { ReactNode } from 'react';
import { optionsOf, type DraftField } from './prepare-fields.js';
import { conditionTargets, type RulesDraft } from './prepare-rules.js';

type Props = {
  id: string;
  field: DraftField;
  fields: DraftField[];
  set: (patch: Partial<DraftField>) => void;
  errorOf: (...properties: string[]) => string | undefined;
};

/**
 * The selected field's rules in the Prepare panel: a number's bounds and decimal places, a
 * text's format, pattern and lengths, and for every field the checkbox, radio or dropdown of
 * the same participant that shows it.
 */
export function FieldRules(props: Props) {
  const { id, field, set } = props;
  const rules = field.rules;
  const setRules = (patch: Partial<RulesDraft>) => set({ rules: { ...rules, ...patch } });
  const targets = conditionTargets(field, props.fields);
  const target = targets.find((t) => t.label.trim() === rules.showIfField);
  return (
    <>
      {field.type === 'number' && (
        <fieldset className="plain">
          <legend className="field-label">Allowed numbers</legend>
          <RuleInput
            {...props}
            name="min"
            label="Minimum"
            value={rules.min}
            error={props.errorOf('min')}
            onChange={(min) => setRules({ min })}
            inputMode="decimal"
          />
          <RuleInput
            {...props}
            name="max"
            label="Maximum"
            value={rules.max}
            error={props.errorOf('max')}
            onChange={(max) => setRules({ max })}
            inputMode="decimal"
          />
          <RuleInput
            {...props}
            name="decimals"
            label="Decimal places (0 for whole numbers)"
            value={rules.decimals}
            error={props.errorOf('decimals')}
            onChange={(decimals) => setRules({ decimals })}
            inputMode="numeric"
          />
        </fieldset>
      )}
      {field.type === 'text' && (
        <fieldset className="plain">
          <legend className="field-label">Validation</legend>
          <Labelled id={`${id}-format`} label="Format">
            <select
              id={`${id}-format`}
              className="text-input"
              value={rules.format}
              onChange={(e) => setRules({ format: e.target.value as RulesDraft['format'] })}
            >
              <option value="">Any text</option>
              <option value="email">E-mail address</option>
              <option value="phone">Phone number</option>
              <option value="digits">Digits only</option>
              <option value="date">Date (YYYY-MM-DD)</option>
            </select>
          </Labelled>
          <RuleInput
            {...props}
            name="pattern"
            label="Pattern (RE2 regular expression, whole value)"
            value={rules.pattern}
            error={props.errorOf('validation')}
            maxLength={500}
            onChange={(pattern) => setRules({ pattern })}
          />
          <RuleInput
            {...props}
            name="minLength"
            label="Shortest (characters)"
            value={rules.minLength}
            onChange={(minLength) => setRules({ minLength })}
            inputMode="numeric"
          />
          <RuleInput
            {...props}
            name="maxLength"
            label="Longest (characters)"
            value={rules.maxLength}
            onChange={(maxLength) => setRules({ maxLength })}
            inputMode="numeric"
          />
        </fieldset>
      )}
      <Labelled id={`${id}-show-if`} label="Shown" error={props.errorOf('showIf')}>
        <select
          id={`${id}-show-if`}
          className="text-input"
          value={target ? rules.showIfField : ''}
          onChange={(e) => {
            const next = targets.find((t) => t.label.trim() === e.target.value);
            const equals = next?.type === 'checkbox' ? true : (optionsOf(next ?? field)[0] ?? '');
            setRules({ showIfField: e.target.value, showIfEquals: next ? equals : '' });
          }}
        >
          <option value="">Always</option>
          {targets.map((t) => (
            <option key={t.key} value={t.label.trim()}>
              When “{t.label.trim()}”…
            </option>
          ))}
        </select>
      </Labelled>
      {target && (
        <Labelled id={`${id}-show-if-equals`} label={`… is`}>
          <select
            id={`${id}-show-if-equals`}
            className="text-input"
            value={String(rules.showIfEquals)}
            onChange={(e) =>
              setRules({
                showIfEquals:
                  target.type === 'checkbox' ? e.target.value === 'true' : e.target.value,
              })
            }
          >
            {target.type === 'checkbox' ? (
              <>
                <option value="true">ticked</option>
                <option value="false">not ticked</option>
              </>
            ) : (
              optionsOf(target).map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))
            )}
          </select>
        </Labelled>
      )}
    </>
  );
}

function Labelled(props: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.children}
      {props.error && <span className="field-error">{props.error}</span>}
    </div>
  );
}

function RuleInput(
  props: Props & {
    name: string;
    label: string;
    value: string;
    error?: string;
    maxLength?: number;
    inputMode?: 'decimal' | 'numeric';
    onChange: (value: string) => void;
  },
) {
  const inputId = `${props.id}-${props.name}`;
  return (
    <Labelled id={inputId} label={props.label} error={props.error}>
      <input
        id={inputId}
        className={`text-input${props.error ? ' invalid' : ''}`}
        value={props.value}
        inputMode={props.inputMode}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </Labelled>
  );
}
