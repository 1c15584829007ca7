import { createHmac } from 'node:crypto';
import { AppError } from '../../lib/errors.js';
import { safeEqual } from '../../lib/ids.js';

/** Which file a URL serves: a document's original or sealed file, or a template's PDF. */
export type FileKind = 'original' | 'sealed' | 'template';

function sign(secretKey: string, documentId: string, kind: FileKind, expires: number) {
  return createHmac('sha256', secretKey)
    .update(`download:${documentId}:${kind}:${expires}`)
    .digest('base64url');
}

/**
 * A short-lived URL for one file of one document. The signature covers the document id, the
 * kind and the expiry, and the file path comes from the database, so changing any part of the
 * URL cannot reach another file.
 */
export function createDownloadUrl(options: {
  publicUrl: string;
  secretKey: string;
  ttlSeconds: number;
  documentId: string;
  kind: FileKind;
}): string {
  const expires = Math.floor(Date.now() / 1000) + options.ttlSeconds;
  const signature = sign(options.secretKey, options.documentId, options.kind, expires);
  return `${options.publicUrl}/api/files/${options.documentId}/${options.kind}?expires=${expires}&signature=${signature}`;
}

/** Checks a download URL's signature, then its expiry (403 url_expired). */
export function verifyDownloadUrl(options: {
  secretKey: string;
  documentId: string;
  kind: FileKind;
  expires: number;
  signature: string;
}) {
  const expected = sign(options.secretKey, options.documentId, options.kind, options.expires);
  if (!safeEqual(expected, options.signature)) {
    throw new AppError('forbidden', 'This download URL is not valid.');
  }
  if (options.expires * 1000 < Date.now()) {
    throw new AppError(
      'url_expired',
      'This download URL has expired; retrieve the document again.',
    );
  }
}
