import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** The `openssl` CLI, with every child tracked so the PKI's close() can end the ones running. */
export class OpenSsl {
  readonly running = new Set<ChildProcess>();

  constructor(readonly cwd: string) {}

  /** Runs `openssl ...args`; resolves with its stdout, rejects with its stderr. */
  run(args: string[], input?: Uint8Array): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn('openssl', args, { cwd: this.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
      this.running.add(child);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', reject);
      child.on('close', (code) => {
        this.running.delete(child);
        if (code === 0) resolve(Buffer.concat(out));
        else reject(new Error(`openssl ${args[0]} failed: ${Buffer.concat(err).toString()}`));
      });
      child.stdin.end(input);
    });
  }

  killAll(): void {
    for (const child of this.running) child.kill('SIGKILL');
    this.running.clear();
  }
}

/**
 * Command-line arguments from a template: the literal text split into words, each value one
 * argument whatever it holds (paths, subjects with spaces). A value must stand alone.
 */
export function argv(strings: TemplateStringsArray, ...values: string[]): string[] {
  return strings.flatMap((literal, i) => [
    ...literal.split(/\s+/).filter(Boolean),
    ...(i < values.length ? [values[i]!] : []),
  ]);
}

/** The keys a local PKI uses, each `<name>.key` in its directory. */
export const KEY_NAMES = ['root', 'intermediate', 'seal', 'tsa', 'ocsp-root', 'ocsp-int'] as const;

// RSA-2048 generation is most of a cold start (0.1 to 1 s a key, two cores shared): keys
// are made once per machine and copied into each PKI; certificates are new every time,
// because they name this PKI's ports.
const KEY_CACHE = path.join(tmpdir(), 'signet-local-pki-keys-v1');

/** Writes `<name>.key` for every key into `dir`, generating the cached ones if missing. */
export async function provideKeys(openssl: OpenSsl, dir: string): Promise<void> {
  mkdirSync(KEY_CACHE, { recursive: true, mode: 0o700 });
  await Promise.all(
    KEY_NAMES.map(async (name) => {
      const cached = path.join(KEY_CACHE, `${name}.key`);
      if (!existsSync(cached)) {
        const pem = await openssl.run(['genrsa', '2048']);
        // Rename is atomic: test files starting at once each write whole keys, one wins.
        const temp = `${cached}.${process.pid}.tmp`;
        writeFileSync(temp, pem, { mode: 0o600 });
        renameSync(temp, cached);
      }
      await openssl.run(['pkey', '-in', cached, '-out', path.join(dir, `${name}.key`)]);
    }),
  );
}

export type PkiUrls = { ocsp: string; crl: string };

/** The openssl configuration: both CAs, every certificate profile, and the TSA. */
export function opensslConfig(dir: string, urls: PkiUrls): string {
  const ca = (name: string, crl: string) => `
[ ${name}_ca ]
dir = ${dir}/${name}
database = $dir/index.txt
new_certs_dir = $dir
certificate = ${dir}/${name}.crt
private_key = ${dir}/${name}.key
serial = $dir/serial
crlnumber = $dir/crlnumber
default_md = sha256
default_days = 3650
default_crl_hours = ${crl}
policy = policy_any
unique_subject = no
copy_extensions = none
`;
  // Leaves of the intermediate name its responder and CRL; the intermediate names the root's.
  const revocation = (ca: 'root' | 'intermediate') => `
authorityInfoAccess = OCSP;URI:${urls.ocsp}/${ca}
crlDistributionPoints = URI:${urls.crl}/${ca}.crl
`;
  return `
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = unused
[ policy_any ]
commonName = supplied
organizationName = optional
${ca('root', '24')}
${ca('intermediate', '24')}
[ root_ext ]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ intermediate_ext ]
basicConstraints = critical,CA:true,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
${revocation('root')}
[ seal_ext ]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature,nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
${revocation('intermediate')}
[ tsa_ext ]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature,nonRepudiation
extendedKeyUsage = critical,timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
${revocation('intermediate')}
[ ocsp_ext ]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = critical,OCSPSigning
noCheck = ignored
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = ${dir}/tsa-serial
crypto_device = builtin
signer_cert = ${dir}/tsa.crt
certs = ${dir}/chain.pem
signer_key = ${dir}/tsa.key
signer_digest = sha256
default_policy = 1.3.6.1.4.1.55555.1
digests = sha256, sha384, sha512
accuracy = secs:1, millisecs:0, microsecs:0
clock_precision_digits = 0
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;
}

/** An empty CA database for `openssl ca`. */
export function prepareCaDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'index.txt'), '');
  writeFileSync(path.join(dir, 'serial'), `${randomSerial()}\n`);
  writeFileSync(path.join(dir, 'crlnumber'), '01\n');
}

// Distinct serials across PKIs, so two test files' certificates never look alike.
function randomSerial(): string {
  return `${(Math.floor(Math.random() * 0x7fff) + 0x1000).toString(16)}0001`;
}

/** A TimeStampResp with PKIStatus rejection (2) and no token, as a TSA refusing a request sends. */
export function rejection(): Buffer {
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.rejection }),
  });
  return Buffer.from(response.toSchema().toBER(false));
}

/** The same request (nonce included) for another hash: a valid token that answers something else. */
export function otherImprint(query: Buffer): Uint8Array {
  const request = pkijs.TimeStampReq.fromBER(new Uint8Array(query).buffer);
  const hash = new Uint8Array(request.messageImprint.hashedMessage.valueBlock.valueHexView);
  const other = hash.map((byte) => byte ^ 0xff);
  request.messageImprint.hashedMessage = new asn1js.OctetString({ valueHex: other });
  return new Uint8Array(request.toSchema().toBER(false));
}

/** A loopback HTTP service that tests can take down and bring back on the same port. */
export type LocalService = {
  /** The URL prefix certificates name (the OCSP responder's, or the CRLs' directory). */
  url: string;
  requests: number;
  stop: () => Promise<void>;
  start: () => Promise<void>;
};

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => unknown;

/**
 * An HTTP server on a fixed port (certificates name it), whose stop() refuses connections
 * and cuts the open ones, as a crashed responder would.
 */
export function service(port: number, url: string, handler: Handler): LocalService {
  let server: Server | null = null;
  const self: LocalService = {
    url,
    requests: 0,
    async start() {
      if (server) return;
      const created = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          self.requests++;
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
  return self;
}
