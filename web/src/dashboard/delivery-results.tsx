import type { Delivered } from './types.js';
import { StatusBadge } from './ui.js';

const DELIVERY_TEXT: Record<Delivered['status'], string> = {
  sent: 'invitation e-mailed',
  scheduled: 'waits for its turn in the signing order',
  failed: 'e-mail failed',
  link: 'deliver this signing link yourself',
};

/** What sending or reminding did for each signee: e-mailed, scheduled, failed, or a link to hand over. */
export function DeliveryResults(props: { deliveries: Delivered[] }) {
  const { deliveries } = props;
  return (
    <section className="card" aria-labelledby="delivery-results">
      <h2 id="delivery-results">Delivery results</h2>
      <ul className="plain-list">
        {deliveries.map((d) => (
          <li key={d.signeeId}>
            <strong>{d.email}</strong>: <StatusBadge status={d.status} /> {DELIVERY_TEXT[d.status]}
            {d.error && <span className="error-text"> ({d.error})</span>}
            {d.signingUrl && (
              <span className="block mono break">
                <a href={d.signingUrl}>{d.signingUrl}</a>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
