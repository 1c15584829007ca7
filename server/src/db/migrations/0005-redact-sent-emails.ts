import type { Kysely } from 'kysely';

type Emails = { emails: { id: string; status: string; html: string; text: string } };

// Frozen copy of the delivery-time redaction (modules/mail): a migration keeps its own rule.
const redact = (body: string) =>
  body.replace(/https?:\/\/[^\s"'<>]+/g, '[link removed after delivery]');

/**
 * E-mails delivered by SMTP before links were redacted at delivery still hold signing links
 * and verification tokens: remove their links too. The dev mailbox's `stored` rows are the
 * delivery itself (sandbox only) and stay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const emails = db as unknown as Kysely<Emails>;
  let after = '';
  for (;;) {
    const rows = await emails
      .selectFrom('emails')
      .select(['id', 'html', 'text'])
      .where('status', '=', 'sent')
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    for (const row of rows) {
      await emails
        .updateTable('emails')
        .set({ html: redact(row.html), text: redact(row.text) })
        .where('id', '=', row.id)
        .execute();
    }
    if (rows.length < 500) return;
    after = rows[rows.length - 1].id;
  }
}

/** Nothing to undo: the links are gone. */
export async function down(): Promise<void> {}
