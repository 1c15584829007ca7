import http from 'node:http';
import https from 'node:https';
import { OutsideFault } from './outside-fault.js';

export type OutsideRequest = {
  url: string;
  body?: Uint8Array;
  contentType?: string;
  /** The whole exchange, connection to last body byte: a body trickling in counts too. */
  timeoutMs: number;
  maxBytes: number;
  source: OutsideFault['source'];
  /** Who answers, for messages: "the time-stamp authority", "the OCSP responder". */
  service: string;
};

/**
 * One HTTP exchange with a TSA, OCSP responder or CRL server: POST when there is a body, else
 * GET. Anything but a 2xx answer within the deadline and the size cap is an OutsideFault
 * naming the host and what happened. Redirects are not followed: the URL is the one the
 * operator or the certificate named, and a redirect could point anywhere.
 */
export function requestOutside(request: OutsideRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      reject(new OutsideFault(request.source, `${request.service} URL ${request.url} is invalid`));
      return;
    }
    const at = `${request.service} at ${url.host}`;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(new OutsideFault(request.source, `${at} is not an http(s) URL (${url.protocol})`));
      return;
    }
    let settled = false;
    const fail = (what: string, cause?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      reject(new OutsideFault(request.source, `${at} ${what}`, { cause }));
    };
    const transport = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = {};
    if (request.body) {
      headers['content-type'] = request.contentType ?? 'application/octet-stream';
      headers['content-length'] = String(request.body.length);
    }
    // No keep-alive: these exchanges are rare, and a reused socket the server has since
    // closed would turn into a spurious fault.
    const req = transport.request(url, {
      method: request.body ? 'POST' : 'GET',
      headers,
      agent: false,
    });
    const deadline = setTimeout(
      () => fail(`did not answer within ${seconds(request.timeoutMs)}`),
      request.timeoutMs,
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      fail(`could not be reached (${error.code ?? error.message})`, error),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        const location = res.headers.location ?? 'nowhere';
        return fail(`answered ${status}, a redirect to ${location}, which is not followed`);
      }
      if (status < 200 || status >= 300) return fail(`answered ${status}`);
      const announced = Number(res.headers['content-length'] ?? 0);
      if (announced > request.maxBytes) {
        return fail(`answered with ${announced} bytes, more than the ${request.maxBytes} allowed`);
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > request.maxBytes) {
          fail(`answered with more than the ${request.maxBytes} bytes allowed`);
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (error) => fail(`broke off its answer (${error.message})`, error));
      res.on('aborted', () => fail('broke off its answer'));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(Buffer.concat(chunks));
      });
    });
    req.end(request.body);
  });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
