import { AppError } from '../../lib/errors.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { sendWebPage } from '../../http/web-assets.js';
import {
  declineBody,
  signBody,
  signingStepResponse,
  signingViewResponse,
  tokenParams,
} from './signing.schemas.js';
import * as signing from './signing.service.js';

// A PNG file's first eight bytes.
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
          200: signingViewResponse,
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
          200: signingStepResponse,
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
          200: signingStepResponse,
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
