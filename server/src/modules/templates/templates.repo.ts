import { PostgresAdapter, sql, type Selectable } from 'kysely';
import { containsPattern } from '../documents/search-text.js';
import type { DbOrTrx, Engine } from '../../db/handle.js';
import { preparedQuery } from '../../db/prepared.js';
import type { TemplatesTable } from '../../db/schema.js';
import type { Cursor } from '../../lib/cursor.js';
import { roleOrSigner, type SigneeRole } from '../documents/signee-roles.js';

/** A template row. */
export type TemplateRow = Selectable<TemplatesTable>;

/**
 * One of a template's roles: who signs in its place on each document made from it, and their
 * recipient role (`role`: signer, approver or cc).
 */
export type TemplateRole = {
  id: string;
  name: string;
  signingOrder: number | null;
  role: SigneeRole;
};

/** A template's roles, decoded; one saved before recipient roles existed is a signer. */
export function rolesOf(template: Pick<TemplateRow, 'roles'>): TemplateRole[] {
  return (
    JSON.parse(template.roles) as Array<Omit<TemplateRole, 'role'> & { role?: SigneeRole }>
  ).map((r) => ({ ...r, role: roleOrSigner(r.role) }));
}

/** Inserts a new template. */
export async function insertTemplate(db: DbOrTrx, template: TemplateRow) {
  await db.insertInto('templates').values(template).execute();
}

/** A template by id; `lock` holds it (PostgreSQL) until the caller's transaction ends. */
export async function findTemplate(
  db: DbOrTrx,
  templateId: string,
  lock?: { engine: Engine; mode: 'share' | 'update' },
) {
  const query = db.selectFrom('templates').selectAll().where('id', '=', templateId);
  if (lock?.engine !== 'postgres') return query.executeTakeFirst();
  return (lock.mode === 'share' ? query.forShare() : query.forUpdate()).executeTakeFirst();
}

const templateForUser = preparedQuery((q, p: { templateId: string; userId: string }) => {
  const query = q
    .selectFrom('templates')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.tenant_id', '=', 'templates.tenant_id')
        .on('memberships.user_id', '=', p.userId),
    )
    .selectAll('templates')
    .select('memberships.role as member_role')
    .where('templates.id', '=', p.templateId);
  return q.getExecutor().adapter instanceof PostgresAdapter ? query.forShare('templates') : query;
});
/**
 * A template with the user's role in its tenant (`member_role`, null for a non-member), in one
 * read; held for share (PostgreSQL) until the caller's transaction ends.
 */
export async function findTemplateForUser(db: DbOrTrx, templateId: string, userId: string) {
  return (await templateForUser(db, { templateId, userId }))[0];
}

/** The template whose direct link token hashes to this. */
export async function findTemplateByLinkHash(db: DbOrTrx, tokenHash: string) {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('direct_link_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Changes a template's columns. */
export async function updateTemplate(
  db: DbOrTrx,
  templateId: string,
  set: Partial<Omit<TemplateRow, 'id' | 'tenant_id'>>,
) {
  await db.updateTable('templates').set(set).where('id', '=', templateId).execute();
}

/** Deletes a template row; true when there was one. */
export async function deleteTemplate(db: DbOrTrx, templateId: string): Promise<boolean> {
  const result = await db.deleteFrom('templates').where('id', '=', templateId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A page of a tenant's templates, newest first, whose folded name holds `term`. */
export async function listTemplates(
  db: DbOrTrx,
  input: { tenantId: string; term?: string; limit: number; after?: Cursor },
) {
  let query = db.selectFrom('templates').selectAll().where('tenant_id', '=', input.tenantId);
  if (input.term) {
    query = query.where(sql<boolean>`search_text like ${containsPattern(input.term)} escape '\\'`);
  }
  if (input.after) {
    const { createdAt, id } = input.after;
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(createdAt, id)));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(input.limit).execute();
}

/**
 * Of these template ids, those whose file is still needed: the template exists, a document
 * made from it exists, or a bulk send of it has rows left to create.
 */
export async function referencedTemplateIds(db: DbOrTrx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const [templates, documents, bulk] = await Promise.all([
    db.selectFrom('templates').select('id').where('id', 'in', ids).execute(),
    db
      .selectFrom('documents')
      .select('template_id as id')
      .distinct()
      .where('template_id', 'in', ids)
      .execute(),
    db
      .selectFrom('bulk_sends')
      .select('template_id as id')
      .distinct()
      .where('template_id', 'in', ids)
      .where('status', '!=', 'completed')
      .execute(),
  ]);
  return new Set([...templates, ...documents, ...bulk].map((r) => r.id as string));
}
