import { spawnSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RevocationProvider } from '@libpdf/core';
import {
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import type { TsaIdentity } from './fake-tsa.js';
import { openssl } from './helpers.js';

/** A root CA issuing a seal certificate and a TSA certificate, with its OCSP answers and CRL. */
export type LevelsPki = {
  seal: SealCertificate;
  tsa: TsaIdentity;
  caDer: Uint8Array;
  /** Answers OCSP for the CA's certificates, or hands out its CRL, or nothing. */
  revocation: (kind: 'ocsp' | 'crl' | 'none') => RevocationProvider;
  /** Runs `openssl ts -verify` on a token over `data`, trusting the CA. */
  verifyToken: (token: Uint8Array, data: Uint8Array) => { status: number | null; out: string };
};

/** Makes the CA, the certificates, its index (both valid) and its CRL with openssl in `dir`. */
export async function makeLevelsPki(dir: string): Promise<LevelsPki> {
  const run = (...args: string[]) => openssl(dir, args);
  const subject = (cn: string) => ['-subj', `/CN=${cn}/O=Signet Test`];
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '30',
    ...subject('Levels Root'),
  );
  writeFileSync(
    join(dir, 'tsa.ext'),
    'extendedKeyUsage=critical,timeStamping\nkeyUsage=critical,digitalSignature\n',
  );
  for (const [name, serial, extra] of [
    ['seal', '1001', []],
    ['tsa', '1002', ['-extfile', 'tsa.ext']],
  ] as const) {
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      ...subject(`Levels ${name}`),
    );
    run(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      `0x${serial}`,
      '-days',
      '30',
      '-out',
      `${name}.pem`,
      ...extra,
    );
  }
  run(
    'pkcs12',
    '-export',
    '-inkey',
    'seal.key',
    '-in',
    'seal.pem',
    '-certfile',
    'ca.pem',
    '-out',
    'seal.p12',
    '-passout',
    'pass:levels',
  );
  const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const asn1Time = `${expiry.slice(2, 4)}${expiry.slice(5, 7)}${expiry.slice(8, 10)}${expiry.slice(11, 13)}${expiry.slice(14, 16)}${expiry.slice(17, 19)}Z`;
  writeFileSync(
    join(dir, 'index.txt'),
    ['seal 1001', 'tsa 1002']
      .map((entry) => entry.split(' '))
      .map(
        ([name, serial]) =>
          `V\t${asn1Time}\t\t${serial}\tunknown\t/CN=Levels ${name}/O=Signet Test\n`,
      )
      .join(''),
  );
  writeFileSync(join(dir, 'crlnumber'), '01\n');
  writeFileSync(
    join(dir, 'ca.cnf'),
    '[ca]\ndefault_ca=d\n[d]\ndatabase=index.txt\ncrlnumber=crlnumber\ndefault_md=sha256\ndefault_crl_days=7\n',
  );
  run(
    'ca',
    '-gencrl',
    '-config',
    'ca.cnf',
    '-keyfile',
    'ca.key',
    '-cert',
    'ca.pem',
    '-out',
    'crl.pem',
  );
  run('crl', '-in', 'crl.pem', '-outform', 'DER', '-out', 'crl.der');

  const der = (file: string) =>
    new Uint8Array(new X509Certificate(readFileSync(join(dir, file))).raw);
  const caDer = der('ca.pem');
  const crl = new Uint8Array(readFileSync(join(dir, 'crl.der')));
  const isCa = (cert: Uint8Array) => Buffer.from(cert).equals(caDer);
  let requests = 0;
  return {
    seal: await loadOrCreateSealCertificate({
      dataDir: dir,
      p12Path: join(dir, 'seal.p12'),
      p12Password: 'levels',
    }),
    tsa: {
      certificate: der('tsa.pem'),
      privateKey: new Uint8Array(
        createPrivateKey(readFileSync(join(dir, 'tsa.key'))).export({
          type: 'pkcs8',
          format: 'der',
        }),
      ),
      chain: [caDer],
    },
    caDer,
    revocation: (kind) => ({
      getOCSP: async (cert) => {
        if (kind !== 'ocsp' || isCa(cert)) return null;
        const file = `ocsp-${++requests}`;
        writeFileSync(join(dir, `${file}.pem`), new X509Certificate(cert).toString());
        run(
          'ocsp',
          '-index',
          'index.txt',
          '-rsigner',
          'ca.pem',
          '-rkey',
          'ca.key',
          '-CA',
          'ca.pem',
          '-issuer',
          'ca.pem',
          '-cert',
          `${file}.pem`,
          '-respout',
          `${file}.der`,
          '-ndays',
          '7',
        );
        return new Uint8Array(readFileSync(join(dir, `${file}.der`)));
      },
      getCRL: async (cert) => (kind === 'crl' && !isCa(cert) ? crl : null),
    }),
    verifyToken: (token, data) => {
      writeFileSync(join(dir, 'token.der'), token);
      writeFileSync(join(dir, 'data.bin'), data);
      const result = spawnSync(
        'openssl',
        [
          'ts',
          '-verify',
          '-in',
          'token.der',
          '-token_in',
          '-data',
          'data.bin',
          '-CAfile',
          'ca.pem',
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      return { status: result.status, out: `${result.stdout}${result.stderr}` };
    },
  };
}
