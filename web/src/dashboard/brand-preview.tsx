import type { CSSProperties } from 'react';
import {
  brandColorVariables,
  contrastRatio,
  inkOn,
} from '../../../server/src/modules/tenants/brand-colors.js';
import { BrandHeader, type SigningBrand } from '../sign/brand-header.js';

const COLOR = /^#[0-9a-f]{6}$/i;
const SIGNET_BLUE = '#1d4ed8';

/** The brand as the form holds it: a colour only once it is a valid `#rrggbb`. */
export function previewBrand(input: {
  name: string;
  color: string;
  logoUrl: string | null;
}): SigningBrand {
  const name = input.name.trim();
  const color = input.color.trim();
  return {
    name: name === '' ? null : name,
    color: COLOR.test(color) ? color.toLowerCase() : null,
    logoUrl: input.logoUrl,
  };
}

/** "white text, 5.2:1": what a button in this colour will read like. */
export function buttonTextNote(color: string): string {
  const ink = inkOn(color);
  const ratio = contrastRatio(color, ink).toFixed(1);
  return `Buttons get ${ink === '#ffffff' ? 'white' : 'black'} text (contrast ${ratio}:1).`;
}

/**
 * Live previews of the brand, from the form as it stands (saved or not): the signing page's
 * header with a button, and the top of an invitation e-mail. Pictures, not controls: inert.
 */
export function BrandPreview(props: { brand: SigningBrand }) {
  const { brand } = props;
  const variables = brand.color ? (brandColorVariables(brand.color) as CSSProperties) : undefined;
  const button = brand.color ?? SIGNET_BLUE;
  return (
    <div className="brand-previews">
      <figure className="brand-preview" data-testid="signing-preview">
        <figcaption>Signing page</figcaption>
        <div
          className={`brand-preview-page${brand.color ? ' branded' : ''}`}
          style={variables}
          inert
        >
          <header className="site-header">
            <BrandHeader brand={brand} />
          </header>
          <div className="brand-preview-body">
            <p className="eyebrow">Please review and sign</p>
            <p className="brand-preview-title">Service agreement</p>
            <span className="button primary">Sign document</span>
          </div>
        </div>
      </figure>
      <figure className="brand-preview" data-testid="email-preview">
        <figcaption>E-mail</figcaption>
        <div className="brand-preview-mail" inert>
          {(brand.name || brand.logoUrl || brand.color) && (
            <div
              className="brand-preview-mail-head"
              style={{ borderBottomColor: brand.color ?? '#e5e7eb' }}
            >
              {brand.logoUrl && <img src={brand.logoUrl} alt={brand.name ?? ''} />}
              {brand.name && <strong>{brand.name}</strong>}
            </div>
          )}
          <p>Hello Sam Signee,</p>
          <p>Olivia Owner invites you to sign “Service agreement”.</p>
          <span
            className="brand-preview-mail-button"
            style={{ background: button, color: inkOn(button) }}
          >
            Review and sign
          </span>
          <p className="brand-preview-mail-foot">
            {brand.name ? `${brand.name} · Signet` : 'Signet'}
          </p>
        </div>
      </figure>
    </div>
  );
}
