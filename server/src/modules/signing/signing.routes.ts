import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { sendWebPage } from '../../http/web-assets.js';
import * as signing from './signing.service.js';

const tokenParams = z.object({ token: z.string().min(10).max(200) });
const signeeView = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  status: z.enum(['pending', 'signed', 'declined']),
});
const documentView = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.string(),
  signingMessage: z.string().nullable(),
});
const signBody = z.object({
  consent: z.literal(true, 'you must agree to sign electronically'),
  signature: z.discriminatedUnion('type', [
    z.object({ type: z.literal('typed'), text: z.string().trim().min(1).max(200) }),
    z.object({
      type: z.literal('drawn'),
      image: z
        .string()
        .max(2_000_000)
        .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, 'must be a PNG data URL'),
    }),
  ]),
});
const declineBody = z.object({ reason: z.string().trim().min(1).max(1000) });
const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');

function present(r: {
  signee: { id: string; name: string; email: string; status: 'pending' | 'signed' | 'declined' };
  document: { id: string; name: string; status: string; signing_message: string | null };
}) {
  return {
    signee: {
      id: r.signee.id,
      name: r.signee.name,
      email: r.signee.email,
      status: r.signee.status,
    },
    document: {
      id: r.document.id,
      name: r.document.name,
      status: r.document.status,
      signingMessage: r.document.signing_message,
    },
  };
}

/** The JSON behind the signing page; the link's token is the credential. */
export function registerSigningRoutes(app: App, deps: AppDeps) {
  const d: signing.SigningDeps = {
    db: deps.db,
    storage: deps.storage,
    config: deps.config,
    wakeJobs: () => deps.jobs.wake(),
  };
  const tags = ['signing'];
  const security: Array<Record<string, string[]>> = [];

  // The page itself; everything it shows comes from the JSON routes below.
  app.get('/sign/:token', { schema: { hide: true } }, async (_request, reply) =>
    sendWebPage(reply, 'sign'),
  );

  app.get(
    '/api/signing/:token',
    {
      schema: {
        tags,
        security,
        params: tokenParams,
        response: {
          200: z.object({
            signee: signeeView,
            document: documentView.extend({ senderName: z.string() }),
            canSign: z.boolean(),
            reason: z.enum(['not_your_turn', 'signed', 'declined', 'group_signed']).nullable(),
            fileUrl: z.string(),
          }),
          ...errorResponses(404, 410),
        },
      },
    },
    async (request) => {
      const view = await signing.viewSigning(d, request.params.token, originOf(request));
      const base = present(view);
      return {
        signee: base.signee,
        document: { ...base.document, senderName: view.senderName },
        canSign: view.canSign,
        reason: view.reason,
        fileUrl: `/api/signing/${request.params.token}/file`,
      };
    },
  );

  app.get(
    '/api/signing/:token/file',
    { schema: { tags, security, params: tokenParams } },
    async (request, reply) => {
      const { stream } = await signing.signingFile(d, request.params.token);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.post(
    '/api/signing/:token/sign',
    {
      schema: {
        tags,
        security,
        params: tokenParams,
        body: signBody,
        response: {
          200: z.object({ signee: signeeView, document: documentView }),
          ...errorResponses(404, 409, 410, 422),
        },
      },
    },
    async (request) => {
      const s = request.body.signature;
      let signature: signing.SignatureInput;
      if (s.type === 'drawn') {
        const image = Buffer.from(s.image.slice(s.image.indexOf(',') + 1), 'base64');
        if (!image.subarray(0, 8).equals(PNG_MAGIC)) {
          throw new AppError('validation_failed', 'The drawn signature is not a PNG image.', {
            errors: [{ path: 'body.signature.image', message: 'must be a PNG image' }],
          });
        }
        signature = { type: 'drawn', image };
      } else {
        signature = { type: 'typed', text: s.text };
      }
      return present(
        await signing.signDocument(d, {
          token: request.params.token,
          signature,
          origin: originOf(request),
        }),
      );
    },
  );

  app.post(
    '/api/signing/:token/decline',
    {
      schema: {
        tags,
        security,
        params: tokenParams,
        body: declineBody,
        response: {
          200: z.object({ signee: signeeView, document: documentView }),
          ...errorResponses(404, 409, 410, 422),
        },
      },
    },
    async (request) =>
      present(
        await signing.declineDocument(d, {
          token: request.params.token,
          reason: request.body.reason,
          origin: originOf(request),
        }),
      ),
  );
}
