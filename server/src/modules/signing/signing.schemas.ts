import { z } from 'zod';
import { fieldSchema, MAX_FIELDS, MAX_TEXT_VALUE } from '../fields/fields.schemas.js';
import { signeeRoleSchema } from '../documents/signee-roles.js';
import { brandViewSchema } from '../tenants/branding.schemas.js';

/** Path parameters of the signing routes: the link's token, which is the credential. */
export const tokenParams = z.object({ token: z.string().min(10).max(200) });

/** The signee as the signing page sees them. */
export const signeeView = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  status: z.enum(['pending', 'signed', 'declined']),
  role: signeeRoleSchema.describe(
    'signer: signs (POST …/sign); approver: approves (POST …/approve) or rejects (POST …/decline), with no signature and no field',
  ),
});

/** The document as the signing page sees it. */
export const documentView = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.string(),
  signingMessage: z.string().nullable(),
  /** The document's language (its `emailLanguage`): the page speaks it. */
  language: z.string(),
  redirectUrl: z
    .string()
    .nullable()
    .describe(
      'After signing (or approving) or declining, the page goes here with ?documentId=…&signeeId=…&event=signed|declined appended (an approval is event=signed)',
    ),
});

// 1 MiB of image as base64 (4 characters for 3 bytes), with its data: prefix.
const UPLOADED_DATA_URL_CHARS = Math.ceil((1024 * 1024) / 3) * 4 + 30;

const adoptedMark = z.discriminatedUnion('type', [
  z.object({ type: z.literal('typed'), text: z.string().trim().min(1).max(200) }),
  z.object({
    type: z.literal('drawn'),
    image: z
      .string()
      .max(2_000_000)
      .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, 'must be a PNG data URL'),
  }),
  z.object({
    type: z.literal('uploaded'),
    image: z
      .string()
      .max(UPLOADED_DATA_URL_CHARS, 'must be an image of at most 1 MiB')
      .regex(
        /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/,
        'must be a PNG or JPEG data URL (data:image/png;base64,… or data:image/jpeg;base64,…)',
      )
      .describe(
        'a picture of a signature: PNG or JPEG, at most 1 MiB and 4096 x 4096 pixels; decoded and encoded again as a PNG',
      ),
  }),
]);

/**
 * Body of a signature: consent, a typed name, a drawn PNG or an uploaded PNG or JPEG, optional initials of the same
 * shape (derived from the name when absent), and the values of the signee's own fields. The
 * PNGs' own bytes are checked after decoding, by the route.
 */
export const signBody = z.object({
  consent: z.literal(true, 'you must agree to sign electronically'),
  signature: adoptedMark,
  initials: adoptedMark.optional(),
  fields: z
    .array(
      z
        .object({
          id: z.uuid(),
          value: z.union([z.string().max(MAX_TEXT_VALUE), z.boolean()]),
        })
        .strict(),
    )
    .max(MAX_FIELDS)
    .optional(),
});

/** Body of an approval: nothing, or an empty object. */
export const approveBody = z.object({}).strict().nullish();

/** Body of a refusal to sign (or an approver's rejection). */
export const declineBody = z.object({ reason: z.string().trim().min(1).max(1000) });

/** What the signing page is shown: the signee, the document and whether they may sign now. */
export const signingViewResponse = z.object({
  signee: signeeView,
  document: documentView.extend({ senderName: z.string() }),
  canSign: z.boolean(),
  reason: z.enum(['not_your_turn', 'signed', 'declined', 'group_signed']).nullable(),
  fileUrl: z.string(),
  /** This signee's fields, to fill on the pages. */
  fields: z.array(fieldSchema),
  /** Other signees' fields that already hold a value, shown in place. */
  filledFields: z.array(fieldSchema.extend({ signeeName: z.string() })),
  /** Each page as displayed, in points: where the fields' places are measured. */
  pages: z.array(z.object({ width: z.number(), height: z.number() })),
  /** The tenant's brand: the page wears its name, logo and colour. */
  brand: brandViewSchema,
});

/** The answer of sign and decline: the signee and the document after the step. */
export const signingStepResponse = z.object({ signee: signeeView, document: documentView });

/** What became of a signing link's document, for the page to say (GET …/status). */
export const linkStatusResponse = z.object({
  state: z
    .enum(['open', 'sealing', 'signed', 'declined', 'cancelled', 'expired'])
    .describe(
      'open: signing goes on; sealing: everyone signed, the signed copy is being made; signed; declined (by a signee); cancelled (by the sender); expired (the deadline passed)',
    ),
  /** The signee's language (the document's emailLanguage unless the signee has their own). */
  language: z.string(),
  document: z.object({ id: z.uuid(), name: z.string(), senderName: z.string() }),
  signee: signeeView,
  declinedBy: z
    .object({ you: z.boolean(), name: z.string() })
    .nullable()
    .describe(
      'declined: the signee who declined (as the decline notice names them) and whether it is this link’s own; their reason is only the sender’s',
    ),
  /** The tenant's brand, as the signing page wears it. */
  brand: brandViewSchema,
  copy: z
    .object({
      status: z
        .enum(['available', 'revoked', 'expired'])
        .describe('revoked: the sender revoked the copy links; expired: 30 days after signing'),
      url: z
        .string()
        .nullable()
        .describe('while available: the download, /api/signing/{token}/copy'),
      expiresAt: z.string(),
    })
    .nullable()
    .describe(
      "signed: this signee's copy of the sealed PDF (null for a document signed before links served copies)",
    ),
});
