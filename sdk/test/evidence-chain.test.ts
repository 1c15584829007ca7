import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, chainEntries, checkChain, entryHash } from '../src/index.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const ORIGINAL = sha256('the original');

describe('canonicalJson (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units, drops whitespace, writes numbers as ECMAScript does', () => {
    // RFC 8785 section 3.2.3's sorting example, and its number forms.
    const value = {
      '\u20ac': 'Euro',
      '\r': 'CR',
      '\ufb33': 'Hebrew',
      '1': 'One',
      '\u{1f600}': 'Emoji',
      '\u0080': 'Control',
    };
    expect(canonicalJson(value)).toBe(
      '{"\\r":"CR","1":"One","\u0080":"Control","\u20ac":"Euro","\u{1f600}":"Emoji","\ufb33":"Hebrew"}',
    );
    expect(canonicalJson([1e21, 0.000001, -0, 100.5, 1e-7, true, null, 'a"\\\n'])).toBe(
      '[1e+21,0.000001,0,100.5,1e-7,true,null,"a\\"\\\\\\n"]',
    );
    expect(canonicalJson({ b: { d: 1, c: [] }, a: undefined })).toBe('{"b":{"c":[],"d":1}}');
    expect(() => canonicalJson({ n: NaN })).toThrow(TypeError);
  });
});

describe('the audit chain', () => {
  const entries = ['created', 'sent', 'signed'].map((action, i) => ({
    at: `2024-05-01T0${i}:00:00.000Z`,
    action,
    actor: 'sender',
    ip: null,
    userAgent: null,
  }));
  const trail = chainEntries(entries, ORIGINAL);

  it('links the first entry to the original and each next one to the one before, prev included', () => {
    expect(trail.entries[0].prev).toBe(ORIGINAL);
    const first = `{"action":"created","actor":"sender","at":"2024-05-01T00:00:00.000Z","ip":null,"prev":"${ORIGINAL}","userAgent":null}`;
    expect(trail.entries[1].prev).toBe(sha256(first));
    expect(trail.head).toBe(entryHash(trail.entries[2]));
    expect(checkChain(trail, ORIGINAL)).toEqual({ ok: true, entries: 3, head: trail.head });
    expect(checkChain(chainEntries([], ORIGINAL), ORIGINAL)).toMatchObject({
      ok: true,
      head: ORIGINAL,
    });
  });

  it('reports the first link that does not hold', () => {
    const changed = trail.entries.map((e, i) => (i === 1 ? { ...e, actor: 'mallory' } : e));
    expect(checkChain({ ...trail, entries: changed }, ORIGINAL)).toMatchObject({
      ok: false,
      index: 2,
    });
    expect(checkChain(trail, sha256('another original'))).toMatchObject({ ok: false, index: 0 });
    const truncated = { entries: trail.entries.slice(0, 2), head: trail.head };
    expect(checkChain(truncated, ORIGINAL)).toMatchObject({ ok: false, index: 2 });
  });
});
