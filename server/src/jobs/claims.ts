import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { JobsTable } from '../db/schema.js';
import { isoIn, nowIso } from '../lib/ids.js';

/**
 * The job table queries of the runner. Every query names one kind, so that it walks the
 * (status, kind, run_at) index and stops at its limit: with an IN list SQLite prefers the
 * (status, run_at) index and walks past another kind's whole backlog. Costs are thus the same
 * with 10 000 due jobs as with none.
 */
export function createClaims(db: Db, leaseMs: number) {
  function due(kind: string, now: string) {
    return db.kysely
      .selectFrom('jobs')
      .where('status', '=', 'pending')
      .where('kind', '=', kind)
      .where('run_at', '<=', now)
      .orderBy('run_at');
  }

  function expired(kind: string, now: string) {
    return db.kysely
      .selectFrom('jobs')
      .where('status', '=', 'running')
      .where('kind', '=', kind)
      .where('lease_until', '<', now)
      .orderBy('run_at');
  }

  async function take(select: ReturnType<typeof due>, max: number, now: string) {
    const ids = select.select('id').limit(max);
    const locked = db.engine === 'postgres' ? ids.forUpdate().skipLocked() : ids;
    return db.kysely
      .updateTable('jobs')
      .set({
        status: 'running',
        lease_until: isoIn(leaseMs),
        attempts: sql`attempts + 1`,
        updated_at: now,
      })
      .where('id', 'in', locked)
      .returningAll()
      .execute();
  }

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
    for (const kind of kinds) {
      const lease = leaseCheckDue(kind)
        ? await expired(kind, now).select('id').limit(1).executeTakeFirst()
        : undefined;
      const head = await due(kind, now).select('run_at').limit(1).executeTakeFirst();
      if (lease || head) heads.push({ kind, expired: !!lease, due: head?.run_at ?? '' });
    }
    heads.sort((a, b) => Number(b.expired) - Number(a.expired) || a.due.localeCompare(b.due));
    const taken: JobsTable[] = [];
    for (const head of heads) {
      if (head.expired && taken.length < limit) {
        taken.push(...(await take(expired(head.kind, now), limit - taken.length, now)));
      }
      if (head.due && taken.length < limit) {
        taken.push(...(await take(due(head.kind, now), limit - taken.length, now)));
      }
    }
    return taken;
  }

  /** When the soonest pending job or running lease of these kinds comes due (ms), or null. */
  async function nextDueAt(kinds: string[]): Promise<number | null> {
    let soonest: number | null = null;
    for (const kind of kinds) {
      const head = await db.kysely
        .selectFrom('jobs')
        .select('run_at')
        .where('status', '=', 'pending')
        .where('kind', '=', kind)
        .orderBy('run_at')
        .limit(1)
        .executeTakeFirst();
      const lease = await db.kysely
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('lease_until').as('lease'))
        .where('status', '=', 'running')
        .where('kind', '=', kind)
        .executeTakeFirst();
      for (const t of [head?.run_at, lease?.lease]) {
        if (typeof t === 'string' && (soonest === null || Date.parse(t) < soonest)) {
          soonest = Date.parse(t);
        }
      }
    }
    return soonest;
  }

  return { claim, nextDueAt };
}
