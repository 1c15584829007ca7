import { randomBytes } from 'node:crypto';
import type { Db, DbOrTrx } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import type { Storage } from '../storage/storage.js';
import { logoPath } from './branding.js';
import { reencodeLogo } from './logo-image.js';
import * as repo from './tenants.repo.js';
import { requireMembership } from './tenants.service.js';
import { recordActivity, type ActivityBy } from './activity.js';

/** What the logo routes need. */
export type LogoDeps = { db: Db; storage: Storage; publicUrl: string };

/** A tenant's logo in API form: its public URL and its size in pixels. */
export type Logo = { url: string; width: number; height: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NAME = /^[0-9a-f]{32}\.png$/;

/**
 * The storage key of a logo, which is also its public path: `brand/<tenant id>/<name>.png`. The
 * name is 128 random bits, new for each upload: the URL cannot be guessed from the tenant id,
 * and what it points at never changes (an immutable cache is then right).
 */
function newLogoKey(tenantId: string): string {
  return `brand/${tenantId}/${randomBytes(16).toString('hex')}.png`;
}

/** The key a public logo path names, or null when it is not one we make. */
export function logoKeyOf(tenantId: string, file: string): string | null {
  return UUID.test(tenantId) && NAME.test(file) ? `brand/${tenantId}/${file}` : null;
}

/** The key itself when it is a logo's (orphan cleanup: its owner is the key). */
export function logoKeyOwner(key: string): string | null {
  const [root, tenantId, file, ...rest] = key.split('/');
  if (root !== 'brand' || rest.length > 0 || !tenantId || !file) return null;
  return logoKeyOf(tenantId, file) === key ? key : null;
}

/** Of these logo keys, the ones a tenant still shows (orphan cleanup keeps them). */
export async function referencedLogoKeys(db: DbOrTrx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('tenants')
    .select('logo_key')
    .where('logo_key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.logo_key!));
}

function present(
  row: Pick<repo.TenantRow, 'logo_key' | 'logo_width' | 'logo_height'>,
  publicUrl: string,
): Logo | null {
  if (!row.logo_key) return null;
  return {
    url: `${publicUrl}${logoPath(row.logo_key)}`,
    width: row.logo_width ?? 0,
    height: row.logo_height ?? 0,
  };
}

/** The tenant's logo, or null (any member). */
export async function getLogo(deps: LogoDeps, input: { tenantId: string; userId: string }) {
  await requireMembership(deps.db.kysely, { ...input, action: 'tenant.read' });
  const tenant = await repo.findTenant(deps.db.kysely, input.tenantId);
  if (!tenant) throw new AppError('not_found', 'No such tenant.');
  return present(tenant, deps.publicUrl);
}

// Points the tenant at `next` (or no logo) under its row lock, and answers the key it replaced.
async function swapLogo(
  deps: LogoDeps,
  input: { tenantId: string; userId: string; by: ActivityBy },
  next: { key: string; width: number; height: number } | null,
): Promise<string | null> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, { ...input, action: 'settings.manage' });
    // Two uploads at once: each replaces what the other left, and each old file goes.
    await repo.lockTenant(trx, deps.db.engine, input.tenantId);
    const before = await repo.findTenant(trx, input.tenantId);
    await repo.updateTenant(trx, input.tenantId, {
      logo_key: next?.key ?? null,
      logo_width: next?.width ?? null,
      logo_height: next?.height ?? null,
      updated_at: nowIso(),
    });
    // Removing no logo changes nothing, and writes no entry.
    if (next || before?.logo_key) {
      await recordActivity(trx, {
        tenantId: input.tenantId,
        action: next ? 'logo.updated' : 'logo.removed',
        by: input.by,
        details: next ? { width: next.width, height: next.height } : {},
      });
    }
    return before?.logo_key ?? null;
  });
}

/**
 * Replaces the tenant's logo (owner or admin): the upload is decoded and re-encoded
 * (logo-image.ts) before anything is stored, so a refused file changes nothing. The new file
 * is stored before the row points at it, and the old one removed after; a process dying in
 * between leaves a file no row names, which orphan cleanup removes.
 */
export async function putLogo(
  deps: LogoDeps,
  input: { tenantId: string; userId: string; by: ActivityBy; bytes: Buffer },
): Promise<Logo> {
  // Checked first: a caller who may not change the logo gets no decoding done for them.
  await requireMembership(deps.db.kysely, { ...input, action: 'settings.manage' });
  const logo = await reencodeLogo(input.bytes);
  const key = newLogoKey(input.tenantId);
  await deps.storage.put(key, logo.png, 'image/png');
  let old: string | null;
  try {
    old = await swapLogo(deps, input, { key, width: logo.width, height: logo.height });
  } catch (err) {
    await deps.storage.delete(key);
    throw err;
  }
  if (old) await deps.storage.delete(old);
  return present(
    { logo_key: key, logo_width: logo.width, logo_height: logo.height },
    deps.publicUrl,
  )!;
}

/** Removes the tenant's logo (owner or admin); removing none is no error. */
export async function deleteLogo(
  deps: LogoDeps,
  input: { tenantId: string; userId: string; by: ActivityBy },
) {
  const old = await swapLogo(deps, input, null);
  if (old) await deps.storage.delete(old);
}

/**
 * A logo by its public path, for anyone (e-mails, signing pages): only the file its tenant
 * shows now; a replaced or removed logo is gone (404).
 */
export async function openPublicLogo(
  deps: Pick<LogoDeps, 'db' | 'storage'>,
  input: { tenantId: string; file: string },
) {
  const key = logoKeyOf(input.tenantId, input.file);
  const tenant = key ? await repo.findTenant(deps.db.kysely, input.tenantId) : undefined;
  if (!key || tenant?.logo_key !== key) throw new AppError('not_found', 'No such logo.');
  try {
    return await deps.storage.get(key);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') {
      throw new AppError('not_found', 'No such logo.');
    }
    throw err;
  }
}
