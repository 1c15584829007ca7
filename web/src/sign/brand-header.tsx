import type { CSSProperties } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { brandColorVariables } from '../../../server/src/modules/tenants/brand-colors.js';
import './brand.css';

/** A tenant's brand as the signing API gives it; null parts are Signet's. */
export type SigningBrand = Api.SigningBrand;

const COLOR = /^#[0-9a-f]{6}$/i;

/**
 * What the page's root wears for a brand colour: the accent variables (base.css) set to it,
 * its button text white or black by luminance, and text on white kept readable (brand-colors.ts).
 * Only a `#rrggbb` the server validated ever reaches a style.
 */
export function brandRootProps(brand: SigningBrand | null | undefined): {
  className: string;
  style?: CSSProperties;
} {
  if (!brand?.color || !COLOR.test(brand.color)) return { className: 'app' };
  return {
    className: 'app branded',
    style: brandColorVariables(brand.color) as CSSProperties,
  };
}

// Signet's own mark and name: the header of an unbranded page, and the small credit beside a
// brand (the signee still sees which service handles their signature).
function SignetMark(props: { small?: boolean }) {
  return (
    <span className={props.small ? 'brand brand-credit' : 'brand'}>
      <span className="brand-mark" aria-hidden="true" />
      Signet
    </span>
  );
}

/**
 * The page header's content: the tenant's logo and/or name with a small Signet credit, or
 * Signet's mark alone when the tenant has no brand. React escapes the name; the logo is an
 * image of the service's own (re-encoded on upload), never markup.
 */
export function BrandHeader(props: { brand?: SigningBrand | null }) {
  const { name, logoUrl } = props.brand ?? { name: null, logoUrl: null };
  if (!name && !logoUrl) return <SignetMark />;
  return (
    <>
      <span className="brand brand-tenant">
        {logoUrl && <img className="brand-logo" src={logoUrl} alt={name ?? ''} />}
        {name && (
          <span className="brand-name" aria-hidden={logoUrl ? true : undefined}>
            {name}
          </span>
        )}
      </span>
      <SignetMark small />
    </>
  );
}
