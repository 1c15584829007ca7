import { z } from 'zod';
import { BRAND_COLOR_PATTERN } from './brand-colors.js';

// Bidirectional overrides and isolates: a name that reorders the text around it.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/u;

/** The branding settings (decisions §13) as settingsSchema holds them. */
export const brandSettingsShape = {
  brandName: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine(
      (v) => !/[\p{Cc}\p{Zl}\p{Zp}]/u.test(v) && !BIDI_CONTROLS.test(v),
      'must be one line of text without control characters',
    )
    .nullable()
    .describe(
      "Shown on the signing page and in the e-mails of this tenant's documents in place of Signet's name; null: Signet",
    ),
  brandColor: z
    .string()
    .regex(BRAND_COLOR_PATTERN, 'must be a colour like #1a2b3c')
    .nullable()
    .describe(
      'Accent colour (#rrggbb) of the signing page and the e-mails; button text is white or black, whichever reads better; null: Signet blue',
    ),
};

/** A tenant's brand as the signing page is given it (decisions §13). */
export const brandViewSchema = z
  .object({
    name: z.string().nullable().describe("The tenant's brandName; null: show Signet"),
    color: z
      .string()
      .nullable()
      .describe('The brandColor (#rrggbb) for buttons and accents; null: Signet blue'),
    logoUrl: z.string().nullable().describe("The tenant's logo (a PNG at most 400 x 120), or null"),
  })
  .meta({ id: 'SigningBrand' });

/** A tenant's logo as the API shows it. */
export const logoSchema = z
  .object({
    url: z.string().describe('Public, unguessable and immutable: e-mails and pages load it'),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: 'TenantLogo' });
