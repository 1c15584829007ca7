import { X509Certificate, createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { chmod, copyFile, link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { P12Signer } from '@libpdf/core';
import forge from 'node-forge';

/** The certificate that seals PDFs, with everything a signer or verifier needs. */
export type SealCertificate = {
  /** PKCS#12 bytes holding the private key and the certificate. */
  p12: Uint8Array;
  password: string;
  certificateDer: Uint8Array;
  /** SHA-256 of the DER certificate, lowercase hex without separators. */
  fingerprint: string;
  /** Distinguished name, e.g. `CN=Signet Sandbox Seal, O=Signet`. */
  subject: string;
  notAfter: Date;
  /** `configured` = SEAL_P12_PATH, `sandbox` = generated into the data directory. */
  source: 'configured' | 'sandbox';
};

export type LoadSealCertificateOptions = {
  dataDir: string;
  p12Path?: string;
  p12Password?: string;
};

export const SANDBOX_SEAL_COMMON_NAME = 'Signet Sandbox Seal';
const SANDBOX_P12_FILE = 'sandbox-seal.p12';
const SANDBOX_PASSWORD_FILE = 'sandbox-seal.password';

/** Loads the configured seal P12, or generates the sandbox seal once into `${dataDir}/seal/` and reuses it. */
export async function loadOrCreateSealCertificate(
  options: LoadSealCertificateOptions,
): Promise<SealCertificate> {
  if (options.p12Path) {
    const p12 = new Uint8Array(await readFile(options.p12Path));
    return describeP12(p12, options.p12Password ?? '', 'configured');
  }
  const dir = join(options.dataDir, 'seal');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const passwordPath = join(dir, SANDBOX_PASSWORD_FILE);
  const p12Path = join(dir, SANDBOX_P12_FILE);

  // Password first, then the P12 encrypted with whatever password won: each file is
  // published with an exclusive link, so racing processes all end up reading the same
  // pair, and a crash between the two steps is repaired by the next start.
  if (!(await exists(passwordPath))) {
    const password = randomBytes(32).toString('base64url');
    await publishExclusively(passwordPath, new TextEncoder().encode(`${password}\n`));
  }
  const password = (await readFile(passwordPath, 'utf8')).trim();
  if (!(await exists(p12Path))) {
    await publishExclusively(p12Path, createSelfSignedP12(SANDBOX_SEAL_COMMON_NAME, password));
  }
  const p12 = new Uint8Array(await readFile(p12Path));
  return describeP12(p12, password, 'sandbox');
}

/** Builds a self-signed RSA-2048 seal certificate and returns it as PKCS#12 bytes. */
export function createSelfSignedP12(commonName: string, password: string): Uint8Array {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgePrivateKey = forge.pki.privateKeyFromPem(
    privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  );
  const forgePublicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  );
  const cert = forge.pki.createCertificate();
  cert.publicKey = forgePublicKey;
  // A positive serial: set the top bit to zero so DER does not read it as negative.
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  cert.serialNumber = serial.toString('hex');
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 24 * 3600 * 1000);
  cert.validity.notAfter = new Date(now + 10 * 365 * 24 * 3600 * 1000);
  const name = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Signet' },
    { shortName: 'OU', value: 'Sandbox - not legally binding' },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  // No extendedKeyUsage: poppler/NSS reports an unknown certificate problem for the
  // document-signing EKU, while plain keyUsage validates as an untrusted issuer.
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },

    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forgePrivateKey, forge.md.sha256.create());
  // 3DES keeps the file readable by OpenSSL 1.x/3.x and by @libpdf/core's P12 parser.
  const asn1 = forge.pkcs12.toPkcs12Asn1(forgePrivateKey, [cert], password, {
    algorithm: '3des',
    friendlyName: commonName,
    generateLocalKeyId: true,
  });
  return new Uint8Array(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'));
}

async function describeP12(
  p12: Uint8Array,
  password: string,
  source: SealCertificate['source'],
): Promise<SealCertificate> {
  // Parsing with the same library that signs proves the password and the key up front,
  // instead of failing later inside a sealing job.
  const signer = await P12Signer.create(p12, password);
  const certificateDer = signer.certificate;
  const x509 = new X509Certificate(certificateDer);
  return {
    p12,
    password,
    certificateDer,
    fingerprint: certificateFingerprint(certificateDer),
    subject: x509.subject.split('\n').join(', '),
    notAfter: new Date(x509.validTo),
    source,
  };
}

/** SHA-256 fingerprint of a DER certificate as lowercase hex (the form verifySealedPdf compares). */
export function certificateFingerprint(certificateDer: Uint8Array): string {
  return createHash('sha256').update(certificateDer).digest('hex');
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw error;
  }
}

// Writes to a private temp file, fsyncs, then hard-links it into place: the final name
// either does not exist or holds complete bytes, and only the first process wins.
async function publishExclusively(finalPath: string, bytes: Uint8Array): Promise<void> {
  const tempPath = `${finalPath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tempPath, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(tempPath, 0o600);
    await link(tempPath, finalPath);
    await syncDirectory(dirname(finalPath));
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return;
    if (!isErrno(error, 'EPERM') && !isErrno(error, 'ENOTSUP') && !isErrno(error, 'EXDEV')) {
      throw error;
    }
    // Filesystems without hard links: still exclusive, only the atomicity is lost.
    await copyFile(tempPath, finalPath, fsConstants.COPYFILE_EXCL).catch((copyError: unknown) => {
      if (!isErrno(copyError, 'EEXIST')) throw copyError;
    });
  } finally {
    await unlink(tempPath).catch(() => undefined);
  }
}

// Without this a power cut right after start could lose the new directory entry.
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
