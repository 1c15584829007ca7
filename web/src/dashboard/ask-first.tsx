import { useEffect, useRef, useState } from 'react';

/**
 * A button that, when there is a `question`, asks it in the page before acting: the question
 * with a button to go on (focused) and one to stay; Escape stays too and focus comes back to
 * the button. Without a question it acts at once. `before` runs first (a save, say) and stops
 * everything when it answers false.
 */
export function AskFirstButton(props: {
  label: string;
  className: string;
  disabled?: boolean;
  describedBy?: string;
  question: string | null;
  goLabel: string;
  stayLabel: string;
  before?: () => Promise<boolean>;
  onGo: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const goRef = useRef<HTMLButtonElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (asking) goRef.current?.focus();
    else if (returnFocus.current) buttonRef.current?.focus();
    returnFocus.current = false;
  }, [asking]);

  async function press() {
    if (props.before && !(await props.before())) return;
    if (props.question) setAsking(true);
    else props.onGo();
  }
  function stay() {
    returnFocus.current = true;
    setAsking(false);
  }

  if (asking && props.question) {
    return (
      <div
        className="confirm"
        role="group"
        aria-label={props.question}
        onKeyDown={(e) => {
          if (e.key === 'Escape') stay();
        }}
      >
        <span className="confirm-question">{props.question}</span>
        <button
          ref={goRef}
          type="button"
          className="button primary small"
          onClick={() => {
            setAsking(false);
            props.onGo();
          }}
        >
          {props.goLabel}
        </button>
        <button type="button" className="button secondary small" onClick={stay}>
          {props.stayLabel}
        </button>
      </div>
    );
  }
  return (
    <button
      ref={buttonRef}
      type="button"
      className={props.className}
      disabled={props.disabled}
      aria-describedby={props.describedBy}
      onClick={() => void press()}
    >
      {props.label}
    </button>
  );
}
