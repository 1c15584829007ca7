import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignetClient, SignetApiError } from '../../sdk/src/index.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import {
  signAsOnlySignee,
  signingCall,
  signingTokenFromMailbox,
  TINY_PNG,
} from '../helpers/signing.js';

describe.each(ENGINES)('GET /api/documents/{id}/certificate on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true, workers: true });
    owner = await createUser(ctx, { name: 'Sam Sender' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-certificate-'));
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const unique = (label: string) => `${label}${Math.random().toString(36).slice(2, 7)}@ex.io`;
  const draft = async (
    signees: Array<{ email: string; name: string }>,
    name = 'Lease',
    fields?: unknown[],
  ) => {
    const file = makePdf({ pages: 2, title: name });
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file,
      filename: `${name}.pdf`,
      signees,
      extra: { name, ...(fields ? { fields: JSON.stringify(fields) } : {}) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return {
      id: created.body.document.id as string,
      originalSha256: sha256(file),
      fields: (created.body.fields ?? []) as Array<{ id: string; type: string }>,
    };
  };
  const certificate = async (id: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${ctx.baseUrl}/api/documents/${id}/certificate`, {
      headers: { 'x-api-key': owner.apiKey, ...headers },
    });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const tool = (cmd: string, args: string[], bytes: Buffer) => {
    const file = path.join(scratch, `${createHash('sha1').update(bytes).digest('hex')}.pdf`);
    writeFileSync(file, bytes);
    const ran = spawnSync(cmd, [...args, file, ...(cmd === 'pdftotext' ? ['-'] : [])], {
      encoding: 'utf8',
    });
    return { file, ...ran };
  };
  const text = (bytes: Buffer) => tool('pdftotext', ['-layout'], bytes).stdout;
  const verify = async (bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'certificate.pdf');
    const res = await fetch(`${ctx.baseUrl}/api/verify`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    return (await res.json()) as { status: string; documentId: string | null };
  };
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  it("a signed document's: the trail, both hashes, sealed; pdfsig validates it", async () => {
    const zoe = unique('zoe');
    const doc = await draft([{ email: zoe, name: 'Zoë Ünal' }], 'Rental contract');
    const { done, sealed } = await signAsOnlySignee(ctx, owner.apiKey, doc.id, {
      email: zoe,
      name: 'Zoë Ünal',
    });
    const { res, bytes } = await certificate(doc.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Rental contract-audit-certificate.pdf"; filename*=UTF-8''Rental%20contract-audit-certificate.pdf`,
    );
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const page = text(bytes);
    expect(page).toContain('Audit certificate');
    expect(page).toContain('Document: Rental contract');
    expect(page).toContain(doc.originalSha256);
    expect(page).toContain(sha256(sealed));
    expect(done.document.hash).toBe(sha256(sealed));
    expect(page).toMatch(/Seal mode\s+normalised/);
    expect(page).toMatch(/Document status\s+signed and sealed/);
    for (const action of ['created', 'sent', 'e-mailed', 'signed', 'sealed']) {
      expect(page).toMatch(new RegExp(`\\s${action}\\s`));
    }
    expect(page).toContain('Zoë Ünal');
    expect(page).toContain('SANDBOX - NOT LEGALLY BINDING');

    const sig = tool('pdfsig', [], bytes);
    expect(sig.stdout).toContain('Signature Validation: Signature is Valid.');
    expect(sig.stdout).toContain('ETSI.CAdES.detached');
    // The service knows the certificates it made: verifying one names its document.
    expect(await verify(bytes)).toMatchObject({ status: 'sealed', documentId: doc.id });
    const altered = Buffer.from(bytes);
    altered[200] ^= 1;
    expect((await verify(altered)).status).toBe('altered');
    // So does `signet verify`, against the same database.
    const cli = spawnSync('node', ['bin/signet.mjs', 'verify', tool('true', [], bytes).file], {
      encoding: 'utf8',
      env: {
        ...process.env,
        DATA_DIR: ctx.config.dataDir,
        ...(ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl } : {}),
      },
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`sealed: `);
    expect(cli.stdout).toContain(`document ${doc.id}`);
  });

  it('speaks the document language: German', async () => {
    const ida = unique('ida');
    const doc = await draft([{ email: ida, name: 'Ida Müller' }], 'Mietvertrag');
    const patched = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${doc.id}`, {
      emailLanguage: 'de',
    });
    expect(patched.status).toBe(200);
    await signAsOnlySignee(ctx, owner.apiKey, doc.id, { email: ida, name: 'Ida Müller' });
    const { res, bytes } = await certificate(doc.id);
    expect(res.status).toBe(200);
    const page = text(bytes);
    expect(page).toContain('Prüfprotokoll');
    expect(page).toContain('Dokument: Mietvertrag');
    expect(page).toContain('SHA-256 des Originals');
    expect(page).toContain('SHA-256 der Siegeldatei');
    expect(page).toContain('unterschrieben und versiegelt');
    expect(page).toContain('versiegelt');
    expect(page).not.toContain('Audit certificate');
  });

  it('an in_process document: the trail and the fields so far, no sealed hash', async () => {
    const [ana, ben] = [unique('ana'), unique('ben')];
    const box = { page: 1, x: 40, width: 150, height: 30 };
    const doc = await draft(
      [
        { email: ana, name: 'Ana Alpha' },
        { email: ben, name: 'Ben Beta' },
      ],
      'Lease',
      [
        { signee: 0, type: 'signature', ...box, y: 40 },
        { signee: 0, type: 'text', label: 'Flat number', ...box, y: 100 },
        { signee: 1, type: 'signature', ...box, y: 160 },
      ],
    );
    const sent = await api(ctx, owner.apiKey, 'POST', `/api/documents/${doc.id}/send-for-signing`);
    expect(sent.status).toBe(200);
    const token = await signingTokenFromMailbox(ctx, ana);
    const flat = doc.fields.find((f) => f.type === 'text')!;
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'drawn', image: TINY_PNG },
      fields: [{ id: flat.id, value: '12B' }],
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const { res, bytes } = await certificate(doc.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const page = text(bytes);
    expect(page).toContain(doc.originalSha256);
    expect(sent.body.document.hash).toBe(doc.originalSha256);
    expect(page).toMatch(/Document status\s+in process/);
    expect(page).toContain('Ana Alpha');
    expect(page).toMatch(/\ssigned\s/);
    // Each signee's fields under their name and address, whole, the signees in the order of
    // their first field.
    const oneLine = page.replace(/\s+/g, ' ');
    const anaAt = oneLine.indexOf(`Filled by Ana Alpha <${ana}>`);
    const benAt = oneLine.indexOf(`Filled by Ben Beta <${ben}>`);
    expect(anaAt).toBeGreaterThan(-1);
    expect(benAt).toBeGreaterThan(anaAt);
    const [anaRows, benRows] = [oneLine.slice(anaAt, benAt), oneLine.slice(benAt)];
    expect(anaRows).toMatch(/Flat number, p\. 1 12B /);
    expect(anaRows).toMatch(/Signature, p\. 1 Drawn signature /);
    expect(benRows).toMatch(/Signature, p\. 1 \(empty\) /);
    expect(page).not.toContain('Sealed file SHA-256');
    expect(page).not.toMatch(/\ssealed\s/);
    expect(tool('pdfsig', [], bytes).stdout).toContain('Signature is Valid.');
  });

  it('a draft: 409 document_not_sent; the SDK answers the bytes or a SignetApiError', async () => {
    const doc = await draft([{ email: unique('dan'), name: 'Dan Draft' }]);
    const { res, bytes } = await certificate(doc.id);
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(bytes.toString()).code).toBe('document_not_sent');

    const client = createSignetClient({ baseUrl: ctx.baseUrl, apiKey: owner.apiKey });
    const refused = await client.documents.getAuditCertificate(doc.id).catch((err) => err);
    expect(refused).toBeInstanceOf(SignetApiError);
    expect((refused as SignetApiError).code).toBe('document_not_sent');
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${doc.id}/send-for-signing`);
    const pdf = await client.documents.getAuditCertificate(doc.id);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(text(Buffer.from(pdf))).toContain(doc.originalSha256);
  });

  it("another tenant's document: 404; no credentials: 401; the dashboard session works", async () => {
    const doc = await draft([{ email: unique('eve'), name: 'Eve' }]);
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${doc.id}/send-for-signing`);
    const stranger = await createUser(ctx);
    await createTenant(ctx, stranger.apiKey, 'Other');
    const foreign = await certificate(doc.id, { 'x-api-key': stranger.apiKey });
    expect(foreign.res.status).toBe(404);
    expect(JSON.parse(foreign.bytes.toString()).code).toBe('not_found');
    const missing = await certificate('00000000-0000-4000-8000-000000000000');
    expect(missing.res.status).toBe(404);

    const anonymous = await fetch(`${ctx.baseUrl}/api/documents/${doc.id}/certificate`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('unauthenticated');

    const viaSession = await fetch(`${ctx.baseUrl}/api/documents/${doc.id}/certificate`, {
      headers: { cookie: owner.cookie },
    });
    expect(viaSession.status).toBe(200);
    expect(viaSession.headers.get('content-type')).toBe('application/pdf');
  });
});
