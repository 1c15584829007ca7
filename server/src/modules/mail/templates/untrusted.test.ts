import { describe, expect, it } from 'vitest';
import { DISPLAY_VALUE_MAX, displayValue } from './untrusted.js';

// What a mail client would make a link of, in plain text or HTML.
const LINKISH = /:\/\/|\/\/|www\.|[\p{L}\p{N}]\.[\p{L}\p{N}-]{2}|[\w.-]@[\w-]/iu;

describe('displayValue', () => {
  it('leaves ordinary names alone', () => {
    for (const name of ['Acme Inc.', 'J.R.R. Tolkien', 'Zoë Ünal', 'Müller & Söhne GmbH', 'v1.2']) {
      expect(displayValue(name)).toBe(name);
    }
  });

  it('turns whatever a mail client would link into inert text', () => {
    const cases: Array<[string, string]> = [
      ['see https://evil.example/login', 'see https[:]evil[.]example/login'],
      ['www.evil.example', 'www[.]evil[.]example'],
      ['WWW.EVIL.COM', 'WWW[.]EVIL[.]COM'],
      ['mail bob@evil.com', 'mail bob[@]evil[.]com'],
      ['protocol-relative //evil.com', 'protocol-relative /evil[.]com'],
      // A zero-width space, a full-width dot and colon: caught as what they stand for.
      ['h\u200Bttps\uFF1A//x\uFF0Eexample', 'https[:]x[.]example'],
    ];
    for (const [input, shown] of cases) {
      expect(displayValue(input)).toBe(shown);
      expect(displayValue(input)).not.toMatch(LINKISH);
    }
  });

  it('keeps one line without control or bidi characters, at most 60 characters', () => {
    expect(displayValue('Line\r\nBcc: x\tend')).toBe('Line Bcc: x end');
    expect(displayValue('abc\u202Eevil\u200Fx')).toBe('abcevilx');
    const long = displayValue(`URGENT ${'a'.repeat(200)}`);
    expect(Array.from(long)).toHaveLength(DISPLAY_VALUE_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(Array.from(displayValue('😀'.repeat(100)))).toHaveLength(DISPLAY_VALUE_MAX);
    expect(displayValue('x'.repeat(150), 100)).toHaveLength(100);
  });
});
