import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import {
  nativeDeflateCalls,
  storedStreams,
} from '../../server/src/modules/sealing/native-deflate.js';
import { sealPdf, type SealPdfInput } from '../../server/src/modules/sealing/seal-pdf.js';

const sealedBytes = async (input: SealPdfInput) => (await sealPdf(input)).bytes;
import { SANDBOX_MARK_TEXT } from '../../server/src/modules/sealing/sandbox-mark.js';
import { verifySealedPdf } from '../../server/src/modules/sealing/verify-pdf.js';
import { startFakeTsa } from './fake-tsa.js';
import {
  makeInheritedResourcesPdf,
  makePdf,
  makePng,
  openssl,
  pageTexts,
  runOnPdf,
  scratchDir,
  sha256,
} from './helpers.js';

const scratch = scratchDir();
let certificate: SealCertificate;

function input(original: Uint8Array, overrides: Partial<SealPdfInput> = {}): SealPdfInput {
  return {
    original,
    signatures: [
      {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        signedAt: '2024-05-01T10:00:00.000Z',
        image: makePng(),
      },
      {
        name: 'Zoë Ünal',
        email: 'zoe@example.com',
        signedAt: '2024-05-01T11:30:00.000Z',
        typedName: 'Zoë Ünal',
      },
    ],
    auditEntries: [
      {
        at: '2024-05-01T09:00:00.000Z',
        action: 'created',
        actor: 'owner@example.com',
        ip: '203.0.113.1',
        userAgent: 'curl/8.0',
      },
      {
        at: '2024-05-01T10:00:00.000Z',
        action: 'signed',
        actor: 'ada@example.com',
        ip: '198.51.100.2',
        userAgent: null,
      },
      {
        at: '2024-05-01T11:30:00.000Z',
        action: 'signed',
        actor: 'zoe@example.com',
        ip: null,
        userAgent: 'Mozilla/5.0',
      },
    ],
    documentName: 'Service agreement',
    documentId: 'doc_01HZX',
    originalSha256: sha256(original),
    sandbox: true,
    certificate,
    ...overrides,
  };
}

beforeAll(async () => {
  certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
});
afterAll(() => scratch.cleanup());

describe.each([1, 10])('sealing a %i-page PDF', (pages) => {
  let original: Uint8Array;
  let sealed: Uint8Array;
  let deflated: number;
  beforeAll(async () => {
    original = await makePdf(pages);
    const before = nativeDeflateCalls();
    sealed = await sealedBytes(input(original));
    deflated = nativeDeflateCalls() - before;
  });

  it("compresses its streams with Node's zlib, which qpdf decodes", () => {
    expect(deflated).toBeGreaterThan(0);
    const result = runOnPdf(scratch.dir, 'qpdf', ['--check', '--decode-level=all', '{}'], sealed);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('No syntax or stream encoding errors found');
  });

  it('is a PAdES signature that pdfsig finds valid over the whole document', () => {
    const result = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed);
    expect(result.stdout).toContain('ETSI.CAdES.detached');
    expect(result.stdout).toContain('Signature is Valid');
    expect(result.stdout).toContain('Total document signed');
    expect(result.stdout).toContain('Signet Sandbox Seal');
  });

  it('passes qpdf --check', () => {
    const result = runOnPdf(scratch.dir, 'qpdf', ['--check', '{}'], sealed);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('writes /Reason as one PDF string, read back as written', () => {
    const json = runOnPdf(scratch.dir, 'qpdf', ['--json', '{}'], sealed).stdout;
    const reasons = [...json.matchAll(/"\/Reason": ("(?:[^"\\]|\\.)*")/g)].map(
      (m) => JSON.parse(m[1]) as string,
    );
    expect(reasons).toEqual(['u:Sealed by Signet in the sandbox; not legally binding']);
  });

  it('keeps the original bytes as an untouched prefix (incremental update)', () => {
    expect(Buffer.from(sealed.subarray(0, original.length)).equals(Buffer.from(original))).toBe(
      true,
    );
  });

  it('marks every page as sandbox and appends the signature and audit pages', () => {
    const texts = pageTexts(scratch.dir, sealed);
    expect(texts).toHaveLength(pages + 2);
    for (const text of texts) expect(text).toContain(SANDBOX_MARK_TEXT);
    expect(texts[pages - 1]).toContain(`Original page ${pages} of the contract`);
    const signaturePage = texts[pages];
    for (const expected of [
      'Signatures',
      'Ada Lovelace',
      'ada@example.com',
      'Zoë Ünal',
      'zoe@example.com',
    ]) {
      expect(signaturePage).toContain(expected);
    }
    expect(signaturePage).toContain('1 May 2024, 11:30:00 UTC');
    const auditPage = texts[pages + 1];
    expect(auditPage).toContain('Audit certificate');
    expect(auditPage).toContain(sha256(original));
    expect(auditPage).toContain(certificate.fingerprint);
    expect(auditPage).toContain('198.51.100.2');
  });

  it('verifies as sealed by our certificate', async () => {
    const result = await verifySealedPdf(sealed, {
      certificateFingerprints: [certificate.fingerprint],
    });
    expect(result).toMatchObject({ status: 'sealed', coversWholeDocument: true });
    expect(result.signedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe('sealPdf edge cases', () => {
  it('omits the sandbox mark in production', async () => {
    const sealed = await sealedBytes(input(await makePdf(2), { sandbox: false }));
    const texts = pageTexts(scratch.dir, sealed);
    expect(texts).toHaveLength(4);
    for (const text of texts) expect(text).not.toContain('SANDBOX');
    expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed).stdout).toContain('Signature is Valid');
  });

  it('handles names outside WinAnsi and outside the fonts without crashing', async () => {
    const sealed = await sealedBytes(
      input(await makePdf(1), {
        documentName: 'Umowa – Łódź',
        signatures: [
          { name: 'Łukasz Żółć', email: 'lukasz@example.pl', signedAt: '2024-05-01T10:00:00Z' },
          { name: 'Zoë Ünal', email: 'zoe@example.com', signedAt: 'not a date', typedName: 'Zoë' },
          {
            name: '李小龍',
            email: 'li@example.cn',
            signedAt: '2024-05-01T12:00:00Z',
            typedName: '李小龍',
          },
          {
            name: 'Broken Image',
            email: 'b@example.com',
            signedAt: '2024-05-01T13:00:00Z',
            image: new Uint8Array([1, 2, 3]),
          },
        ],
        auditEntries: [
          {
            at: '2024-05-01T10:00:00Z',
            action: 'signed',
            actor: 'Łukasz Żółć\n<lukasz@example.pl>',
            ip: '::1',
            userAgent: 'ünïcødé agent 😀',
          },
        ],
      }),
    );
    const texts = pageTexts(scratch.dir, sealed);
    expect(texts[1]).toContain('Łukasz Żółć');
    expect(texts[1]).toContain('Zoë Ünal');
    expect(texts[1]).toContain('li@example.cn');
    expect(texts[1]).toContain('image unreadable');
    expect(texts[0]).toContain(SANDBOX_MARK_TEXT);
    expect(texts[2]).toContain('Łukasz Żółć <lukasz@example.pl>');
    expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed).stdout).toContain('Signature is Valid');
  });

  it('paginates a long audit trail and repeats the hash on every audit page', async () => {
    const original = await makePdf(1);
    const auditEntries = Array.from({ length: 70 }, (_, i) => ({
      at: new Date(Date.UTC(2024, 4, 1, 9, i)).toISOString(),
      action: i % 2 ? 'opened' : 'e-mailed',
      actor: `signer${i}@example.com`,
      ip: `192.0.2.${i}`,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) '.repeat(
        4,
      ),
    }));
    const signatures = Array.from({ length: 8 }, (_, i) => ({
      name: `Signer ${i}`,
      email: `signer${i}@example.com`,
      signedAt: '2024-05-01T10:00:00Z',
    }));
    const sealed = await sealedBytes(input(original, { auditEntries, signatures }));
    const texts = pageTexts(scratch.dir, sealed);
    const auditPages = texts.filter((t) => t.includes('Audit certificate'));
    expect(auditPages.length).toBeGreaterThanOrEqual(3);
    for (const page of auditPages) expect(page).toContain(sha256(original));
    expect(texts.filter((t) => t.includes('Signatures')).length).toBeGreaterThanOrEqual(2);
    const all = texts.join('\n');
    for (let i = 0; i < 70; i++) expect(all).toContain(`192.0.2.${i}\n`);
    expect(texts.every((t) => t.includes(SANDBOX_MARK_TEXT))).toBe(true);
  });

  it('marks rotated pages and keeps inherited resources working', async () => {
    const rotated = await sealedBytes(input(await makePdf(2, { rotate: 90 })));
    const rotatedTexts = pageTexts(scratch.dir, rotated);
    expect(rotatedTexts[0]).toContain(SANDBOX_MARK_TEXT);
    expect(rotatedTexts[0]).toContain('Original page 1 of the contract');

    const inherited = await sealedBytes(input(await makeInheritedResourcesPdf()));
    const inheritedTexts = pageTexts(scratch.dir, inherited);
    expect(inheritedTexts[0]).toContain('Inherited font text');
    expect(inheritedTexts[0]).toContain(SANDBOX_MARK_TEXT);
    expect(runOnPdf(scratch.dir, 'qpdf', ['--check', '{}'], inherited).status).toBe(0);
  });

  it('seals at PAdES B-T with an RFC 3161 timestamp when a TSA is configured', async () => {
    const tsa = await startFakeTsa();
    try {
      const sealed = await sealedBytes(input(await makePdf(1), { tsaUrl: tsa.url }));
      expect(tsa.requests).toBe(1);
      const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed).stdout;
      expect(pdfsig).toContain('ETSI.CAdES.detached');
      expect(pdfsig).toContain('Signature is Valid');
      const result = await verifySealedPdf(sealed, {
        certificateFingerprints: [certificate.fingerprint],
      });
      expect(result.status).toBe('sealed');
      expect(result.detail).toContain('RFC 3161 timestamp');
    } finally {
      await tsa.close();
    }
  });

  it('fails (so the job can retry) when the TSA is down', async () => {
    const tsa = await startFakeTsa({ failWith: 503 });
    try {
      await expect(sealPdf(input(await makePdf(1), { tsaUrl: tsa.url }))).rejects.toThrow(
        /time-stamp authority/,
      );
    } finally {
      await tsa.close();
    }
  });

  it('refuses an originalSha256 that does not match the original', async () => {
    const original = await makePdf(1);
    await expect(sealPdf(input(original, { originalSha256: '0'.repeat(64) }))).rejects.toThrow(
      /originalSha256/,
    );
  });

  it('can seal an already sealed PDF again under a fresh field name', async () => {
    const once = await sealPdf(input(await makePdf(1), { sandbox: false }));
    expect(once.mode).toBe('normalised');
    // The second seal appends to the first: nothing drawn into its pages, both signatures valid.
    const again = await sealPdf(input(once.bytes, { sandbox: true }));
    expect(again.mode).toBe('incremental');
    const twice = again.bytes;
    expect(Buffer.from(twice.subarray(0, once.bytes.length)).equals(Buffer.from(once.bytes))).toBe(
      true,
    );
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], twice).stdout;
    expect(pdfsig).toContain('Signet seal 2');
    expect(pdfsig.match(/Signature is Valid/g)).toHaveLength(2);
    expect(pdfsig.match(/Total document signed/g)).toHaveLength(1);
    // The sandbox mark goes on the appended pages only; the first seal's pages stay unmarked.
    const pages = pageTexts(scratch.dir, twice);
    const firstSealPages = pageTexts(scratch.dir, once.bytes).length;
    expect(pages.slice(0, firstSealPages).join('')).not.toContain('SANDBOX');
    expect(pages.slice(firstSealPages).join('')).toContain('SANDBOX');
    expect(pages.at(-1)).toMatch(/incremental: the signed original kept byte for byte/);
    expect(
      (await verifySealedPdf(twice, { certificateFingerprints: [certificate.fingerprint] })).status,
    ).toBe('sealed');
  });

  // The seal signs with the P12's key through Node's crypto (seal-pdf.ts, synchronousSigner):
  // an EC key's signature must come out as the DER that CMS holds, as an RSA key's does.
  it.each([
    ['an RSA-3072', ['-newkey', 'rsa:3072']],
    ['an EC P-256', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']],
    ['an EC P-384', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384']],
  ])('seals with %s key from a configured P12, valid in pdfsig', async (kind, keyArgs) => {
    const dir = join(scratch.dir, kind.replace(/\W+/g, '-'));
    mkdirSync(dir, { recursive: true });
    openssl(
      dir,
      ['req', '-x509', ...keyArgs, '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem'].concat([
        '-days',
        '30',
        '-subj',
        '/CN=Acme Seal/O=Acme',
      ]),
    );
    openssl(
      dir,
      ['pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'seal.p12'].concat([
        '-passout',
        'pass:s3cret',
      ]),
    );
    const configured = await loadOrCreateSealCertificate({
      dataDir: dir,
      p12Path: join(dir, 'seal.p12'),
      p12Password: 's3cret',
    });
    const sealed = await sealedBytes(
      input(await makePdf(2), { certificate: configured, sandbox: false }),
    );
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed).stdout;
    expect(pdfsig).toContain('Signature is Valid');
    expect(pdfsig).toContain('Total document signed');
    expect(pdfsig).toContain('Acme Seal');
    expect(
      (await verifySealedPdf(sealed, { certificateFingerprints: [configured.fingerprint] })).status,
    ).toBe('sealed');
  });

  it('stores a file that does not shrink as it is, and still deflates the rest', async () => {
    // A photo a signee attached: random bytes do not shrink, like a JPEG's.
    const photo = new Uint8Array(randomBytes(300 * 1024));
    const original = await makePdf(2);
    const before = storedStreams();
    const sealed = await sealedBytes(
      input(original, {
        attachments: [
          {
            id: 'att_1',
            name: 'attachment-1-passport.jpg',
            filename: 'passport.jpg',
            mimeType: 'image/jpeg',
            sha256: sha256(photo),
            bytes: photo,
          },
        ],
      }),
    );
    // The photo, and the original embedded whole when its own streams are deflated already.
    expect(storedStreams() - before).toBeGreaterThanOrEqual(1);
    const check = runOnPdf(scratch.dir, 'qpdf', ['--check', '--decode-level=all', '{}'], sealed);
    expect(check.stdout).toContain('No syntax or stream encoding errors found');
    expect(runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed).stdout).toContain('Signature is Valid');
    const out = join(scratch.dir, 'detached-photo.jpg');
    runOnPdf(
      scratch.dir,
      'pdfdetach',
      ['-savefile', 'attachment-1-passport.jpg', '-o', out, '{}'],
      sealed,
    );
    expect(sha256(new Uint8Array(readFileSync(out)))).toBe(sha256(photo));
  });

  it('rejects input that is not a PDF', async () => {
    await expect(sealPdf(input(new TextEncoder().encode('hello')))).rejects.toThrow();
  });
});
