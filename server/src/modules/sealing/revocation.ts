import { X509Certificate, createHash } from 'node:crypto';
import type { RevocationProvider } from '@libpdf/core';
import * as pkijs from 'pkijs';
import { OutsideFault } from './outside-fault.js';
import { requestOutside } from './outside-request.js';
import {
  checkCrl,
  checkOcspResponse,
  ocspRequestFor,
  issuerOf,
  RevocationDataError,
  revocationUrls,
  serialHex,
} from './revocation-data.js';

/** @libpdf/core's RevocationProvider, fetching only for allowed certificates, saying what failed. */
export type RevocationSource = Required<RevocationProvider> & {
  /**
   * One sentence per certificate left without revocation data (OCSP and CRL both failed), and
   * per revoked certificate; empty when everything asked for was had.
   */
  readonly failures: string[];
  /** Certificates whose OCSP and CRL URLs may be fetched: the seal's and the TSA's chains. */
  allow: (certificates: Uint8Array[]) => void;
};

// An answer as fetched, and what it says of a certificate (by serial number, hex): an OCSP
// response speaks of one, a CRL of every certificate of its issuer.
type Cached = { bytes: Uint8Array; until: number; revokedAt: (serial: string) => Date | null };

// Shared by every seal of this process (or worker thread): a seal job asks for the same
// chain each time, and responders expect clients to reuse an answer until its nextUpdate.
const cache = new Map<string, Cached>();
const CACHE_ENTRIES = 1000;

// What depends only on the certificates, made once per process: the parsed certificate, and
// the OCSP request for it and its issuer (a nonce-less request is the same every time).
const parsedCertificates = new Map<string, Certificate>();
const ocspRequests = new Map<string, ReturnType<typeof ocspRequestFor> & { key: string }>();

function memo<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
    if (map.size > CACHE_ENTRIES) map.delete(map.keys().next().value!);
  }
  return value;
}

/** Forgets every cached answer: for benchmarks that time a fetch from the responders. */
export function forgetRevocationAnswers(): void {
  cache.clear();
}
// What an answer naming no nextUpdate may be reused for.
const UNDATED_REUSE_MS = 5 * 60_000;

/**
 * Revocation data for a B-LT seal: OCSP first, else the CRL, each exchange bounded in time
 * and size and never redirected. Only certificates passed to allow() are looked up: those are
 * the operator's configuration, so their URLs may point anywhere, loopback included; a
 * certificate from an earlier signature in the original could name any URL, and gets null
 * without a request. Fetch failures return null and are listed in `failures`: the caller
 * decides whether to retry or to seal at a lower level. A certificate naming neither an OCSP
 * responder nor a CRL (a root) gets null and is no failure: there is nothing to fetch.
 */
export function createRevocationSource(
  options: {
    timeoutMs?: number;
    ocspMaxBytes?: number;
    crlMaxBytes?: number;
    now?: () => Date;
  } = {},
): RevocationSource {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  const allowed = new Map<string, X509Certificate>();
  const missing = new Map<string, string>();
  const ocspReasons = new Map<string, string[]>();
  const revoked = new Map<string, string>();
  const fingerprint = (der: Uint8Array) => createHash('sha256').update(der).digest('hex');

  // A cached answer if still current, else a fetched one checked by `check`, then cached.
  async function answer(
    key: string,
    fetch: () => Promise<Uint8Array>,
    check: (bytes: Uint8Array) => { nextUpdate: Date | null; revokedAt: Cached['revokedAt'] },
  ): Promise<Cached> {
    const hit = cache.get(key);
    if (hit && hit.until > now().getTime()) return hit;
    cache.delete(key);
    const bytes = await fetch();
    const checked = check(bytes);
    const until = checked.nextUpdate?.getTime() ?? now().getTime() + UNDATED_REUSE_MS;
    const entry = { bytes, until, revokedAt: checked.revokedAt };
    cache.set(key, entry);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    return entry;
  }

  // Had: nothing is missing for the certificate any more; a revoked one is a failure still.
  function settle(id: string, certificate: Certificate, entry: Cached, where: string) {
    missing.delete(id);
    ocspReasons.delete(id);
    const at = entry.revokedAt(certificate.serial);
    if (at) {
      revoked.set(id, `${certificate.name} is revoked since ${at.toISOString()} (${where})`);
    }
    return entry.bytes;
  }

  // An allowed certificate, parsed once per process (a seal asks for the same chain every
  // time: parsing it again cost more than the rest of a cached answer); null for any other.
  function allowedCertificate(der: Uint8Array): Certificate | null {
    const id = fingerprint(der);
    const x509 = allowed.get(id);
    if (!x509) return null;
    return memo(parsedCertificates, id, () => {
      const parsed = pkijs.Certificate.fromBER(new Uint8Array(der));
      return {
        id,
        x509,
        parsed,
        name: x509.subject.split('\n').join(', '),
        serial: serialHex(parsed.serialNumber),
        urls: revocationUrls(parsed),
      };
    });
  }

  return {
    get failures() {
      return [...missing.values(), ...revoked.values()];
    },

    allow(certificates) {
      for (const der of certificates) allowed.set(fingerprint(der), new X509Certificate(der));
    },

    async getOCSP(der, issuer) {
      const certificate = allowedCertificate(der);
      if (!certificate) return null;
      const { id } = certificate;
      const reasons: string[] = [];
      for (const url of certificate.urls.ocsp) {
        const service = `the OCSP responder at ${new URL(url).host}`;
        try {
          const { certId, request, key } = memo(
            ocspRequests,
            `${id} ${fingerprint(issuer)}`,
            () => {
              const issuerParsed = pkijs.Certificate.fromBER(new Uint8Array(issuer));
              const made = ocspRequestFor(certificate.parsed, issuerParsed);
              const { nameHash, keyHash, serial } = made.certId;
              const parts = [nameHash, keyHash, serial].map((part) => part.toString('hex'));
              return { ...made, key: parts.join(' ') };
            },
          );
          const cacheKey = `ocsp ${url} ${key}`;
          const entry = await answer(
            cacheKey,
            () =>
              requestOutside({
                url,
                body: request,
                contentType: 'application/ocsp-request',
                timeoutMs,
                maxBytes: options.ocspMaxBytes ?? 64 * 1024,
                source: 'revocation',
                service: 'the OCSP responder',
              }),
            (bytes) => {
              const checked = checkOcspResponse(bytes, certId, issuer, now());
              return { nextUpdate: checked.nextUpdate, revokedAt: () => checked.revokedAt };
            },
          );
          return settle(id, certificate, entry, service);
        } catch (error) {
          reasons.push(reason(error, service));
        }
      }
      // Provisional: the CRL may still answer for this certificate (getCRL clears it).
      if (reasons.length > 0) {
        ocspReasons.set(id, reasons);
        missing.set(id, `no revocation data for ${certificate.name}: ${reasons.join('; ')}`);
      }
      return null;
    },

    async getCRL(der) {
      const certificate = allowedCertificate(der);
      if (!certificate || certificate.urls.crl.length === 0) return null;
      const { id } = certificate;
      const reasons = [...(ocspReasons.get(id) ?? [])];
      const pool = [...allowed.values()].map((candidate) => new Uint8Array(candidate.raw));
      const issuer = issuerOf(der, pool);
      if (!issuer) reasons.push('its issuer is not among the allowed certificates');
      for (const url of issuer ? certificate.urls.crl : []) {
        const service = `the CRL server at ${new URL(url).host}`;
        const issuerDer = issuer!;
        try {
          const entry = await answer(
            `crl ${url} ${fingerprint(issuerDer)}`,
            () =>
              requestOutside({
                url,
                timeoutMs,
                maxBytes: options.crlMaxBytes ?? 8 * 1024 * 1024,
                source: 'revocation',
                service: 'the CRL server',
              }),
            (bytes) => {
              const checked = checkCrl(bytes, issuerDer, now());
              return {
                nextUpdate: checked.nextUpdate,
                revokedAt: (serial) => checked.revoked.get(serial) ?? null,
              };
            },
          );
          return settle(id, certificate, entry, service);
        } catch (error) {
          reasons.push(reason(error, service));
        }
      }
      missing.set(id, `no revocation data for ${certificate.name}: ${reasons.join('; ')}`);
      return null;
    },
  };
}

type Certificate = {
  id: string;
  x509: X509Certificate;
  parsed: pkijs.Certificate;
  name: string;
  serial: string;
  urls: { ocsp: string[]; crl: string[] };
};

// OutsideFault messages name the service and host already; a check's sentence gets them here.
function reason(error: unknown, service: string): string {
  if (error instanceof OutsideFault) return error.message;
  if (error instanceof RevocationDataError) return `${service} ${error.message}`;
  return `${service} gave an answer that could not be checked (${(error as Error).message})`;
}
