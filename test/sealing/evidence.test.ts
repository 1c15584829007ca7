import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { P12Signer, PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyEvidence } from '../../sdk/src/index.js';
import {
  embedEvidence,
  readEvidence,
  type Evidence,
} from '../../server/src/modules/sealing/evidence.js';
import { signPdf } from '../../server/src/modules/sealing/pades-signature.js';
import {
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { sealPdf, type SealPdfInput } from '../../server/src/modules/sealing/seal-pdf.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { useTenantFixture } from '../helpers/factories.js';
import {
  TINY_PNG,
  downloadFile,
  signingCall,
  signingTokenFromMailbox,
  waitForStatus,
} from '../helpers/signing.js';
import { makePdf, makePng, runOnPdf, scratchDir, sha256 } from './helpers.js';

const scratch = scratchDir();
let certificate: SealCertificate;
let stranger: SealCertificate;

const png = makePng();
const auditEntries = Array.from({ length: 20 }, (_, i) => ({
  at: new Date(Date.UTC(2024, 4, 1, 9, i)).toISOString(),
  action: ['created', 'sent', 'e-mailed', 'opened', 'signed'][i % 5],
  actor: i % 5 === 0 ? 'sender' : `Signer ${i} <signer${i}@example.com>`,
  ip: i % 3 ? `198.51.100.${i}` : null,
  userAgent: i % 4 ? 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0' : null,
}));

function input(original: Uint8Array): SealPdfInput {
  return {
    original,
    signatures: [
      {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        signedAt: '2024-05-01T10:00:00.000Z',
        image: png,
      },
      {
        name: 'Zoë Ünal',
        email: 'zoe@example.com',
        signedAt: '2024-05-01T11:30:00.000Z',
        typedName: 'Zoë Ü',
      },
    ],
    fields: [
      {
        type: 'text',
        page: 1,
        x: 72,
        y: 100.5,
        width: 200,
        height: 20,
        label: 'Company',
        value: 'Analytical Engines Ltd',
        tagBox: null,
        signeeName: 'Ada Lovelace',
        signeeEmail: 'ada@example.com',
        filledAt: '2024-05-01T10:00:00.000Z',
      },
      {
        type: 'checkbox',
        page: 1,
        x: 72,
        y: 140,
        width: 12,
        height: 12,
        label: null,
        value: true,
        tagBox: null,
        signeeName: 'Zoë Ünal',
        signeeEmail: 'zoe@example.com',
        filledAt: '2024-05-01T11:30:00.000Z',
      },
    ],
    auditEntries,
    documentName: 'Service agreement',
    documentId: 'doc_01HZX',
    language: 'de',
    originalSha256: sha256(original),
    sandbox: false,
    certificate,
  };
}

// The chain rule of docs/evidence.md, written again here: entries are flat objects of strings
// and nulls, whose RFC 8785 form is JSON with sorted keys and no spaces.
function canonical(entry: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1))),
  );
}
const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function qpdfEvidence(bytes: Uint8Array): Evidence {
  const shown = runOnPdf(scratch.dir, 'qpdf', ['--show-attachment=evidence.json', '{}'], bytes);
  expect(shown.status, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout) as Evidence;
}

// Objects of the final revision as qpdf reads them (qpdf --json, version 2).
function qpdfObjects(bytes: Uint8Array) {
  const json = JSON.parse(
    runOnPdf(scratch.dir, 'qpdf', ['--json', '--json-key=qpdf', '{}'], bytes).stdout,
  );
  const objects = json.qpdf[1] as Record<
    string,
    { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }
  >;
  const get = (ref: unknown) => objects[`obj:${String(ref)}`];
  return {
    root: get((objects.trailer.value as Record<string, unknown>)['/Root'])?.value ?? {},
    get,
  };
}

// `signet verify --evidence`, the certificate read from DATA_DIR (and the database there, or
// DATABASE_URL's).
function cli(file: string, ...args: string[]) {
  return cliWith({ DATA_DIR: scratch.dir }, file, ...args);
}

function cliWith(env: Record<string, string>, file: string, ...args: string[]) {
  const command = ['tsx', 'server/src/cli.ts', 'verify', '--evidence', ...args, file];
  const result = spawnSync('npx', command, {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// The SDK's standalone verifier, as an integrator runs it.
function sdkVerifier(file: string, ...args: string[]) {
  const result = spawnSync('npx', ['tsx', 'sdk/bin/verify-evidence.ts', file, ...args], {
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// A PDF signed by `signer` with `evidence` embedded, as a forger with its own key would make.
async function forged(evidence: Evidence, signer: SealCertificate): Promise<Uint8Array> {
  const pdf = await PDF.load(await makePdf(1));
  const at = new Date('2024-05-02T00:00:00Z');
  embedEvidence(pdf, evidence, at);
  return signPdf(pdf, {
    signer: await P12Signer.create(signer.p12, signer.password),
    fieldName: 'Forged seal',
    reason: 'Forged',
    signingTime: at,
    reservedBytes: 12_288,
  });
}

beforeAll(async () => {
  certificate = await loadOrCreateSealCertificate({ dataDir: scratch.dir });
  const other = join(scratch.dir, 'stranger');
  mkdirSync(other);
  stranger = await loadOrCreateSealCertificate({ dataDir: other });
});
afterAll(() => scratch.cleanup());

const modes = {
  // A 10-page original with no signatures: rewritten, values drawn, sealed.
  normalised: async () => {
    const original = await makePdf(10);
    return { original, sealed: await sealPdf(input(original)) };
  },
  // An original signed by someone else, with object and cross-reference streams as most
  // signing tools write them: appended to, its signature kept valid.
  incremental: async () => {
    const plain = join(scratch.dir, 'plain.pdf');
    writeFileSync(plain, await makePdf(2));
    const packed = spawnSync('qpdf', ['--object-streams=generate', plain, '-']).stdout;
    const pdf = await PDF.load(new Uint8Array(packed));
    const original = await signPdf(pdf, {
      signer: await P12Signer.create(stranger.p12, stranger.password),
      fieldName: 'Counterparty',
      reason: 'Signed before upload',
      signingTime: new Date('2024-04-01T00:00:00Z'),
      reservedBytes: 12_288,
    });
    return { original, sealed: await sealPdf(input(original)) };
  },
  // An original sealed without being modified: attached as original.pdf beside the evidence.
  attached: async () => {
    const original = await makePdf(2);
    return { original, sealed: await sealPdf(input(original), { attachOnly: 'for the test' }) };
  },
};

describe.each(Object.keys(modes) as Array<keyof typeof modes>)('a %s seal', (mode) => {
  let original: Uint8Array;
  let sealed: Uint8Array;
  let evidence: Evidence;
  beforeAll(async () => {
    const made = await modes[mode]();
    original = made.original;
    expect(made.sealed.mode).toBe(mode);
    sealed = made.sealed.bytes;
    evidence = qpdfEvidence(sealed);
  });

  it('lists evidence.json as an attachment and an associated file of the document', () => {
    const listed = runOnPdf(scratch.dir, 'qpdf', ['--list-attachments', '{}'], sealed).stdout;
    expect(listed).toMatch(/^evidence\.json -> /m);
    if (mode === 'attached') expect(listed).toMatch(/^original\.pdf -> /m);
    if (mode === 'incremental') expect(Buffer.from(sealed).toString('latin1')).toMatch(/\/XRef/);
    const { root, get } = qpdfObjects(sealed);
    const associated = (root['/AF'] as string[]).map((ref) => get(ref)?.value ?? {});
    const spec = associated.find((s) => s['/F'] === 'u:evidence.json');
    expect(spec?.['/AFRelationship']).toBe('/Supplement');
    const stream = get((spec?.['/EF'] as Record<string, string>)['/F'])?.stream?.dict ?? {};
    expect(stream['/Subtype']).toBe('/application/json');
    expect(stream['/Filter']).toBe('/FlateDecode');
  });

  it('holds the document, the seal, the fields, the signees and the audit trail in order', () => {
    expect(evidence.format).toEqual({ name: 'signet-evidence', version: 1 });
    expect(evidence.document).toEqual({
      id: 'doc_01HZX',
      name: 'Service agreement',
      language: 'de',
      originalSha256: sha256(original),
    });
    expect(evidence.seal.mode).toBe(mode);
    expect(evidence.seal.certificate.fingerprintSha256).toBe(certificate.fingerprint);
    expect(evidence.fields.map((f) => [f.type, f.box.y, f.value, f.filledBy.email])).toEqual([
      ['text', 100.5, 'Analytical Engines Ltd', 'ada@example.com'],
      ['checkbox', 140, true, 'zoe@example.com'],
    ]);
    expect(evidence.signees.map((s) => [s.name, s.method, s.signatureImageSha256])).toEqual([
      ['Ada Lovelace', 'drawn', sha256(png)],
      ['Zoë Ünal', 'typed', null],
    ]);
    expect(evidence.auditTrail.entries.map(({ prev: _prev, ...entry }) => entry)).toEqual(
      auditEntries,
    );
  });

  it("chains each audit entry to the one before, the first to the original's SHA-256", () => {
    const { entries, head } = evidence.auditTrail;
    let expected = sha256(original);
    for (const entry of entries) {
      expect(entry.prev).toBe(expected);
      expected = hex(canonical(entry));
    }
    expect(head).toBe(expected);
  });

  it('keeps every signature valid in pdfsig, the seal covering the evidence', () => {
    const pdfsig = runOnPdf(scratch.dir, 'pdfsig', ['{}'], sealed).stdout;
    const count = mode === 'incremental' ? 2 : 1;
    expect(pdfsig.match(/Signature is Valid/g)).toHaveLength(count);
    expect(pdfsig).toContain('Total document signed');
    const checked = verifyEvidence(sealed, { trustedFingerprints: [certificate.fingerprint] });
    expect(checked.status, checked.detail).toBe('valid');
    expect(checked.signature?.coversEvidence).toBe(true);
    expect(checked.chain).toMatchObject({ ok: true, entries: 20 });
  });

  it('reads back what qpdf extracts, small, and valid against docs/evidence.schema.json', () => {
    expect(readEvidence(sealed)).toEqual(evidence);
    const raw = runOnPdf(
      scratch.dir,
      'qpdf',
      ['--show-attachment=evidence.json', '{}'],
      sealed,
    ).stdout;
    expect(Buffer.byteLength(raw)).toBeLessThan(50_000);
    const validate = schemaValidator();
    expect(validate(evidence), JSON.stringify(validate.errors)).toBe(true);
  });
});

// ajv is the reference JSON Schema validator; it comes with @seriousme/openapi-schema-validator.
function schemaValidator() {
  const require = createRequire(
    createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'),
  );
  const Ajv2020 = require('ajv/dist/2020.js') as new (options: object) => {
    compile: (schema: object) => ((data: unknown) => boolean) & { errors?: unknown };
  };
  const schema = JSON.parse(readFileSync('docs/evidence.schema.json', 'utf8')) as object;
  return new Ajv2020({ allErrors: true }).compile(schema);
}

describe('tampering with the evidence', () => {
  let original: Uint8Array;
  let sealed: Uint8Array;
  let evidence: Evidence;
  beforeAll(async () => {
    original = await makePdf(2);
    sealed = (await sealPdf(input(original))).bytes;
    evidence = qpdfEvidence(sealed);
  });
  const file = (name: string, bytes: Uint8Array) => {
    const path = join(scratch.dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  it('finds a re-signed copy with a recomputed chain signed by an unknown certificate', async () => {
    const entries = evidence.auditTrail.entries.map(({ prev: _prev, ...e }) => e);
    entries[3] = { ...entries[3], actor: 'Mallory <mallory@example.com>' };
    let prev = evidence.document.originalSha256;
    const chained = entries.map((e) => {
      const linked = { prev, ...e };
      prev = hex(canonical(linked));
      return linked;
    });
    const bytes = await forged(
      { ...evidence, auditTrail: { entries: chained, head: prev } },
      stranger,
    );
    const checked = verifyEvidence(bytes, { trustedFingerprints: [certificate.fingerprint] });
    expect(checked.status).toBe('untrusted');
    expect(checked.chain?.ok).toBe(true);
    expect(checked.signature?.signer?.fingerprintSha256).toBe(stranger.fingerprint);
    const run = cli(file('forged.pdf', bytes));
    expect(run.status, run.stderr).toBe(3);
    expect(run.stdout).toMatch(
      /^unknown: The PDF is signed, but not by a seal certificate of this service/m,
    );
    expect(run.stdout).toContain('evidence: untrusted');
  });

  it('reports a broken chain with the entry where it breaks', async () => {
    const entries = evidence.auditTrail.entries.map((e, i) =>
      i === 6 ? { ...e, action: 'declined' } : e,
    );
    const bytes = await forged(
      { ...evidence, auditTrail: { ...evidence.auditTrail, entries } },
      certificate,
    );
    const checked = verifyEvidence(bytes, { trustedFingerprints: [certificate.fingerprint] });
    expect(checked.status).toBe('broken_chain');
    expect(checked.chain).toMatchObject({ ok: false, index: 7 });
    const path = file('broken.pdf', bytes);
    const run = cli(path);
    expect(run.status, run.stderr).toBe(4);
    const sdk = sdkVerifier(path, '--trust', certificate.fingerprint);
    expect(sdk.status, sdk.stderr).toBe(4);
    expect(sdk.stdout).toMatch(/^broken_chain: /);
    expect(sdk.stdout).toMatch(/^8\. .*<-- broken link$/m);
    expect(run.stdout).toContain('audit entry 8 does not carry the SHA-256 of entry 7');
    expect(run.stdout).toMatch(/^ {4}8\. .*<-- broken link$/m);
  });

  it('finds a flipped byte: the file is altered', () => {
    // A byte of the header's binary comment: the structure reads the same, the bytes do not.
    const flipped = new Uint8Array(sealed);
    flipped[10] ^= 0x01;
    expect(verifyEvidence(flipped).status).toBe('altered');
    const path = file('flipped.pdf', flipped);
    const run = cli(path);
    expect(run.status, run.stderr).toBe(2);
    expect(sdkVerifier(path).status).toBe(2);
    expect(run.stdout).toMatch(/^altered: /m);
    expect(run.stdout).toContain('evidence: altered');
  });

  it('prints the untouched evidence, as text and as JSON', () => {
    const path = file('sealed.pdf', sealed);
    const text = cli(path);
    // Validly sealed, but this test's database never saw the document: unknown (exit 3).
    expect(text.status, text.stderr).toBe(3);
    expect(text.stdout).toContain('evidence: valid');
    expect(text.stdout).toContain(`original SHA-256: ${sha256(original)}`);
    expect(text.stdout).toMatch(/^ {4}20\. 2024-05-01T09:19:00\.000Z signed by Signer 19/m);
    const sdk = sdkVerifier(path, '--trust', certificate.fingerprint.toUpperCase());
    expect(sdk.status, sdk.stderr).toBe(0);
    expect(sdk.stdout).toMatch(/^valid: /);
    expect(sdk.stdout).toContain(`original SHA-256 ${sha256(original)}`);
    expect(sdkVerifier(path, '--trust', stranger.fingerprint).status).toBe(3);
    const json = JSON.parse(cli(path, '--json').stdout);
    expect(json.evidence.status).toBe('valid');
    expect(json.evidence.chain).toMatchObject({ ok: true, entries: 20 });
    expect(json.evidence.evidence.document.originalSha256).toBe(sha256(original));
  });
});

describe.each(ENGINES)('a document signed and sealed through the app on %s', (engine) => {
  const fixture = useTenantFixture(engine, { listen: true });

  it('embeds the real audit trail and how each signee was identified', async () => {
    const { ctx, apiKey, tenantId } = fixture;
    const ada = { email: 'ada@example.com', name: 'Ada Lovelace' };
    const zoe = { email: 'zoe@example.com', name: 'Zoë Ünal' };
    const created = await quickCreate(ctx, apiKey, { tenantId, signees: [ada, zoe] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id as string;
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    const adaToken = await signingTokenFromMailbox(ctx, ada.email);
    expect((await signingCall(ctx, adaToken, '')).status).toBe(200);
    const drawn = { consent: true, signature: { type: 'drawn', image: TINY_PNG } };
    expect((await signingCall(ctx, adaToken, 'sign', drawn)).status).toBe(200);
    const zoeToken = await signingTokenFromMailbox(ctx, zoe.email);
    const typed = { consent: true, signature: { type: 'typed', text: 'Zoë Ü.' } };
    expect((await signingCall(ctx, zoeToken, 'sign', typed)).status).toBe(200);
    const done = await waitForStatus(ctx, apiKey, id, 'signed');
    const sealed = await downloadFile(ctx, done.document.downloadUrl);

    const evidence = qpdfEvidence(sealed);
    expect(evidence.document.id).toBe(id);
    expect(evidence.seal.mode).toBe('normalised');
    const trail = (await api(ctx, apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail as Array<{ action: string; createdAt: string; ip: string | null }>;
    // Everything recorded before the seal, in order; the seal's own entry comes after it.
    const before = trail.slice(
      0,
      trail.findIndex((e) => e.action === 'sealed'),
    );
    expect(evidence.auditTrail.entries.map((e) => [e.at, e.action, e.ip])).toEqual(
      before.map((e) => [e.createdAt, e.action, e.ip]),
    );
    expect(verifyEvidence(sealed).chain).toMatchObject({ ok: true, entries: before.length });

    const [first, second] = evidence.signees;
    expect(first).toMatchObject({
      name: ada.name,
      email: ada.email,
      status: 'signed',
      invitation: { channel: 'email' },
      userAgent: 'SignetTest/1.0',
      consent: { given: true, statement: expect.stringContaining('electronically') },
      method: 'drawn',
      typedName: null,
      signatureImageSha256: sha256(Buffer.from(TINY_PNG.split(',')[1], 'base64')),
    });
    expect(first.invitation.emailedAt).toHaveLength(1);
    expect(first.openedAt).not.toBeNull();
    expect(first.ip).toMatch(/127\.0\.0\.1/);
    expect(second).toMatchObject({ email: zoe.email, method: 'typed', typedName: 'Zoë Ü.' });
    expect(second.openedAt).toBeNull();
    const signedEntry = trail.find((e) => e.action === 'signed');
    expect(first.signedAt).toBe(signedEntry?.createdAt);

    // The service's own CLI knows the document: sealed, its evidence intact (exit 0).
    const path = join(scratch.dir, `${engine}-flow.pdf`);
    writeFileSync(path, sealed);
    const env: Record<string, string> = { DATA_DIR: ctx.config.dataDir };
    if (ctx.config.databaseUrl) env.DATABASE_URL = ctx.config.databaseUrl;
    const run = cliWith(env, path);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^sealed: /m);
    expect(run.stdout).toContain(`document ${id}`);
    expect(run.stdout).toContain('Ada Lovelace <ada@example.com>: signed');
  });
});
