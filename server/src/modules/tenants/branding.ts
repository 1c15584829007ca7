import type { DbOrTrx } from '../../db/handle.js';
import { findTenant, type TenantRow } from './tenants.repo.js';

/** The branding settings in API form. */
export type BrandSettings = { brandName: string | null; brandColor: string | null };

/** What a tenant row holds before any branding: for inserts. */
export const NO_BRAND = {
  brand_name: null,
  brand_color: null,
  logo_key: null,
  logo_width: null,
  logo_height: null,
} as const;

/** A row's branding settings in API form. */
export function presentBrandSettings(t: TenantRow): BrandSettings {
  return { brandName: t.brand_name, brandColor: t.brand_color };
}

/** The columns a settings patch changes, for the ones it names. */
export function brandSettingsColumns(
  patch: Partial<BrandSettings>,
): Partial<Pick<TenantRow, 'brand_name' | 'brand_color'>> {
  return {
    ...(patch.brandName !== undefined && { brand_name: patch.brandName }),
    // Stored lower case, so pages, e-mails and answers all show one spelling.
    ...(patch.brandColor !== undefined && { brand_color: patch.brandColor?.toLowerCase() ?? null }),
  };
}

/** A tenant's brand as pages and e-mails wear it; every part null when unset. */
export type Brand = { name: string | null; color: string | null; logoUrl: string | null };

/** A brand with its logo's size in pixels, for laying it out in e-mails. */
export type SizedBrand = Brand & { logoSize: { width: number; height: number } | null };

/** Signet's own look: what a tenant without branding, or none at all, shows. */
export const SIGNET_BRAND: SizedBrand = { name: null, color: null, logoUrl: null, logoSize: null };

/** The path (under PUBLIC_URL) of a stored logo: `/brand/<tenant id>/<name>.png`. */
export function logoPath(logoKey: string): string {
  // logo_key is brand/<tenant id>/<name>.png, which is the public path too (logo.ts).
  return `/${logoKey}`;
}

/** A tenant row's brand, its logo as an absolute URL under `publicUrl`. */
export function brandOf(
  t: Pick<TenantRow, 'brand_name' | 'brand_color' | 'logo_key' | 'logo_width' | 'logo_height'>,
  publicUrl: string,
): SizedBrand {
  return {
    name: t.brand_name,
    color: t.brand_color,
    logoUrl: t.logo_key ? `${publicUrl}${logoPath(t.logo_key)}` : null,
    logoSize:
      t.logo_key && t.logo_width && t.logo_height
        ? { width: t.logo_width, height: t.logo_height }
        : null,
  };
}

/** The brand of a tenant's documents' pages and e-mails (Signet's when it has none). */
export async function loadBrand(
  db: DbOrTrx,
  tenantId: string,
  publicUrl: string,
): Promise<SizedBrand> {
  const tenant = await findTenant(db, tenantId);
  return tenant ? brandOf(tenant, publicUrl) : SIGNET_BRAND;
}
