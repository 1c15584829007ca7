import type { Delivered } from './types.js';

/** What a page that made a document tells the document's page it opens: what happened. */
export type Handover = { notice: string; deliveries: Delivered[] | null };

// Kept in memory only, for the next page: a `link` delivery holds a signing URL, which belongs
// on the screen of the person who sent it, not in the browser's storage or history.
const pending = new Map<string, Handover>();

/** Leaves a notice (and the invitations' delivery results) for the document's page. */
export function handOver(documentId: string, handover: Handover): void {
  pending.set(documentId, handover);
}

/** What was left for this document's page, if anything. */
export function handoverFor(documentId: string): Handover | null {
  return pending.get(documentId) ?? null;
}

/** Forgets it once shown, so coming back to the page later shows the page alone. */
export function forgetHandover(documentId: string): void {
  pending.delete(documentId);
}
