import type { FieldError } from '../shared/http.js';
import type { OptInEventType } from '../../../server/src/modules/events/event-types.js';
import { readableFieldMessage } from './field-messages.js';
import type { TenantSettings } from './types.js';
import './workflow.css';

/** An event name `webhookEvents` holds. */
type EventName = TenantSettings['webhookEvents'][number];

// Each opt-in event in one line (docs/webhooks.md). A Record over the server's own list, so a
// new opt-in type fails `tsc` here until it is explained.
const EXPLAINED: Record<OptInEventType, string> = {
  'signee.viewed': 'A signee opens their signing link for the first time.',
  'signee.reminded': 'A signee is reminded, by hand or automatically.',
  'email.failed': 'The mail server refuses an e-mail for good (a bounce, such as a 550).',
  'bulk_send.completed': 'A bulk send has created all its documents.',
};
const OPT_IN = Object.keys(EXPLAINED) as OptInEventType[];

/** The 422 of `webhookEvents` or one of its items (`body.webhookEvents.1`), as a sentence. */
export function webhookEventsError(errors: FieldError[]): string | undefined {
  const found = errors.find((e) => /^(body\.)?webhookEvents(\.|$)/.test(e.path));
  return found && readableFieldMessage('Webhook events', found.message);
}

/**
 * A checkbox per opt-in webhook event, each with what it reports. Names the form does not
 * offer (the seed's events, set through the API) stay in the list untouched.
 */
export function WebhookEventChoices(props: {
  value: EventName[];
  onChange: (value: EventName[]) => void;
  error?: string;
}) {
  const toggle = (name: OptInEventType, on: boolean) => {
    const rest = props.value.filter((n) => n !== name);
    props.onChange(on ? [...rest, name] : rest);
  };
  return (
    <fieldset
      className="event-choices"
      aria-describedby={`webhook-events-hint${props.error ? ' webhook-events-error' : ''}`}
    >
      <legend>Webhook events</legend>
      <span className="field-hint" id="webhook-events-hint">
        Sent to your webhooks only when ticked; <code>document.status_changed</code> always is.
      </span>
      {OPT_IN.map((name) => (
        <label key={name} className="check">
          <input
            type="checkbox"
            checked={props.value.includes(name)}
            onChange={(e) => toggle(name, e.target.checked)}
          />
          <span>
            <code>{name}</code>
            <span className="field-hint block">{EXPLAINED[name]}</span>
          </span>
        </label>
      ))}
      {props.error && (
        <span className="field-error" id="webhook-events-error">
          {props.error}
        </span>
      )}
    </fieldset>
  );
}
