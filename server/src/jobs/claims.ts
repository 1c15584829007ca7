import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { withUnflushedCommits } from '../db/database.js';
import type { Db } from '../db/handle.js';
import { preparedQuery } from '../db/prepared.js';
import type { Database, JobsTable } from '../db/schema.js';
import { isoIn, nowIso } from '../lib/ids.js';

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
  const dueHead = preparedQuery((q, p: Due) => due(q, p).select('run_at').limit(1));
  const expiredHead = preparedQuery((q, p: Due) => expired(q, p).select('id').limit(1));
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
  // A kind's soonest pending job, and its soonest lease to run out.
  const pending = (q: Kysely<Database>, kind: string) =>
    q
      .selectFrom('jobs')
      .select('run_at as at')
      .where('status', '=', 'pending')
      .where('kind', '=', kind)
      .orderBy('run_at')
      .limit(1);
  const leased = (q: Kysely<Database>, kind: string) =>
    q
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('lease_until').as('at'))
      .where('status', '=', 'running')
      .where('kind', '=', kind);
  const pendingHead = preparedQuery((q, p: { kind: string }) => pending(q, p.kind));
  const leaseHead = preparedQuery((q, p: { kind: string }) => leased(q, p.kind));

  // On PostgreSQL each of these reads is a round trip, and a busy runner passes many times a
  // second over every kind: there, every kind's head comes in one statement, a UNION ALL of the
  // same per-kind reads (each still walks its kind's index and stops at its limit).
  const union = <R>(
    kinds: string[],
    branch: (kind: string, i: number) => SelectQueryBuilder<Database, never, R>,
  ) =>
    kinds.slice(1).reduce((all, kind, i) => all.unionAll(branch(kind, i + 1)), branch(kinds[0], 0));
  const dueHeads = preparedQuery((q, p: { kinds: string[]; now: string }) =>
    union(p.kinds, (kind, i) =>
      q
        .selectFrom(due(q, { kind, now: p.now }).select(['kind', 'run_at']).limit(1).as(`h${i}`))
        .select(['kind', 'run_at']),
    ),
  );
  const expiredHeads = preparedQuery((q, p: { kinds: string[]; now: string }) =>
    union(p.kinds, (kind, i) =>
      q
        .selectFrom(expired(q, { kind, now: p.now }).select(['kind', 'id']).limit(1).as(`h${i}`))
        .select(['kind', 'id']),
    ),
  );
  const soonestHeads = preparedQuery((q, p: { kinds: string[] }) =>
    union(p.kinds, (kind, i) =>
      q
        .selectFrom(pending(q, kind).as(`h${i}`))
        .select('at')
        .$castTo<{ at: string | null }>()
        .unionAll(leased(q, kind)),
    ),
  );

  // Leases last 30 s, so looking for expired ones once a second per kind is plenty; a busy
  // runner makes many passes a second and would otherwise pay for the read on each.
  const lastLeaseCheck = new Map<string, number>();
  function leaseCheckDue(kind: string): boolean {
    const now = Date.now();
    if (now - (lastLeaseCheck.get(kind) ?? 0) < 1000) return false;
    lastLeaseCheck.set(kind, now);
    return true;
  }

  /**
   * Claims up to `limit` due jobs of the given kinds (expired leases of dead workers first, then
   * the kinds with the oldest due job first). Reads come first: most passes find nothing for
   * some kind, and an UPDATE would take the write lock and commit for nothing. The UPDATE
   * re-checks its conditions, so a race with another process is harmless.
   */
  async function claim(kinds: string[], limit: number): Promise<JobsTable[]> {
    const now = nowIso();
    const heads: Array<{ kind: string; expired: boolean; due: string }> = [];
    if (db.engine === 'postgres') {
      const leased = kinds.filter(leaseCheckDue);
      const lapsed = new Set(
        leased.length > 0
          ? (await expiredHeads(db.kysely, { kinds: leased, now })).map((r) => r.kind)
          : [],
      );
      const due = new Map(
        (await dueHeads(db.kysely, { kinds, now })).map((r) => [r.kind, r.run_at]),
      );
      for (const kind of kinds) {
        if (lapsed.has(kind) || due.has(kind)) {
          heads.push({ kind, expired: lapsed.has(kind), due: due.get(kind) ?? '' });
        }
      }
    } else {
      for (const kind of kinds) {
        const lease = leaseCheckDue(kind)
          ? (await expiredHead(db.kysely, { kind, now }))[0]
          : undefined;
        const head = (await dueHead(db.kysely, { kind, now }))[0];
        if (lease || head) heads.push({ kind, expired: !!lease, due: head?.run_at ?? '' });
      }
    }
    heads.sort((a, b) => Number(b.expired) - Number(a.expired) || a.due.localeCompare(b.due));
    if (heads.length === 0) return [];
    const leaseUntil = isoIn(leaseMs);
    // Claims are not flushed to disk on their own (withUnflushedCommits): a process crash keeps
    // them, and the handler's own durable commit flushes them. Power loss before that undoes
    // the claim, and the job runs again as if it had never been claimed.
    return withUnflushedCommits(db, async (q) => {
      const taken: JobsTable[] = [];
      for (const { kind, ...head } of heads) {
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

  /** When the soonest pending job or running lease of these kinds comes due (ms), or null. */
  async function nextDueAt(kinds: string[]): Promise<number | null> {
    const times: Array<string | null | undefined> = [];
    if (db.engine === 'postgres') {
      times.push(...(await soonestHeads(db.kysely, { kinds })).map((r) => r.at));
    } else {
      for (const kind of kinds) {
        times.push((await pendingHead(db.kysely, { kind }))[0]?.at);
        times.push((await leaseHead(db.kysely, { kind }))[0]?.at);
      }
    }
    let soonest: number | null = null;
    for (const t of times) {
      if (typeof t === 'string' && (soonest === null || Date.parse(t) < soonest)) {
        soonest = Date.parse(t);
      }
    }
    return soonest;
  }

  return { claim, nextDueAt };
}
