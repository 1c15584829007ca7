import { X509Certificate, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  loadOrCreateSealCertificate,
  type SealCertificate,
} from '../../server/src/modules/sealing/seal-certificate.js';
import { freePort } from './free-port.js';
import {
  OpenSsl,
  argv,
  opensslConfig,
  otherImprint,
  prepareCaDir,
  provideKeys,
  rejection,
  service,
  type LocalService,
} from './local-pki-parts.js';

export type { LocalService } from './local-pki-parts.js';

/** How the local TSA answers: a real token, or one of the faults a real TSA shows. */
export type TsaMode =
  'ok' | 'fail-once-503' | 'always-503' | 'slow-body' | 'wrong-imprint' | 'junk' | 'rejection';

export type LocalPki = {
  dir: string;
  /** The seal certificate as SEAL_P12_PATH wants it: key, certificate, intermediate, root. */
  seal: { p12Path: string; password: string; p12: Uint8Array; certificate: Uint8Array };
  /** The seal certificate loaded as the service loads SEAL_P12_PATH, for sealPdf. */
  sealCertificate: () => Promise<SealCertificate>;
  /** DER certificates. */
  certificates: { root: Uint8Array; intermediate: Uint8Array; seal: Uint8Array; tsa: Uint8Array };
  /** PEM files for openssl: the root alone, and root + intermediate. */
  files: { root: string; chain: string };
  tsa: {
    url: string;
    mode: TsaMode;
    requests: number;
    /** How long 'slow-body' takes to send its body. */
    slowBodyMs: number;
  };
  ocsp: LocalService;
  crl: LocalService;
  /** A new leaf of the intermediate (seal profile, seal key): a certificate nothing has cached. */
  issue: (commonName: string) => Promise<Uint8Array>;
  /** Revokes a certificate of this PKI: its CA's OCSP answers revoked and its CRL lists it. */
  revoke: (certificate: Uint8Array) => Promise<void>;
  close: () => Promise<void>;
};

const PASSWORD = 'local pki password';

/**
 * A root CA, an intermediate, a seal certificate and a TSA certificate made with the openssl
 * CLI, and on loopback the services their certificates name: OCSP for each CA (answered by
 * `openssl ocsp` with a delegated responder), each CA's CRL, and an RFC 3161 TSA (answered by
 * `openssl ts -reply`) whose faults tests switch at run time. One per test file: 0.3 to 0.4 s
 * to start once the keys are cached, about 2 s the first time on a machine (six RSA keys).
 */
export async function startLocalPki(): Promise<LocalPki> {
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-pki-'));
  const openssl = new OpenSsl(dir);
  const file = (name: string) => path.join(dir, name);
  const [ocspPort, crlPort, tsaPort] = [await freePort(), await freePort(), await freePort()];
  const urls = { ocsp: `http://127.0.0.1:${ocspPort}`, crl: `http://127.0.0.1:${crlPort}` };
  const cnf = file('openssl.cnf');
  writeFileSync(cnf, opensslConfig(dir, urls));
  prepareCaDir(file('root'));
  prepareCaDir(file('intermediate'));
  writeFileSync(file('tsa-serial'), '01\n');
  await provideKeys(openssl, dir);

  // An hour back, so a verifier whose clock is a little behind still finds them valid.
  const startDate = new Date(Date.now() - 3600_000).toISOString().replace(/[-:T]|\.\d+/g, '');
  const issue = async (ca: string, profile: string, name: string, subject: string) => {
    const csr = file(`${name}.csr`);
    await openssl.run(
      argv`req -new -config ${cnf} -key ${file(`${name}.key`)} -subj ${subject} -out ${csr}`,
    );
    await openssl.run(
      argv`ca -batch -notext -config ${cnf} -name ${`${ca}_ca`} -extensions ${profile}
        -startdate ${startDate} -in ${csr} -out ${file(`${name}.crt`)}`,
    );
  };
  const subject = (cn: string) => `/CN=${cn}/O=Signet Test PKI`;
  await openssl.run(
    argv`req -x509 -new -config ${cnf} -extensions root_ext -key ${file('root.key')}
      -subj ${subject('Signet Test Root CA')} -days 3650 -out ${file('root.crt')}`,
  );
  // In order: `openssl ca` keeps each CA's database in a file.
  for (const [ca, profile, name, cn] of [
    ['root', 'intermediate_ext', 'intermediate', 'Signet Test Intermediate CA'],
    ['root', 'ocsp_ext', 'ocsp-root', 'Signet Test Root OCSP'],
    ['intermediate', 'seal_ext', 'seal', 'Signet Test Seal'],
    ['intermediate', 'tsa_ext', 'tsa', 'Signet Test TSA'],
    ['intermediate', 'ocsp_ext', 'ocsp-int', 'Signet Test OCSP'],
  ] as const) {
    await issue(ca, profile, name, subject(cn));
  }
  const pem = (name: string) => readFileSync(file(name), 'utf8');
  writeFileSync(file('chain.pem'), pem('intermediate.crt') + pem('root.crt'));
  writeFileSync(file('trust.pem'), pem('root.crt') + pem('intermediate.crt'));
  // 3DES and a SHA-1 MAC, as createSelfSignedP12 writes them: what @libpdf/core's P12 reader takes.
  await openssl.run(
    argv`pkcs12 -export -inkey ${file('seal.key')} -in ${file('seal.crt')}
      -certfile ${file('chain.pem')} -name ${'Signet Test Seal'} -passout ${`pass:${PASSWORD}`}
      -keypbe PBE-SHA1-3DES -certpbe PBE-SHA1-3DES -macalg sha1 -out ${file('seal.p12')}`,
  );
  const crls = new Map<string, Buffer>();
  const writeCrl = async (ca: 'root' | 'intermediate') => {
    const crlPem = await openssl.run(argv`ca -gencrl -config ${cnf} -name ${`${ca}_ca`}`);
    crls.set(`/${ca}.crl`, await openssl.run(argv`crl -outform DER`, crlPem));
  };
  await Promise.all([writeCrl('root'), writeCrl('intermediate')]);
  const der = (name: string) => new Uint8Array(new X509Certificate(pem(name)).raw);

  const ocsp = service(ocspPort, urls.ocsp, async (req, res, body) => {
    const ca = req.url === '/root' ? 'root' : req.url === '/intermediate' ? 'intermediate' : null;
    if (req.method !== 'POST' || !ca) return void res.writeHead(404).end();
    const signer = ca === 'root' ? 'ocsp-root' : 'ocsp-int';
    const id = randomBytes(6).toString('hex');
    const [request, response] = [file(`${id}.ocsp-req`), file(`${id}.ocsp-resp`)];
    writeFileSync(request, body);
    await openssl.run(
      argv`ocsp -index ${file(`${ca}/index.txt`)} -CA ${file(`${ca}.crt`)} -nmin 60
        -rsigner ${file(`${signer}.crt`)} -rkey ${file(`${signer}.key`)}
        -reqin ${request} -respout ${response}`,
    );
    res.writeHead(200, { 'content-type': 'application/ocsp-response' });
    res.end(readFileSync(response));
  });
  const crl = service(crlPort, urls.crl, (req, res) => {
    const bytes = crls.get(req.url ?? '');
    if (!bytes) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(bytes);
  });

  const tsaState = { mode: 'ok' as TsaMode, slowBodyMs: 60_000, failedOnce: false };
  const reply = async (query: Uint8Array) => {
    const id = randomBytes(6).toString('hex');
    writeFileSync(file(`${id}.tsq`), query);
    await openssl.run(
      argv`ts -reply -config ${cnf} -queryfile ${file(`${id}.tsq`)} -out ${file(`${id}.tsr`)}`,
    );
    return readFileSync(file(`${id}.tsr`));
  };
  const tsa = service(tsaPort, `http://127.0.0.1:${tsaPort}/tsr`, async (_req, res, body) => {
    const mode = tsaState.mode;
    if (mode === 'always-503' || (mode === 'fail-once-503' && !tsaState.failedOnce)) {
      tsaState.failedOnce = true;
      return void res.writeHead(503).end('busy');
    }
    const send = (bytes: Uint8Array) =>
      res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(bytes);
    if (mode === 'junk') return void send(randomBytes(6));
    if (mode === 'rejection') return void send(rejection());
    if (mode === 'wrong-imprint') return void send(await reply(otherImprint(body)));
    const token = await reply(body);
    if (mode !== 'slow-body') return void send(token);
    res.writeHead(200, {
      'content-type': 'application/timestamp-reply',
      'content-length': token.length,
    });
    res.flushHeaders();
    // The body a byte-range at a time over slowBodyMs: what a stalled upstream looks like.
    const steps = 60;
    for (let step = 0; step < steps && !res.destroyed; step++) {
      const from = Math.floor((token.length * step) / steps);
      res.write(token.subarray(from, Math.floor((token.length * (step + 1)) / steps)));
      await new Promise((resolve) => setTimeout(resolve, tsaState.slowBodyMs / steps));
    }
    res.end();
  });
  await Promise.all([ocsp.start(), crl.start(), tsa.start()]);

  return {
    dir,
    seal: {
      p12Path: file('seal.p12'),
      password: PASSWORD,
      p12: new Uint8Array(readFileSync(file('seal.p12'))),
      certificate: der('seal.crt'),
    },
    sealCertificate: () =>
      loadOrCreateSealCertificate({
        dataDir: dir,
        p12Path: file('seal.p12'),
        p12Password: PASSWORD,
      }),
    certificates: {
      root: der('root.crt'),
      intermediate: der('intermediate.crt'),
      seal: der('seal.crt'),
      tsa: der('tsa.crt'),
    },
    files: { root: file('root.crt'), chain: file('trust.pem') },
    tsa: {
      url: tsa.url,
      get mode() {
        return tsaState.mode;
      },
      set mode(mode: TsaMode) {
        tsaState.mode = mode;
        tsaState.failedOnce = false;
      },
      get requests() {
        return tsa.requests;
      },
      get slowBodyMs() {
        return tsaState.slowBodyMs;
      },
      set slowBodyMs(ms: number) {
        tsaState.slowBodyMs = ms;
      },
    },
    ocsp,
    crl,
    issue: async (commonName) => {
      const name = `leaf-${randomBytes(4).toString('hex')}`;
      copyFileSync(file('seal.key'), file(`${name}.key`));
      await issue('intermediate', 'seal_ext', name, subject(commonName));
      return der(`${name}.crt`);
    },
    revoke: async (certificate) => {
      const x509 = new X509Certificate(certificate);
      const ca = x509.checkIssued(new X509Certificate(pem('root.crt'))) ? 'root' : 'intermediate';
      writeFileSync(file('revoked.pem'), x509.toString());
      await openssl.run(argv`ca -config ${cnf} -name ${`${ca}_ca`} -revoke ${file('revoked.pem')}`);
      await writeCrl(ca);
    },
    close: async () => {
      await Promise.all([ocsp.stop(), crl.stop(), tsa.stop()]);
      openssl.killAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
