import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signAsOnlySignee } from '../helpers/signing.js';

// The real PDFs of ../shared/corpus (never copied into the repository), each with the verdict
// it is owed: this suite reports itself skipped when the folder is absent.
const CORPUS = path.resolve(__dirname, '../../../shared/corpus');

type Entry = {
  file: string;
  expect: 'accept' | 'refuse-password' | 'refuse-not-pdf';
  pages: number | null;
  qpdfCheck: number | null;
  signatures: number;
  signaturesValid: number;
};

const entries: Entry[] = existsSync(path.join(CORPUS, 'manifest.json'))
  ? (JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { files: Entry[] })
      .files
  : [];

/** Runs a poppler or qpdf tool on the bytes written to a scratch file (`{}` in `args`). */
function inspect(bytes: Uint8Array, cmd: string, args: string[] = ['{}']) {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-corpus-'));
  try {
    const file = path.join(dir, 'f.pdf');
    writeFileSync(file, bytes);
    const run = spawnSync(
      cmd,
      args.map((a) => (a === '{}' ? file : a)),
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    return { status: run.status, out: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each signature pdfsig lists, in file order: valid or not, and whether it covers the file. */
function signaturesOf(bytes: Uint8Array) {
  return inspect(bytes, 'pdfsig')
    .out.split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      valid: /Signature Validation: Signature is Valid/.test(block),
      wholeFile: /Total document signed/.test(block),
    }));
}

const pageCount = (bytes: Uint8Array) =>
  Number(/^Pages:\s+(\d+)/m.exec(inspect(bytes, 'pdfinfo').out)?.[1]);

describe.skipIf(entries.length === 0).each(ENGINES)('the real-PDF corpus on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    // Each file's signee signs from an address of their own: from one address, the thirty-odd
    // signatures would run into the per-address limit on signing (20 at once, then one a second).
    ctx = await createTestContext(engine, { listen: true, env: { TRUST_PROXY: 'loopback' } });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  const refused = entries.filter((e) => e.expect !== 'accept');
  it.each(refused.map((e) => [e.file, e] as const))('refuses %s as owed', async (_, entry) => {
    const file = readFileSync(path.join(CORPUS, 'files', entry.file));
    const res = await quickCreate(ctx, apiKey, { tenantId, file, filename: entry.file });
    if (entry.expect === 'refuse-not-pdf') {
      expect(res.status).toBe(415);
      expect(res.body.detail).toMatch(/^The file is not a PDF document: it is (a|an) /);
    } else {
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.type).toMatch(/pdf_encrypted$/);
      expect(res.body.detail).toMatch(/password/);
    }
  });

  const accepted = entries.filter((e) => e.expect === 'accept');
  it.each(accepted.map((e) => [e.file, e] as const))(
    'accepts %s, seals it in place and keeps it whole',
    async (name, entry) => {
      const original = readFileSync(path.join(CORPUS, 'files', entry.file));
      const signee = {
        email: `${name.replace(/[^a-z0-9]+/gi, '.').slice(0, 40)}@example.com`,
        name: 'Corpus Signee',
        from: `198.51.100.${accepted.indexOf(entry) + 1}`,
      };
      const created = await quickCreate(ctx, apiKey, {
        tenantId,
        file: original,
        filename: entry.file,
        signees: [signee],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.document.id as string;
      const { done, sealed } = await signAsOnlySignee(ctx, apiKey, id, signee, 60_000);
      // Sealed in place: the original's pages are in the sealed file, not attached to it.
      expect(done.document.sealMode).toBe(entry.signatures > 0 ? 'incremental' : 'normalised');

      const signatures = signaturesOf(sealed);
      const seal = signatures.at(-1)!;
      expect(seal).toEqual({ valid: true, wholeFile: true });
      // Every earlier signature that was valid on upload is still valid.
      const before = signaturesOf(original).filter((s) => s.valid).length;
      expect(before).toBe(entry.signaturesValid);
      expect(signatures.slice(0, -1).filter((s) => s.valid).length).toBe(before);

      expect(pageCount(sealed)).toBeGreaterThan(entry.pages!);
      const first = String(entry.pages! + 1);
      const text = inspect(sealed, 'pdftotext', ['-f', first, '-l', first, '{}', '-']);
      expect(text.out).toMatch(/Signature|Audit certificate/);

      const check = inspect(sealed, 'qpdf', ['--check', '{}']);
      expect(entry.qpdfCheck === 3 ? [0, 3] : [0], check.out).toContain(check.status);
    },
    60_000,
  );
});
