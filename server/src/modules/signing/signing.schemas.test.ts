import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { declineBody, signBody } from './signing.schemas.js';

// Each issue as its dotted path and message.
function issuesOf(result: z.ZodSafeParseResult<unknown>) {
  return result.success
    ? []
    : result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

describe('signBody', () => {
  it('accepts a typed and a drawn signature with consent', () => {
    const typed = signBody.safeParse({
      consent: true,
      signature: { type: 'typed', text: ' Zoë Ünal ' },
    });
    expect(typed.data).toEqual({ consent: true, signature: { type: 'typed', text: 'Zoë Ünal' } });
    const drawn = signBody.safeParse({
      consent: true,
      signature: { type: 'drawn', image: 'data:image/png;base64,iVBORw0KGgo=' },
    });
    expect(drawn.success).toBe(true);
  });

  it('needs consent', () => {
    expect(
      issuesOf(signBody.safeParse({ consent: false, signature: { type: 'typed', text: 'Z' } })),
    ).toEqual([{ path: 'consent', message: 'you must agree to sign electronically' }]);
  });

  it('refuses an empty typed name', () => {
    expect(
      issuesOf(signBody.safeParse({ consent: true, signature: { type: 'typed', text: '   ' } })),
    ).toEqual([
      { path: 'signature.text', message: 'Too small: expected string to have >=1 characters' },
    ]);
  });

  it('refuses a drawn signature that is not a PNG data URL', () => {
    expect(
      issuesOf(
        signBody.safeParse({
          consent: true,
          signature: { type: 'drawn', image: 'data:image/jpeg;base64,/9j/4AAQ' },
        }),
      ),
    ).toEqual([{ path: 'signature.image', message: 'must be a PNG data URL' }]);
  });
});

describe('declineBody', () => {
  it('keeps the trimmed reason', () => {
    expect(declineBody.safeParse({ reason: '  Wrong amount ' }).data).toEqual({
      reason: 'Wrong amount',
    });
  });

  it('refuses a blank reason', () => {
    expect(issuesOf(declineBody.safeParse({ reason: ' \n ' }))).toEqual([
      { path: 'reason', message: 'Too small: expected string to have >=1 characters' },
    ]);
  });
});
