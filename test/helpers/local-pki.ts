import { X509Certificate, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { freePort } from './free-port.js';
import { OpenSsl, opensslConfig, prepareCaDir, provideKeys } from './local-pki-files.js';

/** How the local TSA answers: a real token, or one of the faults a real TSA shows. */
export type TsaMode =
  'ok' | 'fail-once-503' | 'always-503' | 'slow-body' | 'wrong-imprint' | 'junk' | 'rejection';

/** A loopback HTTP service that tests can take down and bring back on the same port. */
export type LocalService = {
  /** The URL prefix certificates name (the OCSP responder's, or the CRLs' directory). */
  url: string;
  requests: number;
  stop: () => Promise<void>;
  start: () => Promise<void>;
};

export type LocalPki = {
  dir: string;
  /** The seal certificate as SEAL_P12_PATH wants it: key, certificate, intermediate, root. */
  seal: { p12Path: string; password: string; p12: Uint8Array; certificate: Uint8Array };
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
 * `openssl ts -reply`) whose faults tests switch at run time. One per test file: about 0.3 s
 * to start with cached keys, up to a few seconds the first time on a machine.
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
  const issue = async (ca: string, profile: string, key: string, subject: string, out: string) => {
    const csr = file(`${out}.csr`);
    await openssl.run([
      'req',
      '-new',
      '-config',
      cnf,
      '-key',
      file(key),
      '-subj',
      subject,
      '-out',
      csr,
    ]);
    await openssl.run(
      [
        'ca',
        '-batch',
        '-notext',
        '-config',
        cnf,
        '-name',
        `${ca}_ca`,
        '-extensions',
        profile,
      ].concat(['-startdate', startDate, '-in', csr, '-out', file(out)]),
    );
  };
  const subject = (cn: string) => `/CN=${cn}/O=Signet Test PKI`;
  await openssl.run(
    [
      'req',
      '-x509',
      '-new',
      '-config',
      cnf,
      '-extensions',
      'root_ext',
      '-key',
      file('root.key'),
    ].concat(['-subj', subject('Signet Test Root CA'), '-days', '3650', '-out', file('root.crt')]),
  );
  await issue(
    'root',
    'intermediate_ext',
    'intermediate.key',
    subject('Signet Test Intermediate CA'),
    'intermediate.crt',
  );
  await issue(
    'root',
    'ocsp_ext',
    'ocsp-root.key',
    subject('Signet Test Root OCSP'),
    'ocsp-root.crt',
  );
  await issue('intermediate', 'seal_ext', 'seal.key', subject('Signet Test Seal'), 'seal.crt');
  await issue('intermediate', 'tsa_ext', 'tsa.key', subject('Signet Test TSA'), 'tsa.crt');
  await issue(
    'intermediate',
    'ocsp_ext',
    'ocsp-int.key',
    subject('Signet Test OCSP'),
    'ocsp-int.crt',
  );
  const pem = (name: string) => readFileSync(file(name), 'utf8');
  writeFileSync(file('chain.pem'), pem('intermediate.crt') + pem('root.crt'));
  writeFileSync(file('trust.pem'), pem('root.crt') + pem('intermediate.crt'));
  // 3DES and a SHA-1 MAC, as createSelfSignedP12 writes them: what @libpdf/core's P12 reader takes.
  await openssl.run(
    ['pkcs12', '-export', '-inkey', file('seal.key'), '-in', file('seal.crt')]
      .concat([
        '-certfile',
        file('chain.pem'),
        '-name',
        'Signet Test Seal',
        '-passout',
        `pass:${PASSWORD}`,
      ])
      .concat(['-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1'])
      .concat(['-out', file('seal.p12')]),
  );
  const crls = new Map<string, Buffer>();
  const writeCrl = async (ca: 'root' | 'intermediate') => {
    const crlPem = await openssl.run(['ca', '-gencrl', '-config', cnf, '-name', `${ca}_ca`]);
    crls.set(`/${ca}.crl`, await openssl.run(['crl', '-outform', 'DER'], crlPem));
  };
  await Promise.all([writeCrl('root'), writeCrl('intermediate')]);
  const der = (name: string) => new Uint8Array(new X509Certificate(pem(name)).raw);

  const ocsp = service(ocspPort, urls.ocsp, async (req, res, body) => {
    const ca = req.url === '/root' ? 'root' : req.url === '/intermediate' ? 'intermediate' : null;
    if (req.method !== 'POST' || !ca) return void res.writeHead(404).end();
    const signer = ca === 'root' ? 'ocsp-root' : 'ocsp-int';
    const id = randomBytes(6).toString('hex');
    writeFileSync(file(`${id}.ocsp-req`), body);
    await openssl.run(
      ['ocsp', '-index', file(`${ca}/index.txt`), '-CA', file(`${ca}.crt`)]
        .concat(['-rsigner', file(`${signer}.crt`), '-rkey', file(`${signer}.key`), '-nmin', '60'])
        .concat(['-reqin', file(`${id}.ocsp-req`), '-respout', file(`${id}.ocsp-resp`)]),
    );
    res.writeHead(200, { 'content-type': 'application/ocsp-response' });
    res.end(readFileSync(file(`${id}.ocsp-resp`)));
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
    await openssl.run([
      'ts',
      '-reply',
      '-config',
      cnf,
      '-queryfile',
      file(`${id}.tsq`),
      '-out',
      file(`${id}.tsr`),
    ]);
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
      const name = `leaf-${randomBytes(4).toString('hex')}.crt`;
      await issue('intermediate', 'seal_ext', 'seal.key', subject(commonName), name);
      return der(name);
    },
    revoke: async (certificate) => {
      const x509 = new X509Certificate(certificate);
      const ca = x509.checkIssued(new X509Certificate(pem('root.crt'))) ? 'root' : 'intermediate';
      writeFileSync(file('revoked.pem'), x509.toString());
      await openssl.run([
        'ca',
        '-config',
        cnf,
        '-name',
        `${ca}_ca`,
        '-revoke',
        file('revoked.pem'),
      ]);
      await writeCrl(ca);
    },
    close: async () => {
      await Promise.all([ocsp.stop(), crl.stop(), tsa.stop()]);
      openssl.killAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => unknown;

// An HTTP server on a fixed port (certificates name it), whose stop() refuses connections
// and cuts the open ones, as a crashed responder would.
function service(port: number, url: string, handler: Handler): LocalService {
  let server: Server | null = null;
  return {
    url,
    requests: 0,
    async start() {
      if (server) return;
      const created = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          this.requests++;
          Promise.resolve(handler(req, res, Buffer.concat(chunks))).catch(() => {
            if (!res.headersSent) res.writeHead(500);
            res.end();
          });
        });
      });
      server = created;
      await new Promise<void>((resolve) => created.listen(port, '127.0.0.1', resolve));
    },
    async stop() {
      const current = server;
      server = null;
      if (!current) return;
      current.closeAllConnections();
      await new Promise((resolve) => current.close(resolve));
    },
  };
}

// A TimeStampResp with PKIStatus rejection (2) and no token, as a TSA refusing a request sends.
function rejection(): Buffer {
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.rejection }),
  });
  return Buffer.from(response.toSchema().toBER(false));
}

// The same request (nonce included) for another hash: a valid token that answers something else.
function otherImprint(query: Buffer): Uint8Array {
  const request = pkijs.TimeStampReq.fromBER(new Uint8Array(query).buffer);
  const hash = new Uint8Array(request.messageImprint.hashedMessage.valueBlock.valueHexView);
  const other = hash.map((byte) => byte ^ 0xff);
  request.messageImprint.hashedMessage = new asn1js.OctetString({ valueHex: other });
  return new Uint8Array(request.toSchema().toBER(false));
}
