import { validationError } from './errors.js';

/** The position of a row in a newest-first keyset list: its creation time, then its id. */
export type Cursor = { createdAt: string; id: string };

/** The opaque `nextCursor` after a row. */
export function encodeCursor(row: { created_at: string; id: string }): string {
  return Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');
}

/** Reads a cursor this API returned; anything else is a 422 on `querystring.cursor`. */
export function decodeCursor(cursor: string): Cursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof createdAt === 'string' && typeof id === 'string') return { createdAt, id };
  } catch {
    // fall through to the validation error
  }
  throw validationError(
    [{ path: 'querystring.cursor', message: 'is not a cursor returned by this API' }],
    'Invalid cursor.',
  );
}
