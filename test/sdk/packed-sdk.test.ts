// The SDK as an integrator gets it: built, packed by `npm pack`, installed from the tarball
// into an empty project with no network (`npm install --offline`: it has no dependencies),
// then used from plain `node` against a running service, and type-checked from TypeScript
// against the packed .d.ts alone. One engine (SQLite): the SDK sees only HTTP, and both
// engines are covered by the in-repo client tests (test/webhooks/sdk-client.test.ts).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { createUser } from '../helpers/factories.js';
import { minimalPdf, WEBHOOK_TEST_ENV } from '../webhooks/fixtures.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const NPM = process.env.npm_execpath;
// npm itself: through node when vitest runs under npm, else the one on PATH.
const npm = (args: string[], cwd: string) =>
  NPM && NPM.endsWith('.js')
    ? run(process.execPath, [NPM, ...args], { cwd, timeout: 120_000 })
    : run('npm', args, { cwd, timeout: 120_000 });

describe('the packed SDK, installed from its tarball', () => {
  let dir: string;
  let project: string;
  let ctx: TestContext;
  let apiKey: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'signet-sdk-pack-'));
    project = path.join(dir, 'consumer');
    // `prepack` builds sdk/dist first (sdk/scripts/build.mjs), so the tarball is current.
    await npm(['pack', '--pack-destination', dir], path.join(ROOT, 'sdk'));
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack wrote no tarball');
    cpSync(path.join(ROOT, 'test/sdk/consumer'), project, { recursive: true });
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    await npm(
      ['install', '--offline', '--no-audit', '--no-fund', path.join(dir, tarball)],
      project,
    );
    ctx = await createTestContext('sqlite', { env: WEBHOOK_TEST_ENV, listen: true });
    apiKey = (await createUser(ctx)).apiKey;
  }, 240_000);

  afterAll(async () => {
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs the built JavaScript and types, not the TypeScript sources', () => {
    const installed = path.join(project, 'node_modules/@signet/sdk');
    expect(readdirSync(installed).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'package.json']);
    expect(existsSync(path.join(installed, 'dist/src/index.js'))).toBe(true);
    expect(existsSync(path.join(installed, 'dist/src/index.d.ts'))).toBe(true);
    expect(existsSync(path.join(installed, 'dist/src/client.ts'))).toBe(false);
    expect(existsSync(path.join(project, 'node_modules/.bin/signet-verify-evidence'))).toBe(true);
  });

  it('runs from plain node: documents, downloads, and two tenants webhooks on one receiver', async () => {
    const pdf = path.join(dir, 'contract.pdf');
    writeFileSync(pdf, minimalPdf());
    const { stdout } = await run(process.execPath, ['consumer.mjs'], {
      cwd: project,
      timeout: 60_000,
      env: { ...process.env, BASE_URL: ctx.baseUrl, API_KEY: apiKey, PDF: pdf },
    });
    const out = JSON.parse(stdout) as {
      meta: { environment: string };
      tenants: Record<
        string,
        {
          id: string;
          documentId: string;
          status: string;
          listed: string[];
          trail: string[];
          settings: number;
          download: string;
          cancelled: string;
        }
      >;
      events: Array<{ tenantId: string; type: string; to: string }>;
      wrongSecret: unknown;
      swappedResolver: unknown;
      rightResolver: boolean;
      notFound: unknown;
    };
    expect(out.meta.environment).toBe('sandbox');
    for (const tenant of Object.values(out.tenants)) {
      expect(tenant.status).toBe('in_process');
      expect(tenant.listed).toEqual([tenant.documentId]);
      expect(tenant.trail.length).toBeGreaterThan(0);
      expect(tenant.settings).toBeGreaterThan(0);
      expect(tenant.download).toBe('%PDF-');
      expect(tenant.cancelled).toBe('cancelled');
    }
    const { Acme, Globex } = out.tenants;
    const changes = (tenantId: string) =>
      out.events
        .filter((e) => e.tenantId === tenantId)
        .map((e) => `${e.type}:${e.to}`)
        .sort();
    const expected = ['document.status_changed:cancelled', 'document.status_changed:in_process'];
    expect(changes(Acme.id)).toEqual(expected);
    expect(changes(Globex.id)).toEqual(expected);
    expect(out.wrongSecret).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(out.swappedResolver).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(out.rightResolver).toBe(true);
    expect(out.notFound).toEqual({ isApiError: true, status: 404 });
  }, 90_000);

  it('type-checks a strict TypeScript consumer against the packed .d.ts', async () => {
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          // The packed .d.ts are checked too: no import of anything the install lacks.
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', project], { timeout: 120_000 }).then(
      () => 'clean',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('clean');
  }, 150_000);
});
