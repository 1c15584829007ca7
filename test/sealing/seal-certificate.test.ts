import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createSelfSignedP12,
  loadOrCreateSealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { scratchDir } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

describe('loadOrCreateSealCertificate', () => {
  it('generates the sandbox seal once, privately, and reuses it', async () => {
    const dataDir = join(scratch.dir, 'once');
    const first = await loadOrCreateSealCertificate({ dataDir });
    expect(first.source).toBe('sandbox');
    expect(first.subject).toContain('CN=Signet Sandbox Seal');
    expect(first.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(first.notAfter.getTime()).toBeGreaterThan(Date.now() + 365 * 24 * 3600 * 1000);
    for (const file of ['sandbox-seal.p12', 'sandbox-seal.password']) {
      expect(statSync(join(dataDir, 'seal', file)).mode & 0o777).toBe(0o600);
    }
    const again = await loadOrCreateSealCertificate({ dataDir });
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(again.password).toBe(first.password);
  });

  it('converges on one certificate when several start at once', async () => {
    const dataDir = join(scratch.dir, 'race');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => loadOrCreateSealCertificate({ dataDir })),
    );
    expect(new Set(results.map((r) => r.fingerprint)).size).toBe(1);
    const later = await loadOrCreateSealCertificate({ dataDir });
    expect(later.fingerprint).toBe(results[0].fingerprint);
  });

  it('loads a configured P12 and rejects a wrong password', async () => {
    const p12Path = join(scratch.dir, 'configured.p12');
    writeFileSync(p12Path, createSelfSignedP12('Acme Production Seal', 's3cret'));
    const loaded = await loadOrCreateSealCertificate({
      dataDir: join(scratch.dir, 'unused'),
      p12Path,
      p12Password: 's3cret',
    });
    expect(loaded.source).toBe('configured');
    expect(loaded.subject).toContain('CN=Acme Production Seal');
    await expect(
      loadOrCreateSealCertificate({ dataDir: scratch.dir, p12Path, p12Password: 'wrong' }),
    ).rejects.toThrow();
  });
});
