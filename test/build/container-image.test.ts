// Issue 52: the container image, really built. .ci/container-image builds the Dockerfile with
// buildah, rootless and with no daemon, from a clean export of the committed tree (base images
// made from Debian's packages and the official Node.js binary: this machine reaches no image
// registry) and reports what it holds; this file checks the report, then starts the service
// from the image and runs the README's quickstart against it, to a sealed PDF that verifies.
// Its size and start time are printed, and written in docs/operations.md ("Container").
//
// It needs root (apt-get, debootstrap, the builder account) and takes minutes. CI (.ci/run)
// runs it with the production build, before the rest, and there it must run; elsewhere it runs
// only with SIGNET_IMAGE_TEST=1.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdf.js';
import { readmeQuickstart } from '../helpers/readme.js';
import { ROOT } from './built-tree.js';

const run = promisify(execFile);
const wanted = Boolean(process.env.CI) || process.env.SIGNET_IMAGE_TEST === '1';
const script = path.join(ROOT, '.ci/container-image');
const PORT = 39481;

type Report = {
  sizeBytes: number;
  baseImagesSeconds: number;
  buildSeconds: number;
  uid: number;
  files: string[];
  modules: string[];
  fonts: string[];
  config: { User?: string; Env?: string[]; ExposedPorts?: Record<string, unknown>; Cmd?: string[] };
};

if (!wanted) {
  it.skip('container image: skipped outside CI (SIGNET_IMAGE_TEST=1 runs it, as root)', () => {});
} else {
  describe('container image: the Dockerfile built with buildah and started', () => {
    // .ci/run builds the image in the background while it checks and builds the tree, and names
    // its directory here (its output in DIR.log); otherwise this file builds it.
    const prebuilt = process.env.SIGNET_IMAGE_DIR;
    const work = prebuilt ?? mkdtempSync(path.join(tmpdir(), 'signet-image-'));
    let report: Report;

    beforeAll(async () => {
      if (process.getuid?.() !== 0)
        throw new Error('the image test needs root (apt-get, debootstrap)');
      const tail = (file: string) =>
        existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-40).join('\n') : '';
      if (!prebuilt) {
        await run('bash', [script, 'build', work], { maxBuffer: 64 * 1024 * 1024 }).catch(
          (error: { stderr?: string; message: string }) => {
            throw new Error(`${error.message}\n${error.stderr ?? ''}`);
          },
        );
      }
      if (!existsSync(path.join(work, 'report.json'))) {
        throw new Error(
          `no image was built:\n${tail(`${work}.log`)}\nbuild.log:\n${tail(path.join(work, 'build.log'))}`,
        );
      }
      report = JSON.parse(readFileSync(path.join(work, 'report.json'), 'utf8')) as Report;
      console.log(
        `image: ${(report.sizeBytes / 2 ** 20).toFixed(0)} MiB; base images ${report.baseImagesSeconds.toFixed(0)} s, ` +
          `build ${report.buildSeconds.toFixed(0)} s`,
      );
    }, 1_500_000);
    let serving: ChildProcess | undefined;
    afterAll(async () => {
      if (serving && serving.exitCode === null) {
        serving.kill('SIGTERM');
        await new Promise((resolve) => serving!.once('exit', resolve));
      }
      rmSync(work, { recursive: true, force: true });
    });

    it('runs as the unprivileged signet user with the documented settings', () => {
      expect(report.uid).toBe(10001);
      expect(report.config.User).toBe('signet');
      expect(report.config.ExposedPorts).toHaveProperty('3000/tcp');
      expect(report.config.Env).toEqual(
        expect.arrayContaining(['DATA_DIR=/data', 'PORT=3000', 'HOST=0.0.0.0']),
      );
      expect(report.config.Cmd).toEqual([
        'node',
        '--max-semi-space-size=64',
        'bin/signet.mjs',
        'serve',
      ]);
    });

    it('holds the compiled tree and production dependencies only', () => {
      for (const file of [
        './dist/server/src/cli.js',
        './dist/web/dist/index.html',
        './bin/signet.mjs',
      ]) {
        expect(report.files, file).toContain(file);
      }
      const sources = report.files.filter((f) =>
        /^\.\/(server|web\/src|test|bench|sdk|\.git)\//.test(f),
      );
      expect(sources).toEqual([]);
      for (const dev of ['vitest', 'typescript', 'tsx', 'vite', 'eslint', 'playwright-core']) {
        expect(report.modules, dev).not.toContain(dev);
      }
      expect(report.modules).toEqual(expect.arrayContaining(['better-sqlite3', 'fastify']));
      // One weight of each font package: the regular one the seal embeds.
      expect(report.fonts.length).toBeGreaterThanOrEqual(15);
      expect(report.fonts.filter((f) => !f.includes('/400Regular/'))).toEqual([]);
    });

    it('starts from the image, and the README quickstart seals a PDF against it', async () => {
      const started = Date.now();
      let output = '';
      serving = spawn('bash', [script, 'run', work, String(PORT)]);
      serving.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      serving.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const base = `http://127.0.0.1:${PORT}`;
      for (;;) {
        const ready = await fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        if (serving.exitCode !== null || Date.now() - started > 120_000) {
          throw new Error(`the image did not start:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      console.log(
        `image: /readyz after ${((Date.now() - started) / 1000).toFixed(2)} s (buildah run)`,
      );
      const dir = mkdtempSync(path.join(tmpdir(), 'signet-image-quickstart-'));
      try {
        writeFileSync(path.join(dir, 'contract.pdf'), makePdf({ pages: 2, title: 'Contract' }));
        const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeQuickstart(ROOT)], {
          cwd: dir,
          env: { ...process.env, BASE: base },
          timeout: 120_000,
        });
        const verified = JSON.parse(stdout.slice(stdout.lastIndexOf('{"status":'))) as {
          status: string;
        };
        expect(verified.status).toBe('sealed');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      // SIGTERM reaches the service, which stops as under `docker stop`.
      serving.kill('SIGTERM');
      const code = await new Promise((resolve) => serving!.once('exit', resolve));
      expect(code).toBe(0);
      expect(output).not.toMatch(/"level":(50|60)/);
    }, 300_000);
  });
}
