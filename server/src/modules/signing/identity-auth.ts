import type { JWK } from 'jose';
import type { Db } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import { recordAudit, type RequestOrigin } from '../documents/audit.repo.js';
import { listIdentityKeys } from '../tenants/identity-keys.repo.js';
import { verifyIdentityToken, type VouchedIdentity } from './identity-token.js';
import type { LinkAuth } from './signee-auth.repo.js';

/**
 * Accepts an identity token for a link (decisions §13): verified against the tenant's keys
 * (identity-token.ts), its `jti` claimed for the tenant in the same transaction as the audit
 * entry, so a token opens one link once even when sent twice at once (a replay: 401
 * identity_replayed). Any signee's link takes one, whatever its `auth`: the vouched identity
 * joins the record. A refusal is audited too, with its code.
 */
export async function acceptIdentity(
  deps: { db: Db },
  input: { link: LinkAuth; token: string; origin: RequestOrigin },
): Promise<VouchedIdentity> {
  const { link } = input;
  const base = {
    documentId: link.documentId,
    tenantId: link.tenantId,
    actor: `signee:${link.signeeId}`,
    signeeId: link.signeeId,
    origin: input.origin,
  };
  const refused = async (err: unknown): Promise<never> => {
    if (err instanceof AppError) {
      await recordAudit(deps.db.kysely, {
        ...base,
        action: 'auth failed',
        details: { method: 'identity', reason: err.code },
      });
    }
    throw err;
  };
  const keys = (await listIdentityKeys(deps.db.kysely, link.tenantId)) as JWK[];
  const identity = await verifyIdentityToken({
    token: input.token,
    tenantId: link.tenantId,
    keys,
    signee: { id: link.signeeId, email: link.email },
  }).catch(refused);
  const now = nowIso();
  const claimed = await deps.db.kysely.transaction().execute(async (trx) => {
    // A used jti is kept only until its token expires: no token can be replayed after that.
    await trx
      .deleteFrom('identity_token_uses')
      .where('tenant_id', '=', link.tenantId)
      .where('expires_at', '<', now)
      .execute();
    const inserted = await trx
      .insertInto('identity_token_uses')
      .values({
        tenant_id: link.tenantId,
        jti: identity.jti,
        expires_at: identity.expiresAt,
        used_at: now,
      })
      .onConflict((c) => c.columns(['tenant_id', 'jti']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await recordAudit(trx, {
      ...base,
      action: 'auth succeeded',
      details: {
        method: 'identity',
        issuer: identity.issuer,
        subject: identity.subject,
        keyId: identity.keyId,
      },
      at: now,
    });
    return true;
  });
  if (!claimed) {
    await refused(new AppError('identity_replayed', 'This identity token has been used already.'));
  }
  return identity;
}
