import type { Config } from '../../config.js';
import { memoize } from '../../lib/ids.js';
import type { SealCertificate } from './seal-certificate.js';

/**
 * The seal certificate `config` names, read (or the sandbox one generated) on first call and
 * kept. The certificate and PDF libraries load with it, so a server that never seals or
 * verifies never holds them in memory.
 */
export function sealCertificateLoader(
  config: Pick<Config, 'dataDir' | 'sealP12Path' | 'sealP12Password'>,
): () => Promise<SealCertificate> {
  return memoize(async () => {
    const { loadOrCreateSealCertificate } = await import('./seal-certificate.js');
    return loadOrCreateSealCertificate({
      dataDir: config.dataDir,
      p12Path: config.sealP12Path ?? undefined,
      p12Password: config.sealP12Password ?? undefined,
    });
  });
}
