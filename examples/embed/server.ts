// Embedded signing, end to end (docs/embedding.md): a host page and this small server, which
// creates a document through Signet's API, sends it without e-mails and hands the page the
// signing link to open with Signet.mount. Run with:
//   SIGNET_API_KEY=<an owner's or admin's key> SIGNET_TENANT_ID=<tenant id> \
//     npx tsx examples/embed/server.ts
// then open http://localhost:4000 (SIGNET_URL defaults to http://localhost:3000, PORT to 4000).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importJWK, SignJWT, type JWK } from 'jose';
import { createSignetClient } from '../../sdk/src/index.js';
import { sampleContract } from './sample-contract.js';

/** An identity key registered with the tenant (PUT /api/tenants/{id}/identity-keys). */
export type IdentityKey = {
  privateJwk: JWK & { kid: string; alg: 'ES256' | 'RS256' };
  issuer: string;
};

/** What the example needs to run. */
export type EmbedExampleOptions = {
  signetUrl: string;
  apiKey: string;
  tenantId: string;
  /** Where this server listens; its origin is http://{host}:{port}. */
  host?: string;
  port?: number;
  /** Vouch for the signee with an identity token (optional; needs a registered key). */
  identity?: IdentityKey;
  /** The PDF to sign; a generated one-page agreement by default. */
  contract?: Buffer;
};

/**
 * An identity token for a signee (decisions §13): the signee's id as audience, their e-mail, our
 * own user id as subject, valid 5 minutes (at most 10 are accepted) and usable once (jti).
 */
export async function identityToken(
  identity: IdentityKey,
  signee: { id: string; email: string },
  userId: string,
): Promise<string> {
  const key = await importJWK(identity.privateJwk, identity.privateJwk.alg);
  return new SignJWT({ email: signee.email })
    .setProtectedHeader({ alg: identity.privateJwk.alg, kid: identity.privateJwk.kid })
    .setIssuer(identity.issuer)
    .setSubject(userId)
    .setAudience(signee.id)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(randomUUID())
    .sign(key);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) throw new Error('body too large');
  }
  return JSON.parse(body) as Record<string, unknown>;
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Starts the example's server; resolves once it listens and the tenant is set up. */
export async function startEmbedExample(options: EmbedExampleOptions) {
  const { signetUrl, apiKey, tenantId } = options;
  const host = options.host ?? 'localhost';
  const port = options.port ?? 4000;
  const origin = `http://${host}:${port}`;
  const signet = createSignetClient({ baseUrl: signetUrl, apiKey });

  // Once: no invitation e-mails (this page shows the link itself), and this origin may frame
  // the signing pages. Other origins the tenant lists are kept.
  const settingsUrl = `${signetUrl}/api/tenants/${tenantId}/settings`;
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const current = await fetch(settingsUrl, { headers });
  if (!current.ok) throw new Error(`reading the tenant's settings: ${await current.text()}`);
  const { settings } = (await current.json()) as { settings: { embedOrigins: string[] } };
  const embedOrigins = [...new Set([...settings.embedOrigins, origin])];
  const patched = await fetch(settingsUrl, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ invitationEmails: false, embedOrigins }),
  });
  if (!patched.ok) throw new Error(`updating the tenant's settings: ${await patched.text()}`);

  const page = (await readFile(path.join(import.meta.dirname, 'index.html'), 'utf8')).replace(
    '%SIGNET_URL%',
    signetUrl,
  );

  // The customer asks to sign: create the document for them, send it, answer its link.
  async function createContract(req: IncomingMessage, res: ServerResponse) {
    const { name, email } = await readJson(req);
    if (typeof name !== 'string' || typeof email !== 'string') {
      return sendJson(res, 422, { error: 'name and email are required' });
    }
    const { document } = await signet.documents.quickCreate({
      tenantId,
      name: 'Service agreement',
      file: options.contract ?? sampleContract(name),
      signees: [{ name, email }],
    });
    const sent = await signet.documents.sendForSigning(document.id);
    const delivery = sent.deliveries[0];
    if (!delivery?.signingUrl) throw new Error('no signing link: are invitation e-mails off?');
    let signingUrl = delivery.signingUrl;
    if (options.identity) {
      const token = await identityToken(options.identity, { id: delivery.signeeId, email }, email);
      signingUrl += `?identity=${encodeURIComponent(token)}`;
    }
    sendJson(res, 201, { documentId: document.id, signingUrl });
  }

  // What the page reports is checked here, with the API, before anything is done about it.
  async function contractStatus(documentId: string, res: ServerResponse) {
    const { document, signees } = await signet.documents.get(documentId);
    sendJson(res, 200, { status: document.status, signeeStatus: signees[0]?.status ?? null });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const route =
      req.method === 'GET' && url.pathname === '/'
        ? async () => void res.writeHead(200, { 'content-type': 'text/html' }).end(page)
        : req.method === 'POST' && url.pathname === '/contracts'
          ? () => createContract(req, res)
          : req.method === 'GET' && /^\/contracts\/[\w-]+$/.test(url.pathname)
            ? () => contractStatus(url.pathname.split('/')[2]!, res)
            : async () => void res.writeHead(404).end();
    route().catch((err: unknown) => {
      console.error(err);
      if (!res.headersSent) sendJson(res, 502, { error: 'Signet did not answer as expected' });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    origin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const required = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is required`);
    return value;
  };
  const jwk = process.env.IDENTITY_PRIVATE_JWK;
  const started = await startEmbedExample({
    signetUrl: (process.env.SIGNET_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    apiKey: required('SIGNET_API_KEY'),
    tenantId: required('SIGNET_TENANT_ID'),
    port: Number(process.env.PORT ?? 4000),
    contract: process.env.CONTRACT_PDF ? await readFile(process.env.CONTRACT_PDF) : undefined,
    identity: jwk
      ? {
          privateJwk: JSON.parse(jwk),
          issuer: process.env.IDENTITY_ISSUER ?? 'https://acme.example',
        }
      : undefined,
  });
  console.log(`Open ${started.origin}`);
}
