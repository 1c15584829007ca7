import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { createDownloadUrl, verifyDownloadUrl, type FileKind } from './download-url.js';

const SECRET = 'a'.repeat(16) + 'b'.repeat(16);
const DOC = '0190a0b0-c0d0-7000-8000-000000000001';

/** The parts of a download URL that verifyDownloadUrl checks. */
function partsOf(url: string) {
  const parsed = new URL(url);
  const [, , , documentId, kind] = parsed.pathname.split('/');
  return {
    documentId,
    kind: kind as FileKind,
    expires: Number(parsed.searchParams.get('expires')),
    signature: parsed.searchParams.get('signature') ?? '',
  };
}

function codeOf(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

const make = (kind: FileKind = 'sealed', ttlSeconds = 600) =>
  createDownloadUrl({
    publicUrl: 'https://sign.example',
    secretKey: SECRET,
    ttlSeconds,
    documentId: DOC,
    kind,
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('download URLs', () => {
  it('points at the file route with an expiry ttl seconds ahead', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00.000Z'), toFake: ['Date'] });
    const url = make('original', 600);
    expect(url).toMatch(
      new RegExp(
        `^https://sign\\.example/api/files/${DOC}/original\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`,
      ),
    );
    expect(partsOf(url).expires).toBe(Date.parse('2030-01-01T00:10:00.000Z') / 1000);
  });

  it('verifies a URL it made, for either kind', () => {
    for (const kind of ['original', 'sealed'] as const) {
      const parts = partsOf(make(kind));
      expect(parts.kind).toBe(kind);
      expect(codeOf(() => verifyDownloadUrl({ secretKey: SECRET, ...parts }))).toBeNull();
    }
  });

  it('refuses any changed part with 403 forbidden', () => {
    const parts = partsOf(make('original'));
    const tampered = [
      { ...parts, documentId: DOC.replace(/1$/, '2') },
      { ...parts, kind: 'sealed' as const },
      { ...parts, expires: parts.expires + 3600 },
      {
        ...parts,
        signature: parts.signature.slice(0, -1) + (parts.signature.endsWith('A') ? 'B' : 'A'),
      },
      { ...parts, signature: '' },
    ];
    for (const t of tampered) {
      expect(codeOf(() => verifyDownloadUrl({ secretKey: SECRET, ...t }))).toBe('forbidden');
    }
    // Another SECRET_KEY made it: not ours.
    expect(codeOf(() => verifyDownloadUrl({ secretKey: 'c'.repeat(32), ...parts }))).toBe(
      'forbidden',
    );
  });

  it('expires: valid up to its second, then 403 url_expired', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00.000Z'), toFake: ['Date'] });
    const parts = partsOf(make('sealed', 60));
    vi.setSystemTime(new Date('2030-01-01T00:01:00.000Z'));
    expect(codeOf(() => verifyDownloadUrl({ secretKey: SECRET, ...parts }))).toBeNull();
    vi.setSystemTime(new Date('2030-01-01T00:01:00.001Z'));
    const expired = codeOf(() => verifyDownloadUrl({ secretKey: SECRET, ...parts }));
    expect(expired).toBe('url_expired');
  });

  it('checks the signature before the expiry', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00.000Z'), toFake: ['Date'] });
    const parts = partsOf(make('sealed', 60));
    vi.setSystemTime(new Date('2030-01-02T00:00:00.000Z'));
    expect(codeOf(() => verifyDownloadUrl({ secretKey: SECRET, ...parts, signature: 'x' }))).toBe(
      'forbidden',
    );
  });
});
