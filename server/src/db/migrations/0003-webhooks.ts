import type { Kysely } from 'kysely';

/** Webhook configurations, their deliveries (one per event × webhook × series) and attempts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The job runner claims per pool of kinds (webhook attempts have their own): this index lets
  // it find a kind's due jobs without walking past another kind's backlog.
  await db.schema
    .createIndex('jobs_kind_due_idx')
    .on('jobs')
    .columns(['status', 'kind', 'run_at'])
    .execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    // AES-256-GCM ciphertext of the signing secret: the server must sign, so it cannot hash it.
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhooks_tenant_idx')
    .on('webhooks')
    .columns(['tenant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) =>
      c.notNull().references('webhooks.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Start of attempt 1: the schedule (0 s, 5 s, 25 s) is measured from here.
    .addColumn('dispatched_at', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook_idx')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_event_idx')
    .on('webhook_deliveries')
    .column('event_id')
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('scheduled_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    // The primary key is what makes each attempt happen at most once across processes.
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
    .execute();
}

/** Drops everything up() made. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.dropIndex('jobs_kind_due_idx').execute();
}
