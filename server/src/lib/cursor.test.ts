import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';
import { AppError } from './errors.js';

/** The AppError a call throws, or a failure when it does not throw one. */
function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('cursor', () => {
  it('round-trips any creation time and id', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (createdAt, id) => {
        expect(decodeCursor(encodeCursor({ created_at: createdAt, id }))).toEqual({
          createdAt,
          id,
        });
      }),
    );
  });

  it('is opaque and URL-safe', () => {
    const cursor = encodeCursor({
      created_at: '2024-05-01T10:00:00.000Z',
      id: '0190a0b0-c0d0-7000-8000-000000000000',
    });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('2024');
  });

  it.each([
    ['not base64 JSON', 'garbage!'],
    ['empty', ''],
    ['a JSON object', Buffer.from('{"createdAt":"x","id":"y"}').toString('base64url')],
    ['one element', Buffer.from('["2024-01-01T00:00:00.000Z"]').toString('base64url')],
    ['a number id', Buffer.from('["2024-01-01T00:00:00.000Z",7]').toString('base64url')],
    ['JSON null', Buffer.from('null').toString('base64url')],
  ])('refuses %s with 422 on querystring.cursor', (_label, cursor) => {
    const err = errorOf(() => decodeCursor(cursor));
    expect(err.code).toBe('validation_failed');
    expect(err.status).toBe(422);
    expect(err.errors).toEqual([
      { path: 'querystring.cursor', message: 'is not a cursor returned by this API' },
    ]);
  });

  it('never throws anything but the 422 for arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (cursor) => {
        try {
          decodeCursor(cursor);
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
          expect((err as AppError).code).toBe('validation_failed');
        }
      }),
    );
  });
});
