// Issue 28: the production build. The output of `npm run build`, copied into an empty directory
// with the production dependencies only (built-tree.ts), started with `npm start` as an operator
// would: the pages, the API reference and a worker thread working with neither tsx nor the
// sources there; and the README's quickstart, from sign-up to a sealed PDF that verifies, run
// against it. How fast it starts and how much memory it holds idle are figures of
// bench/startup.bench.ts (goals: /readyz < 2 s, < 120 MiB), not assertions here.
//
// It needs a current build in dist/. CI (.ci/run) runs `npm run build` first, sets CI, and runs
// this file alone, before the rest; there a missing or stale build fails it. Elsewhere it is skipped without a current build, its name saying why.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdf.js';
import { readmeQuickstart } from '../helpers/readme.js';
import {
  freshDataDir,
  prepareBuiltTree,
  readBuildState,
  ROOT,
  startBuiltTree,
  type StartedTree,
} from './built-tree.js';

const run = promisify(execFile);

const build = await readBuildState();
const inCi = Boolean(process.env.CI);

if (build.state !== 'current' && !inCi) {
  it.skip(`production build: skipped, ${build.reason} (run \`npm run build\`)`, () => {});
} else {
  describe('production build: npm start of the built tree with production dependencies', () => {
    let tree: Awaited<ReturnType<typeof prepareBuiltTree>>;
    let running: StartedTree | undefined;

    beforeAll(async () => {
      if (build.state !== 'current') throw new Error(`CI needs a current build: ${build.reason}`);
      tree = await prepareBuiltTree();
    });
    afterAll(async () => {
      await running?.stop();
      await tree?.remove();
    });

    it('holds the compiled tree and no dev dependency or source', () => {
      for (const name of ['dist/server/src/cli.js', 'dist/web/dist/index.html', 'bin/signet.mjs']) {
        expect(existsSync(path.join(tree.dir, name)), name).toBe(true);
      }
      for (const name of ['server', 'web/src', 'node_modules/tsx', 'node_modules/vite']) {
        expect(existsSync(path.join(tree.dir, name)), name).toBe(false);
      }
      expect(existsSync(path.join(tree.dir, 'node_modules/typescript'))).toBe(false);
    });

    it('serves the pages, the API reference and a worker thread from compiled code', async () => {
      running = await startBuiltTree(tree.dir, {
        dataDir: freshDataDir(path.join(tree.dir, 'data'), 'serve'),
      });
      const base = running.baseUrl;

      const page = await fetch(`${base}/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script, html).toBeTruthy();
      expect((await fetch(`${base}${script}`)).status).toBe(200);

      expect((await fetch(`${base}/docs`)).status).toBe(200);
      expect((await fetch(`${base}/api/openapi.json`)).status).toBe(200);

      // POST /api/verify checks the file on its worker thread (verify.worker.mjs), which must
      // load the compiled verify-pdf.js: tsx, its fallback, is not installed here.
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(makePdf())], { type: 'application/pdf' }),
        'a.pdf',
      );
      const verified = await fetch(`${base}/api/verify`, { method: 'POST', body: form });
      const body = (await verified.json()) as { status: string };
      expect(verified.status, JSON.stringify(body)).toBe(200);
      expect(body.status).toBe('unknown');
      expect(running.output()).not.toMatch(/error/i);
    });

    it('runs the README quickstart: sign-up to a sealed PDF that verifies', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'signet-built-quickstart-'));
      try {
        writeFileSync(path.join(dir, 'contract.pdf'), makePdf({ pages: 2, title: 'Contract' }));
        const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeQuickstart(ROOT)], {
          cwd: dir,
          env: { ...process.env, BASE: running!.baseUrl },
          timeout: 60_000,
        });
        const verified = JSON.parse(stdout.slice(stdout.lastIndexOf('{"status":'))) as {
          status: string;
        };
        expect(verified.status).toBe('sealed');
        expect(running!.output()).not.toMatch(/error/i);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
