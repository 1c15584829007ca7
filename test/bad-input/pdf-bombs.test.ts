import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSealCertificate } from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf } from '../../server/src/modules/sealing/seal-pdf.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import {
  downloadFile,
  signAsOnlySignee,
  signingCall,
  signingTokenFromMailbox,
  waitForStatus,
} from '../helpers/signing.js';
import { storedFiles } from '../faults/support.js';
import { encryptedPdfs, pdfBombs } from './hostile-pdfs.js';
import { rowCounts } from './support.js';

const bombs = pdfBombs();
const encrypted = encryptedPdfs();

function onDisk(bytes: Uint8Array, run: (file: string) => string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-bomb-'));
  try {
    const file = path.join(dir, 'f.pdf');
    writeFileSync(file, bytes);
    return run(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const tool = (cmd: string, args: string[]) => (file: string) =>
  spawnSync(cmd, [...args, file], { encoding: 'utf8' }).stdout;
const text = (file: string) => spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout;

describe.each(ENGINES)('PDF bombs and encrypted PDFs on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  it.each(encrypted.filter(([, , needsPassword]) => needsPassword))(
    'refuses a PDF that needs a password (%s) with 422 pdf_encrypted and keeps nothing',
    async (_, file) => {
      const before = await rowCounts(ctx);
      const files = storedFiles(ctx.config.dataDir).length;
      const res = await quickCreate(ctx, apiKey, { tenantId, file });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.type).toMatch(/pdf_encrypted$/);
      expect(res.body.detail).toMatch(/password that is needed to open it/);
      expect(await rowCounts(ctx)).toEqual(before);
      expect(storedFiles(ctx.config.dataDir).length).toBe(files);
    },
  );

  it.each(encrypted.filter(([, , needsPassword]) => !needsPassword))(
    'accepts a permissions-only encrypted PDF (%s) and seals it as a clean, unencrypted file',
    async (name, file) => {
      const signee = {
        email: `perm.${createHash('sha1').update(name).digest('hex').slice(0, 8)}@example.com`,
        name: 'Per Mission',
      };
      const created = await quickCreate(ctx, apiKey, { tenantId, file, signees: [signee] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.document.id as string;
      const { done, sealed } = await signAsOnlySignee(ctx, apiKey, id, signee);
      expect(done.document.sealMode).toBe('normalised');
      expect(onDisk(sealed, tool('pdfsig', []))).toContain('Signature is Valid');
      expect(onDisk(sealed, tool('pdfinfo', []))).toMatch(/Encrypted:\s+no/);
      expect(onDisk(sealed, text)).toMatch(/permissions-only\s+encryption\s+removed/);
    },
  );

  it.each(bombs)('takes a %s through upload, signing and sealing', async (name, file) => {
    const started = Date.now();
    const email = `bomb.${createHash('sha1').update(name).digest('hex').slice(0, 8)}@example.com`;
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      file,
      signees: [{ email, name: 'Bo Mb' }],
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id as string;
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    const token = await signingTokenFromMailbox(ctx, email);
    expect((await signingCall(ctx, token, '')).status).toBe(200);
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Bo Mb' },
    });
    expect(signed.status).toBe(200);
    // Sealed, not stuck in pending_seal: modified when the original allows it, attached if not.
    const done = await waitForStatus(ctx, apiKey, id, 'signed', 30_000);
    const sealed = await downloadFile(ctx, done.document.downloadUrl);
    expect(onDisk(sealed, tool('pdfsig', []))).toContain('Signature is Valid');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(sealed)]), 'sealed.pdf');
    const verified = await fetch(`${ctx.baseUrl}/api/verify`, { method: 'POST', body: form });
    expect(((await verified.json()) as { status: string }).status).toBe('sealed');
    expect(Date.now() - started).toBeLessThan(40_000);
  });

  it.each(bombs)('answers POST /api/verify for a %s quickly', async (_, file) => {
    const started = Date.now();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), 'bomb.pdf');
    const res = await fetch(`${ctx.baseUrl}/api/verify`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('unknown');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('sealing an original it cannot modify', () => {
  it.each(encrypted.filter(([, , needsPassword]) => needsPassword))(
    'seals an original only a password opens (%s) with the original attached, and says so',
    async (_, original) => {
      const scratch = mkdtempSync(path.join(tmpdir(), 'signet-seal-enc-'));
      try {
        const certificate = await loadOrCreateSealCertificate({ dataDir: scratch });
        const { bytes: sealed, mode } = await sealPdf({
          original,
          originalSha256: createHash('sha256').update(original).digest('hex'),
          signatures: [
            {
              name: 'A',
              email: 'a@example.com',
              signedAt: new Date().toISOString(),
              typedName: 'A',
            },
          ],
          auditEntries: [],
          documentName: 'Encrypted',
          documentId: '00000000-0000-4000-8000-000000000000',
          sandbox: true,
          certificate,
        });
        expect(mode).toBe('attached');
        expect(onDisk(sealed, tool('pdfsig', []))).toContain('Signature is Valid');
        const attachments = onDisk(sealed, tool('pdfdetach', ['-list']));
        expect(attachments).toContain('original.pdf');
        expect(onDisk(sealed, text)).toMatch(/attached:\s+the\s+original\s+attached/);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  );
});
