import type { Db } from '../../db/handle.js';
import { preparedQuery } from '../../db/prepared.js';
import { hashSecret } from '../../lib/ids.js';
import { decodeEmbedOrigins } from '../tenants/embed-origins.js';

// One read by the link's unique token hash, joined on primary keys to the document's tenant:
// the signing page asks it on every load, before its own JSON is fetched.
const embedOriginsByTokenHash = preparedQuery((db, p: { tokenHash: string }) =>
  db
    .selectFrom('signees')
    .innerJoin('documents', 'documents.id', 'signees.document_id')
    .innerJoin('tenants', 'tenants.id', 'documents.tenant_id')
    .select('tenants.embed_origins')
    .where('signees.token_hash', '=', p.tokenHash),
);

/**
 * The origins that may frame a signing link's page (decisions §13): its document's tenant's
 * `embedOrigins`, whatever the document's state, so an embedded page can still say that the link
 * is over; [] for a token that opens nothing, as for a tenant that embeds nowhere.
 */
export async function embedOriginsOfLink(db: Db, token: string): Promise<string[]> {
  const [row] = await embedOriginsByTokenHash(db.kysely, { tokenHash: hashSecret(token) });
  return row ? decodeEmbedOrigins(row.embed_origins) : [];
}
