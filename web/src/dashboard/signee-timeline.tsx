import { useSession } from './session.js';
import { roleOf, signeeSteps } from './signee-steps.js';
import type { AuditEntry, SignetDocument, Signee } from './types.js';
import { StatusBadge, Time } from './ui.js';
import './workflow.css';

// A role as its label reads; a role this build does not know yet shows as the API names it.
const ROLE_NAMES: Record<string, string> = { signer: 'Signer', approver: 'Approver', cc: 'CC' };

/**
 * The signees of a sent document, each with their own timeline from the audit trail (see
 * signee-steps.ts): invited, viewed, reminded, signed or declined, bounced, notices, copy.
 */
export function SigneeTimelines(props: {
  document: SignetDocument;
  signees: Signee[];
  entries: AuditEntry[] | null;
}) {
  const { user } = useSession();
  const { document: doc, signees } = props;
  const context = { you: user.id, expired: doc.cancelReason === 'expired' };
  return (
    <section className="card" aria-labelledby="signees">
      <h2 id="signees">Signees</h2>
      <ul className="plain-list signee-list">
        {signees.map((s) => {
          const role = roleOf(s);
          const steps = signeeSteps(props.entries ?? [], s, context);
          // A later wave of the signing order; a CC recipient never has a turn.
          const waiting =
            doc.status === 'in_process' &&
            s.status === 'pending' &&
            s.invitedAt === null &&
            role !== 'cc';
          return (
            <li key={s.id} className="signee-progress">
              <div className="signee-head">
                <strong>{s.name}</strong>
                {role && <span className="role-label">{ROLE_NAMES[role] ?? role}</span>}
                {doc.signingOrderEnabled && s.signingOrder !== null && (
                  <span className="muted">order {s.signingOrder}</span>
                )}
                <span className="muted break">{s.email}</span>
                <StatusBadge status={s.status} />
              </div>
              {steps.length > 0 && (
                <ol className="signee-timeline" aria-label={`Timeline of ${s.name}`}>
                  {steps.map((step) => (
                    <li key={step.key} className={`step-${step.kind}`}>
                      <span className="step-label">{step.label}</span>
                      <Time value={step.at} />
                      {step.detail && <span className="step-detail">{step.detail}</span>}
                    </li>
                  ))}
                </ol>
              )}
              {waiting && (
                <p className="muted step-waiting">
                  Not invited yet: waits for its turn in the signing order.
                </p>
              )}
              {s.declineReason && (
                <blockquote className="decline-reason">
                  <span className="visually-hidden">Reason for declining: </span>
                  {s.declineReason}
                </blockquote>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
