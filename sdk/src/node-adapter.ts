// node:http and Express adapters. Both need the raw body bytes, so they read the request
// stream themselves unless a raw-body parser (express.raw) already did.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  assertReceiverOptions,
  handleWebhook,
  type WebhookErrorCode,
  type WebhookReceiverOptions,
  type WebhookResponseBody,
} from './receiver.js';
import type { WebhookRawBody } from './verify-webhook.js';

/** Deliveries are small JSON envelopes; anything near this size is not one of them. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type NodeWebhookHandlerOptions = WebhookReceiverOptions & {
  /** Largest accepted body in bytes; a larger one answers 413. Default 1 MiB. */
  maxBodyBytes?: number;
};

/** What the Express handler needs of a request: Node's, plus the `body` a parser may set. */
export type ExpressLikeRequest = IncomingMessage & { body?: unknown };

/** Creates a node:http request listener that receives webhook deliveries (POST only). */
export function createNodeWebhookHandler(
  options: NodeWebhookHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const maxBodyBytes = checkOptions(options);
  return (req, res) => {
    void serve(req, res, options, maxBodyBytes, undefined);
  };
}

/** Creates an Express-style `(req, res)` handler; use `express.raw()` or no body parser. */
export function createExpressWebhookHandler(
  options: NodeWebhookHandlerOptions,
): (req: ExpressLikeRequest, res: ServerResponse) => void {
  const maxBodyBytes = checkOptions(options);
  return (req, res) => {
    void serve(req, res, options, maxBodyBytes, req.body);
  };
}

// Configuration mistakes surface at startup instead of as 500s on the first delivery.
function checkOptions(options: NodeWebhookHandlerOptions): number {
  assertReceiverOptions(options);
  return checkMaxBodyBytes(options.maxBodyBytes);
}

/** Returns the body limit to use, throwing at setup time on a nonsensical one. */
export function checkMaxBodyBytes(maxBodyBytes = DEFAULT_MAX_BODY_BYTES): number {
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError('maxBodyBytes must be a positive integer');
  }
  return maxBodyBytes;
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeWebhookHandlerOptions,
  maxBodyBytes: number,
  parsedBody: unknown,
): Promise<void> {
  try {
    if (req.method !== 'POST') {
      req.resume();
      sendError(res, 405, 'method_not_allowed', { allow: 'POST' });
      return;
    }
    let rawBody: WebhookRawBody;
    if (typeof parsedBody === 'string' || parsedBody instanceof Uint8Array) {
      // express.raw gives a Buffer; express.text a string, which is fine for UTF-8 JSON.
      // The limit still applies: express.raw's own default (100 kB) may have been raised.
      const size =
        typeof parsedBody === 'string' ? Buffer.byteLength(parsedBody) : parsedBody.byteLength;
      if (size > maxBodyBytes) {
        sendError(res, 413, 'payload_too_large');
        return;
      }
      rawBody = parsedBody;
    } else if (req.readableEnded) {
      // A JSON parser consumed the stream and threw the bytes away: nothing left to verify.
      // 500, not 4xx: this is the receiver's setup, and the service should retry once fixed.
      sendError(res, 500, 'raw_body_unavailable');
      return;
    } else {
      const body = await readBody(req, maxBodyBytes);
      if (body === null) {
        // Close the connection rather than read the rest of an oversized upload.
        sendError(res, 413, 'payload_too_large', { connection: 'close' });
        res.once('finish', () => req.destroy());
        return;
      }
      rawBody = body;
    }
    const result = await handleWebhook({ ...options, rawBody, headers: req.headers });
    send(res, result.status, result.body);
  } catch (error) {
    // Only stream errors (client went away) and thrown configuration errors get here.
    if (!res.headersSent) sendError(res, 500, 'processing_failed');
    if (!req.readableEnded) req.destroy(error instanceof Error ? error : undefined);
  }
}

// Resolves null as soon as the body is known to exceed the limit, without buffering the rest.
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) {
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (value: Buffer | null, error?: Error): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) finish(null);
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish(Buffer.concat(chunks, size)));
    req.once('error', (error) => finish(null, error));
    req.once('close', () => finish(null, new Error('request closed before its body was read')));
  });
}

function sendError(
  res: ServerResponse,
  status: number,
  error: WebhookErrorCode,
  headers: Record<string, string> = {},
): void {
  send(res, status, { received: false, error }, headers);
}

function send(
  res: ServerResponse,
  status: number,
  body: WebhookResponseBody,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.writableEnded) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(payload)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}
