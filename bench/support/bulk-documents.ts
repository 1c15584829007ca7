// Bulk document rows for the listing benchmark, written with plain SQL next to the running
// service: SQLite through the same database file (WAL lets the service keep reading),
// PostgreSQL through its own connection. Columns follow server/src/db/migrations/0002-documents.ts.
import SQLite from 'better-sqlite3';
import path from 'node:path';
import pg from 'pg';

/** Where bulk rows go, and what the engine plans for the listing query. */
export type BulkTarget = {
  /**
   * Inserts documents numbered [from, to) into the tenant, newest = highest number. Every
   * FOLDER_EVERY-th goes into `folderId` when given; every PINNED_EVERY-th is pinned.
   */
  insert: (input: {
    tenantId: string;
    userId: string;
    from: number;
    to: number;
    folderId?: string;
  }) => Promise<void>;
  /** Leaves the database as it would be some time after a bulk load. */
  settle: () => Promise<void>;
  explainListing: (tenantId: string) => Promise<string>;
  close: () => Promise<void>;
};

// Document n: a UUID-shaped id spread like random ones (Knuth's multiplicative hash), created
// n seconds after 2024-01-01, statuses in a fixed mix; every row points at one stored file.
// Its search text (documents/search-text.ts) is its name "Contract n", its one signee's name
// "Signee n" and e-mail "signee-n@example.com".
/** Every this many documents, one is filed in the folder (when one is given). */
export const FOLDER_EVERY = 100;
/** Every this many documents, one is pinned. */
export const PINNED_EVERY = 1000;
const STATUSES = ['draft', 'in_process', 'signed', 'signed', 'cancelled'];
const LISTING_SQL =
  'select * from "documents" where "tenant_id" = $1 order by "created_at" desc, "id" desc limit 26';

function openSqlite(dataDir: string): BulkTarget {
  const db = new SQLite(path.join(dataDir, 'signet.db'));
  db.pragma('busy_timeout = 10000');
  const insert = db.prepare(`
    with recursive seq(n) as (select cast(@from as integer) union all select n + 1 from seq where n + 1 < @to)
    insert into documents (id, tenant_id, folder_id, name, status, pinned, source, user_id,
      signing_method, signing_message, signing_order_enabled, signing_groups_enabled,
      reminder_cooldown_until, email_language, file, original_file, content_type, size_bytes,
      original_sha256, hash, sealed_file, search_text, created_at, updated_at)
    select
      printf('%08x-0000-4000-8000-%012x', (n * 2654435761) % 4294967296, n),
      @tenantId, case when n % ${FOLDER_EVERY} = 0 then @folderId end, 'Contract ' || n,
      case n % 5 ${STATUSES.map((s, i) => `when ${i} then '${s}'`).join(' ')} end,
      case when n % ${PINNED_EVERY} = 0 then '2024-06-01T00:00:00.000Z' end,
      'uploaded', @userId, 'email', null, null, 0, null, 'en',
      'documents/bench/original.pdf', 'contract.pdf', 'application/pdf', 200000,
      '${'0'.repeat(64)}', null, null,
      'contract ' || n || char(10) || 'signee ' || n || char(10) || 'signee-' || n || '@example.com',
      strftime('%Y-%m-%dT%H:%M:%fZ', 1704067200 + n, 'unixepoch'),
      strftime('%Y-%m-%dT%H:%M:%fZ', 1704067200 + n, 'unixepoch')
    from seq`);
  return {
    insert: async (input) => {
      db.transaction(() => insert.run({ folderId: null, ...input }))();
    },
    // The service never runs ANALYZE on SQLite, so neither do we: only fold the WAL back in.
    settle: async () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    explainListing: async (tenantId) =>
      (
        db.prepare(`explain query plan ${LISTING_SQL.replace('$1', '?')}`).all(tenantId) as Array<{
          detail: string;
        }>
      )
        .map((r) => r.detail)
        .join('\n'),
    close: async () => {
      db.close();
    },
  };
}

async function openPostgres(databaseUrl: string): Promise<BulkTarget> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ts = `to_char(timestamp '2024-01-01' + n * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return {
    insert: async ({ tenantId, userId, from, to, folderId }) => {
      await client.query(
        `insert into documents (id, tenant_id, folder_id, name, status, pinned, source, user_id,
          signing_method, signing_message, signing_order_enabled, signing_groups_enabled,
          reminder_cooldown_until, email_language, file, original_file, content_type, size_bytes,
          original_sha256, hash, sealed_file, search_text, created_at, updated_at)
        select
          lpad(to_hex((n * 2654435761) % 4294967296), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'),
          $1, case when n % ${FOLDER_EVERY} = 0 then $5 end, 'Contract ' || n,
          (array[${STATUSES.map((s) => `'${s}'`).join(',')}])[n % 5 + 1],
          case when n % ${PINNED_EVERY} = 0 then '2024-06-01T00:00:00.000Z' end,
          'uploaded', $2, 'email', null, null, 0, null, 'en',
          'documents/bench/original.pdf', 'contract.pdf', 'application/pdf', 200000,
          '${'0'.repeat(64)}', null, null,
          'contract ' || n || chr(10) || 'signee ' || n || chr(10) || 'signee-' || n || '@example.com',
          ${ts}, ${ts}
        from generate_series($3::bigint, $4::bigint - 1) as n`,
        [tenantId, userId, from, to, folderId ?? null],
      );
    },
    // Autovacuum would get there within a minute or so of the load; do it now, deterministically.
    settle: async () => {
      await client.query('vacuum analyze documents');
    },
    explainListing: async (tenantId) =>
      (
        await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${LISTING_SQL}`, [
          tenantId,
        ])
      ).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n'),
    close: () => client.end(),
  };
}

/** Opens the service's database for bulk writes. */
export async function openBulkTarget(
  engine: 'sqlite' | 'postgres',
  options: { dataDir: string; databaseUrl: string | null },
): Promise<BulkTarget> {
  if (engine === 'sqlite') return openSqlite(options.dataDir);
  if (!options.databaseUrl) throw new Error('PostgreSQL needs a database URL');
  return openPostgres(options.databaseUrl);
}
