import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSelfSignedP12 } from '../../server/src/modules/sealing/seal-certificate.js';

/** A seal certificate file as production wants it: SEAL_P12_PATH and SEAL_P12_PASSWORD. */
export async function writeSealP12(password = 'seal password') {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-p12-'));
  const file = path.join(dir, 'seal.p12');
  writeFileSync(file, createSelfSignedP12('Signet Test Seal', password), { mode: 0o600 });
  return { SEAL_P12_PATH: file, SEAL_P12_PASSWORD: password };
}
