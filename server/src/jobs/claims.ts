import { sql, type Kysely } from 'kysely';
import { withUnflushedCommits } from '../db/database.js';
import type { Db } from '../db/handle.js';
import { preparedQuery } from '../db/prepared.js';
import type { Database, JobsTable } from '../db/schema.js';
import { isoIn, nowIso } from '../lib/ids.js';

/** Each kind's soonest pending job (`run_at`) and soonest lease to run out, or null. */
export type Heads = Map<string, { pending: string | null; lease: string | null }>;

/**
 * The job table queries of the runner. Every query names one kind, so that it walks the
 * (status, kind, run_at) index and stops at its limit: with an IN list SQLite prefers the
 * (status, run_at) index and walks past another kind's whole backlog. Costs are thus the same
 * with 10 000 due jobs as with none.
 */
export function createClaims(db: Db, leaseMs: number) {
  // Built and compiled once (preparedQuery): a busy runner makes several passes per batch of
  // jobs, and Kysely's builder cost more than SQLite's walk of the index. The reads are direct
  // reads on SQLite, answered from memory while nothing was committed (each pass starts a new
  // snapshot, so a row another process committed is seen by the next pass).
  type Due = { kind: string; now: string };
  const due = (q: Kysely<Database>, p: Due) =>
    q
      .selectFrom('jobs')
      .where('status', '=', 'pending')
      .where('kind', '=', p.kind)
      .where('run_at', '<=', p.now)
      .orderBy('run_at');
  const expired = (q: Kysely<Database>, p: Due) =>
    q
      .selectFrom('jobs')
      .where('status', '=', 'running')
      .where('kind', '=', p.kind)
      .where('lease_until', '<', p.now)
      .orderBy('run_at');
  type Take = Due & { max: number; leaseUntil: string };
  const take = (select: typeof due) =>
    preparedQuery((q, p: Take) => {
      const ids = select(q, p)
        .select('id')
        .limit(p.max as unknown as number);
      return q
        .updateTable('jobs')
        .set({
          status: 'running',
          lease_until: p.leaseUntil,
          attempts: sql`attempts + 1`,
          updated_at: p.now,
        })
        .where('id', 'in', db.engine === 'postgres' ? ids.forUpdate().skipLocked() : ids)
        .returningAll();
    });
  const takeDue = take(due);
  const takeExpired = take(expired);
  // A kind's soonest pending job, and its soonest lease to run out: whether it has a due job or
  // a dead worker's job, and when it next will.
  const head = (q: Kysely<Database>, kind: string, status: 'pending' | 'running') =>
    q
      .selectFrom('jobs')
      .select(['kind', status === 'pending' ? 'run_at as at' : 'lease_until as at'])
      .where('status', '=', status)
      .where('kind', '=', kind)
      .orderBy(status === 'pending' ? 'run_at' : 'lease_until')
      .limit(1);
  const pendingHead = preparedQuery((q, p: { kind: string }) => head(q, p.kind, 'pending'));
  const leaseHead = preparedQuery((q, p: { kind: string }) => head(q, p.kind, 'running'));

  // On PostgreSQL each read is a round trip, and a busy runner passes many times a second: there,
  // every kind's two heads come in one statement, a UNION ALL of the same per-kind reads (each
  // still walks its kind's index and stops at its limit).
  const allHeads = preparedQuery((q, p: { kinds: string[] }) => {
    const branch = (kind: string, i: number, status: 'pending' | 'running') =>
      q
        .selectFrom(head(q, kind, status).as(`h${i}${status}`))
        .select(['kind', 'at', sql.lit(status === 'running' ? 1 : 0).as('lease')]);
    return p.kinds
      .slice(1)
      .reduce(
        (all, kind, i) =>
          all.unionAll(branch(kind, i + 1, 'pending')).unionAll(branch(kind, i + 1, 'running')),
        branch(p.kinds[0], 0, 'pending').unionAll(branch(p.kinds[0], 0, 'running')),
      );
  });

  /** Each kind's soonest pending job and soonest lease, in one round trip on PostgreSQL. */
  async function heads(kinds: string[]): Promise<Heads> {
    const found: Heads = new Map(kinds.map((kind) => [kind, { pending: null, lease: null }]));
    if (kinds.length === 0) return found;
    if (db.engine === 'postgres') {
      for (const row of await allHeads(db.kysely, { kinds })) {
        const head = found.get(row.kind)!;
        if (Number(row.lease)) head.lease = row.at;
        else head.pending = row.at;
      }
    } else {
      for (const kind of kinds) {
        const head = found.get(kind)!;
        head.pending = (await pendingHead(db.kysely, { kind }))[0]?.at ?? null;
        head.lease = (await leaseHead(db.kysely, { kind }))[0]?.at ?? null;
      }
    }
    return found;
  }

  /**
   * Claims up to `limit` due jobs of the given kinds (expired leases of dead workers first, then
   * the kinds with the oldest due job first), from their `known` heads if the caller just read
   * them. Reads come first: most passes find nothing for some kind, and an UPDATE would take the
   * write lock and commit for nothing. The UPDATE re-checks its conditions, so a race with
   * another process is harmless.
   */
  async function claim(kinds: string[], limit: number, known?: Heads): Promise<JobsTable[]> {
    const found = known ?? (await heads(kinds));
    const now = nowIso();
    const ready: Array<{ kind: string; expired: boolean; due: string }> = [];
    for (const kind of kinds) {
      const head = found.get(kind);
      const expired = !!head?.lease && head.lease < now;
      const dueAt = head?.pending && head.pending <= now ? head.pending : '';
      if (expired || dueAt) ready.push({ kind, expired, due: dueAt });
    }
    ready.sort((a, b) => Number(b.expired) - Number(a.expired) || a.due.localeCompare(b.due));
    if (ready.length === 0) return [];
    const leaseUntil = isoIn(leaseMs);
    // Claims are not flushed to disk on their own (withUnflushedCommits): a process crash keeps
    // them, and the handler's own durable commit flushes them. Power loss before that undoes
    // the claim, and the job runs again as if it had never been claimed.
    return withUnflushedCommits(db, async (q) => {
      const taken: JobsTable[] = [];
      for (const { kind, ...head } of ready) {
        if (head.expired && taken.length < limit) {
          taken.push(
            ...(await takeExpired(q, { kind, now, leaseUntil, max: limit - taken.length })),
          );
        }
        if (head.due && taken.length < limit) {
          taken.push(...(await takeDue(q, { kind, now, leaseUntil, max: limit - taken.length })));
        }
      }
      return taken;
    });
  }

  /**
   * When the soonest pending job or running lease of these kinds comes due (ms), or null; from
   * their `known` heads if the caller read them since the last change.
   */
  async function nextDueAt(kinds: string[], known?: Heads): Promise<number | null> {
    const found = known ?? (await heads(kinds));
    let soonest: number | null = null;
    for (const kind of kinds) {
      const head = found.get(kind);
      for (const t of [head?.pending, head?.lease]) {
        if (typeof t === 'string' && (soonest === null || Date.parse(t) < soonest)) {
          soonest = Date.parse(t);
        }
      }
    }
    return soonest;
  }

  return { heads, claim, nextDueAt };
}
