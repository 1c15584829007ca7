import { Link } from './router.js';
import './setup.css';

/** The steps of a new document, in order; `upload` has no page once the draft exists. */
export const SETUP_STEPS = [
  { id: 'upload', name: 'Upload' },
  { id: 'recipients', name: 'Recipients' },
  { id: 'fields', name: 'Fields' },
  { id: 'review', name: 'Review' },
  { id: 'send', name: 'Send' },
] as const;

/** One step of the guided flow. */
export type SetupStep = (typeof SETUP_STEPS)[number]['id'];

/** A step of a draft that exists: every step but the upload. */
export type DraftSetupStep = Exclude<SetupStep, 'upload'>;

/** The step a `?step=` names, recipients when it names none the draft's page can show. */
export function setupStep(value: string | null): DraftSetupStep {
  const found = SETUP_STEPS.find((s) => s.id === value);
  return !found || found.id === 'upload' ? 'recipients' : found.id;
}

/** The address of a draft's step: `/app/documents/{id}/setup?step=…`. */
export function setupUrl(documentId: string, step: SetupStep): string {
  return `/app/documents/${encodeURIComponent(documentId)}/setup?step=${step}`;
}

/**
 * Where the user is in the flow: "Step n of 5" and the five names, the current one marked
 * `aria-current="step"`. With a draft, the steps between recipients and review are links, so
 * the user goes back and forth; the upload is done once and sending happens at the review.
 */
export function SetupProgress(props: { current: SetupStep; documentId?: string }) {
  const index = SETUP_STEPS.findIndex((s) => s.id === props.current);
  const { documentId } = props;
  return (
    <nav className="setup-progress" aria-label="Progress">
      <p className="setup-count">
        Step {index + 1} of {SETUP_STEPS.length}: {SETUP_STEPS[index].name}
      </p>
      <ol>
        {SETUP_STEPS.map((step, i) => {
          const state = i < index ? 'done' : i === index ? 'current' : 'todo';
          const linked = documentId && i !== index && props.current !== 'send' && linkable(step.id);
          const label = (
            <>
              <span className="setup-number" aria-hidden="true">
                {i < index ? '✓' : i + 1}
              </span>
              <span className="setup-name">{step.name}</span>
              {i < index && <span className="visually-hidden"> (done)</span>}
            </>
          );
          return (
            <li
              key={step.id}
              className={`setup-step ${state}`}
              aria-current={i === index ? 'step' : undefined}
            >
              {linked ? <Link to={setupUrl(documentId, step.id)}>{label}</Link> : label}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

// The steps a draft can be taken back or forward to from the progress list.
const linkable = (step: SetupStep) =>
  step === 'recipients' || step === 'fields' || step === 'review';
