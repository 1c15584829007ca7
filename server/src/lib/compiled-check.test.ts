import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledCheck } from './compiled-check.js';

describe('compiledCheck', () => {
  it("says yes or no as the schema's JSON Schema does", () => {
    const passes = compiledCheck(
      z.object({ pattern: z.string().max(3), n: z.number().int().min(1).nullable() }).strict(),
    );
    expect(passes({ pattern: 'abc', n: 1 })).toBe(true);
    expect(passes({ pattern: 'abc', n: null })).toBe(true);
    expect(passes({ pattern: 'abcd', n: 1 })).toBe(false);
    expect(passes({ pattern: 'abc', n: 1.5 })).toBe(false);
    expect(passes({ pattern: 'abc', n: 0 })).toBe(false);
    expect(passes({ pattern: 'abc', n: 1, more: 1 })).toBe(false);
    expect(passes({ pattern: 'abc' })).toBe(false);
  });

  it('refuses what JSON Schema does not hold, unless the caller runs it', () => {
    expect(() => compiledCheck(z.string().regex(/^a+$/i))).toThrow(/pattern/);
    expect(() => compiledCheck(z.object({ id: z.uuid() }))).toThrow(/format/);
    expect(() => compiledCheck(z.date())).toThrow();
    expect(() => compiledCheck(z.string().trim())).toThrow(/overwrite/);
    expect(() => compiledCheck(z.number().refine((n) => n % 2 === 0))).toThrow(/custom/);
    expect(compiledCheck(z.string().trim().max(2), { unheld: ['overwrite'] })('ab')).toBe(true);
  });
});
