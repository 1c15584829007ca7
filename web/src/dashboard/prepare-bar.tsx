import {
  describeField,
  propertyName,
  type DraftField,
  type Participant,
  type PinnedError,
} from './prepare-fields.js';
import { Link, navigate, setLeaveGuard } from './router.js';

/**
 * The editor's way back: a link, or, when the user asked to leave with unsaved changes, the
 * question whether to leave without saving.
 */
export function BackOrLeave(props: {
  back: string;
  label: string;
  /** Where the user asked to go while changes were unsaved, if they did. */
  leaving: string | null;
  stay: () => void;
}) {
  const { leaving } = props;
  if (!leaving) return <Link to={props.back}>{props.label}</Link>;
  return (
    <span className="confirm" role="group" aria-label="Leave without saving?">
      <span className="confirm-question">Leave without saving?</span>
      <button
        type="button"
        className="button danger small"
        autoFocus
        onClick={() => {
          setLeaveGuard(null);
          navigate(leaving);
        }}
      >
        Leave
      </button>
      <button type="button" className="button secondary small" onClick={props.stay}>
        Stay
      </button>
    </span>
  );
}

/**
 * The problems of the last save: each one pinned to a field is a button that shows the field;
 * the others are listed as they came.
 */
export function ErrorList(props: {
  errors: PinnedError[];
  fields: DraftField[];
  participants: Participant[];
  show: (key: string) => void;
}) {
  const pinned = props.errors.filter((e) => e.key);
  const unpinned = props.errors.filter((e) => !e.key);
  if (pinned.length === 0 && unpinned.length === 0) return null;
  return (
    <ul className="plain-list prepare-error-list">
      {pinned.map((e, i) => {
        const field = props.fields.find((f) => f.key === e.key);
        if (!field) return null;
        return (
          <li key={`p${i}`}>
            <button
              type="button"
              className="link-button error-text"
              onClick={() => props.show(field.key)}
            >
              {describeField(field, props.participants)}: {propertyName(e.property)}
              {e.message}
            </button>
          </li>
        );
      })}
      {unpinned.map((e, i) => (
        <li key={`u${i}`} className="error-text">
          {e.message}
        </li>
      ))}
    </ul>
  );
}
