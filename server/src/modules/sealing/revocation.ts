import { X509Certificate, createHash } from 'node:crypto';
import type { RevocationProvider } from '@libpdf/core';
import * as pkijs from 'pkijs';
import { OutsideFault } from './outside-fault.js';
import { requestOutside } from './outside-request.js';
import {
  checkCrl,
  checkOcspResponse,
  ocspRequestFor,
  RevocationDataError,
  revocationUrls,
  type RevocationAnswer,
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

type Cached = { bytes: Uint8Array; answer: RevocationAnswer; until: number };

// Shared by every seal of this process (or worker thread): a seal job asks for the same
// chain each time, and responders expect clients to reuse an answer until its nextUpdate.
const cache = new Map<string, Cached>();
const CACHE_ENTRIES = 1000;
// What an answer naming no nextUpdate may be reused for.
const UNDATED_REUSE_MS = 5 * 60_000;

/**
 * Revocation data for a B-LT seal: OCSP first, else the CRL, each exchange bounded in time
 * and size and never redirected. Only certificates passed to allow() are looked up: those are
 * the operator's configuration, so their URLs may point anywhere, loopback included; a
 * certificate from an earlier signature in the original could name any URL, and gets null
 * without a request. Fetch failures return null and are listed in `failures`: the caller
 * decides whether to retry or to seal at a lower level.
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
  const revoked = new Map<string, string>();
  const fingerprint = (der: Uint8Array) => createHash('sha256').update(der).digest('hex');
  const nameOf = (x509: X509Certificate) => x509.subject.split('\n').join(', ');
  const hostOf = (url: string) => new URL(url).host;

  // A cached answer if still current, else a fetched one checked by `check`, then cached.
  async function answer(
    key: string,
    fetch: () => Promise<Uint8Array>,
    check: (bytes: Uint8Array) => RevocationAnswer,
  ): Promise<Cached> {
    const hit = cache.get(key);
    if (hit && hit.until > now().getTime()) return hit;
    cache.delete(key);
    const bytes = await fetch();
    const checked = check(bytes);
    const until = checked.nextUpdate?.getTime() ?? now().getTime() + UNDATED_REUSE_MS;
    const entry = { bytes, answer: checked, until };
    cache.set(key, entry);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    return entry;
  }

  function settle(id: string, x509: X509Certificate, entry: Cached, where: string) {
    missing.delete(id);
    const at = entry.answer.revokedAt;
    if (at) revoked.set(id, `${nameOf(x509)} is revoked since ${at.toISOString()} (${where})`);
    return entry.bytes;
  }

  return {
    get failures() {
      return [...missing.values(), ...revoked.values()];
    },

    allow(certificates) {
      for (const der of certificates) allowed.set(fingerprint(der), new X509Certificate(der));
    },

    async getOCSP(certificate, issuer) {
      const id = fingerprint(certificate);
      const x509 = allowed.get(id);
      if (!x509) return null;
      const parsed = pkijs.Certificate.fromBER(new Uint8Array(certificate));
      const { certId, request } = ocspRequestFor(
        parsed,
        pkijs.Certificate.fromBER(new Uint8Array(issuer)),
      );
      const reasons: string[] = [];
      for (const url of revocationUrls(parsed).ocsp) {
        const key = `ocsp ${url} ${certId.nameHash.toString('hex')} ${certId.keyHash.toString('hex')} ${certId.serial.toString('hex')}`;
        try {
          const entry = await answer(
            key,
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
            (bytes) => checkOcspResponse(bytes, certId, issuer, now()),
          );
          return settle(id, x509, entry, `OCSP responder at ${hostOf(url)}`);
        } catch (error) {
          reasons.push(reason(error, `the OCSP responder at ${hostOf(url)}`));
        }
      }
      // Provisional: the CRL may still answer for this certificate (getCRL clears it).
      if (reasons.length > 0)
        missing.set(id, `no revocation data for ${nameOf(x509)}: ${reasons.join('; ')}`);
      return null;
    },

    async getCRL(certificate) {
      const id = fingerprint(certificate);
      const x509 = allowed.get(id);
      if (!x509) return null;
      const issuer = [...allowed.values()].find(
        (candidate) => x509.checkIssued(candidate) && x509.verify(candidate.publicKey),
      );
      const parsed = pkijs.Certificate.fromBER(new Uint8Array(certificate));
      const urls = revocationUrls(parsed).crl;
      if (urls.length === 0) return null;
      const reasons = missing.has(id) ? [missing.get(id)!.replace(/^.*?: /, '')] : [];
      if (!issuer) {
        reasons.push('its issuer is not among the allowed certificates, so no CRL can be checked');
      } else {
        const issuerDer = new Uint8Array(issuer.raw);
        for (const url of urls) {
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
              (bytes) => checkCrl(bytes, parsed, issuerDer, now()),
            );
            // A cached CRL answers for every certificate of its issuer: look this one up.
            const listed = checkCrl(entry.bytes, parsed, issuerDer, now());
            return settle(id, x509, { ...entry, answer: listed }, `CRL at ${hostOf(url)}`);
          } catch (error) {
            reasons.push(reason(error, `the CRL server at ${hostOf(url)}`));
          }
        }
      }
      missing.set(id, `no revocation data for ${nameOf(x509)}: ${reasons.join('; ')}`);
      return null;
    },
  };
}

// OutsideFault messages name the service and host already; a check's sentence gets them here.
function reason(error: unknown, service: string): string {
  if (error instanceof OutsideFault) return error.message;
  if (error instanceof RevocationDataError) return `${service} ${error.message}`;
  return `${service} gave an answer that could not be checked (${(error as Error).message})`;
}
