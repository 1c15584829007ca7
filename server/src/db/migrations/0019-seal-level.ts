import type { Kysely } from 'kysely';

/**
 * The PAdES level each seal reached (`sealLevel`), and, for a document whose seal failed for
 * good, the failure. A document whose seal job already gave up before this release (it stayed
 * in `pending_seal` with nothing left to run it) moves to `seal_failed`, where the API, the CLI
 * and the dashboard offer to retry it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('seal_level', 'text').execute();
  await db.schema.alterTable('documents').addColumn('seal_failure', 'text').execute();
  const k = db as unknown as Kysely<Tables>;
  const waiting = await k
    .selectFrom('documents')
    .select('id')
    .where('status', '=', 'pending_seal')
    .execute();
  if (waiting.length === 0) return;
  const live = await k
    .selectFrom('jobs')
    .select('payload')
    .where('kind', '=', 'document.seal')
    .where('status', 'in', ['pending', 'running'])
    .execute();
  const sealing = new Set(
    live.map((j) => (JSON.parse(j.payload) as { documentId: string }).documentId),
  );
  const stranded = waiting.map((d) => d.id).filter((id) => !sealing.has(id));
  for (let i = 0; i < stranded.length; i += 500) {
    await k
      .updateTable('documents')
      .set({
        status: 'seal_failed',
        seal_failure: 'the seal job had given up before this release: retry it',
      })
      .where('id', 'in', stranded.slice(i, i + 500))
      .execute();
  }
}

/** Drops what `up` added; documents in `seal_failed` go back to `pending_seal`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const k = db as unknown as Kysely<Tables>;
  await k
    .updateTable('documents')
    .set({ status: 'pending_seal' })
    .where('status', '=', 'seal_failed')
    .execute();
  await db.schema.alterTable('documents').dropColumn('seal_failure').execute();
  await db.schema.alterTable('documents').dropColumn('seal_level').execute();
}

type Tables = {
  documents: { id: string; status: string; seal_failure: string | null };
  jobs: { kind: string; status: string; payload: string };
};
