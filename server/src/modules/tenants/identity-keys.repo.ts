import type { DbOrTrx } from '../../db/handle.js';

/** A public JWK as stored: what verifying needs and what names it, nothing else. */
export type StoredJwk = {
  kty: 'RSA' | 'EC';
  kid: string;
  alg?: 'RS256' | 'ES256';
  use?: 'sig';
  n?: string;
  e?: string;
  crv?: 'P-256';
  x?: string;
  y?: string;
};

/** A tenant's identity keys in the order they were given. */
export async function listIdentityKeys(db: DbOrTrx, tenantId: string): Promise<StoredJwk[]> {
  const rows = await db
    .selectFrom('tenant_identity_keys')
    .select('jwk')
    .where('tenant_id', '=', tenantId)
    .orderBy('position')
    .execute();
  return rows.map((r) => JSON.parse(r.jwk) as StoredJwk);
}

/** Replaces a tenant's identity keys with these, inside the caller's transaction. */
export async function replaceIdentityKeys(
  db: DbOrTrx,
  input: { tenantId: string; keys: StoredJwk[]; at: string },
): Promise<void> {
  await db.deleteFrom('tenant_identity_keys').where('tenant_id', '=', input.tenantId).execute();
  if (input.keys.length === 0) return;
  await db
    .insertInto('tenant_identity_keys')
    .values(
      input.keys.map((jwk, position) => ({
        tenant_id: input.tenantId,
        kid: jwk.kid,
        position,
        jwk: JSON.stringify(jwk),
        created_at: input.at,
      })),
    )
    .execute();
}
