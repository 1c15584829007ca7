import { validationError } from './errors.js';

/** The position of a row in a newest-first keyset list: its creation time, then its id. */
export type Cursor = { createdAt: string; id: string };

/** The opaque `nextCursor` after a row. */
export function encodeCursor(row: { created_at: string; id: string }): string {
  return encodeKeyPair(row.created_at, row.id);
}

/** Reads a cursor this API returned; anything else is a 422 on `querystring.cursor`. */
export function decodeCursor(cursor: string): Cursor {
  const [createdAt, id] = decodeKeyPair(cursor);
  return { createdAt, id };
}

/** An opaque cursor of two strings: a row's sort key and its id, for any keyset list. */
export function encodeKeyPair(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/** The two strings of a cursor encodeKeyPair made; anything else is a 422 on `querystring.cursor`. */
export function decodeKeyPair(cursor: string): [string, string] {
  try {
    const [key, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof key === 'string' && typeof id === 'string') return [key, id];
  } catch {
    // fall through to the validation error
  }
  throw validationError(
    [{ path: 'querystring.cursor', message: 'is not a cursor returned by this API' }],
    'Invalid cursor.',
  );
}
