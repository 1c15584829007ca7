import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { P12Signer, PDF } from '@libpdf/core';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkCrl,
  checkOcspResponse,
  ocspRequestFor,
} from '../../server/src/modules/sealing/revocation-data.js';
import { createRevocationSource } from '../../server/src/modules/sealing/revocation.js';
import { checkedTimestampAuthority } from '../../server/src/modules/sealing/timestamp-authority.js';
import { startLocalPki, type LocalPki } from '../helpers/local-pki.js';
import { runOnPdf, scratchDir } from './helpers.js';

// Against a local PKI whose OCSP responder (openssl ocsp) and CRL server tests take down and
// bring back. The cache is per process, so each step uses a certificate (or an issuer's CRL)
// no earlier step has asked about; the steps run in order.
let pki: LocalPki;
let chain: Uint8Array[];
beforeAll(async () => {
  pki = await startLocalPki();
  const { seal, tsa, intermediate, root } = pki.certificates;
  chain = [seal, tsa, intermediate, root];
});
afterAll(() => pki?.close());

function source(options: Parameters<typeof createRevocationSource>[0] = {}) {
  const made = createRevocationSource(options);
  made.allow(chain);
  return made;
}

function counts() {
  return { ocsp: pki.ocsp.requests, crl: pki.crl.requests };
}

// openssl's own reading of an OCSP response, checked against the chain.
function opensslStatus(
  response: Uint8Array,
  certificate: Uint8Array,
  issuer: 'root' | 'intermediate',
) {
  const file = (name: string, bytes: Uint8Array | string) => {
    const at = path.join(pki.dir, name);
    writeFileSync(at, bytes);
    return at;
  };
  return execFileSync('openssl', [
    ...['ocsp', '-respin', file('checked.ocsp', response), '-CAfile', pki.files.chain],
    ...['-issuer', path.join(pki.dir, `${issuer}.crt`)],
    ...['-cert', file('checked.pem', new X509Certificate(certificate).toString())],
  ]).toString();
}

describe('createRevocationSource', () => {
  it('fetches nothing for a certificate not allowed', async () => {
    const stranger = await pki.issue('Signet Test Stranger');
    const before = counts();
    const revocation = source();
    expect(await revocation.getOCSP(stranger, pki.certificates.intermediate)).toBeNull();
    expect(await revocation.getCRL(stranger)).toBeNull();
    // Not even the operator's own certificates, before allow() names them.
    const fresh = createRevocationSource();
    expect(await fresh.getOCSP(pki.certificates.seal, pki.certificates.intermediate)).toBeNull();
    expect(await fresh.getCRL(pki.certificates.seal)).toBeNull();
    expect(counts()).toEqual(before);
    expect([...revocation.failures, ...fresh.failures]).toEqual([]);
  });

  it('records a CRL over the size cap as a failure', async () => {
    const leaf = await pki.issue('Signet Test Capped');
    const revocation = source({ crlMaxBytes: 100 });
    revocation.allow([leaf]);
    await pki.ocsp.stop();
    try {
      expect(await revocation.getOCSP(leaf, pki.certificates.intermediate)).toBeNull();
      expect(await revocation.getCRL(leaf)).toBeNull();
    } finally {
      await pki.ocsp.start();
    }
    expect(revocation.failures).toHaveLength(1);
    expect(revocation.failures[0]).toContain('CN=Signet Test Capped');
    expect(revocation.failures[0]).toContain('more than the 100 bytes allowed');
  });

  it('reports revoked certificates as failures, by OCSP and by the CRL', async () => {
    const [byOcsp, byCrl] = [
      await pki.issue('Signet Test Revoked One'),
      await pki.issue('Signet Test Revoked Two'),
    ];
    await pki.revoke(byOcsp);
    await pki.revoke(byCrl);
    const revocation = source();
    revocation.allow([byOcsp, byCrl]);
    const response = await revocation.getOCSP(byOcsp, pki.certificates.intermediate);
    expect(opensslStatus(response!, byOcsp, 'intermediate')).toMatch(/: revoked/);
    await pki.ocsp.stop();
    try {
      expect(await revocation.getOCSP(byCrl, pki.certificates.intermediate)).toBeNull();
      expect(await revocation.getCRL(byCrl)).not.toBeNull();
    } finally {
      await pki.ocsp.start();
    }
    expect(revocation.failures).toHaveLength(2);
    expect(revocation.failures[0]).toMatch(
      /CN=Signet Test Revoked One.* is revoked since 20.*OCSP/,
    );
    expect(revocation.failures[1]).toMatch(/CN=Signet Test Revoked Two.* is revoked since 20.*CRL/);
  });

  it('fetches an OCSP response, checked, and reuses it until its nextUpdate', async () => {
    const before = counts();
    const response = await source().getOCSP(pki.certificates.seal, pki.certificates.intermediate);
    expect(response).not.toBeNull();
    expect(counts()).toEqual({ ...before, ocsp: before.ocsp + 1 });
    expect(opensslStatus(response!, pki.certificates.seal, 'intermediate')).toMatch(/: good/);

    // Another seal, another source: the same answer, without a request.
    const again = source();
    const cached = await again.getOCSP(pki.certificates.seal, pki.certificates.intermediate);
    expect(Buffer.from(cached!).equals(response!)).toBe(true);
    expect(counts()).toEqual({ ...before, ocsp: before.ocsp + 1 });
    expect(again.failures).toEqual([]);

    // The responder's nextUpdate is an hour ahead: past it, a new answer is fetched.
    const later = source({ now: () => new Date(Date.now() + 61 * 60_000) });
    expect(
      await later.getOCSP(pki.certificates.seal, pki.certificates.intermediate),
    ).not.toBeNull();
    expect(counts()).toEqual({ ...before, ocsp: before.ocsp + 2 });
  });

  it('falls back to the CRL when the OCSP responder is down', async () => {
    const revocation = source();
    const before = counts();
    await pki.ocsp.stop();
    try {
      expect(
        await revocation.getOCSP(pki.certificates.tsa, pki.certificates.intermediate),
      ).toBeNull();
      const crl = await revocation.getCRL(pki.certificates.tsa);
      expect(crl).not.toBeNull();
      // The intermediate's CRL, fetched for the revoked certificate above, is reused.
      expect(counts()).toEqual(before);
      const text = execFileSync('openssl', ['crl', '-inform', 'DER', '-noout', '-issuer'], {
        input: crl!,
      }).toString();
      expect(text).toContain('Signet Test Intermediate CA');
    } finally {
      await pki.ocsp.start();
    }
    // The CRL answered for the certificate: nothing is missing.
    expect(revocation.failures).toEqual([]);
  });

  it('records a failure when both are down, and fetches once OCSP is back', async () => {
    const { intermediate, root } = pki.certificates;
    const revocation = source();
    await Promise.all([pki.ocsp.stop(), pki.crl.stop()]);
    try {
      expect(await revocation.getOCSP(intermediate, root)).toBeNull();
      expect(await revocation.getCRL(intermediate)).toBeNull();
      expect(revocation.failures).toHaveLength(1);
      const [failure] = revocation.failures;
      expect(failure).toContain('no revocation data for CN=Signet Test Intermediate CA');
      expect(failure).toContain(
        `the OCSP responder at ${new URL(pki.ocsp.url).host} could not be reached`,
      );
      expect(failure).toContain(
        `the CRL server at ${new URL(pki.crl.url).host} could not be reached`,
      );
    } finally {
      await pki.ocsp.start();
    }
    try {
      const before = counts();
      const response = await revocation.getOCSP(intermediate, root);
      expect(response).not.toBeNull();
      expect(counts().ocsp).toBe(before.ocsp + 1);
      expect(opensslStatus(response!, intermediate, 'root')).toMatch(/: good/);
      expect(revocation.failures).toEqual([]);
    } finally {
      await pki.crl.start();
    }
  });

  it("serves @libpdf/core's B-LT signing: the DSS holds OCSP responses for both chains", async () => {
    const signer = await P12Signer.create(pki.seal.p12, pki.seal.password);
    const revocation = source();
    const created = PDF.create();
    created.addPage({ size: 'a4' }).drawText('B-LT', { x: 60, y: 760, size: 18 });
    const signed = await (
      await PDF.load(await created.save())
    ).sign({
      signer,
      subFilter: 'ETSI.CAdES.detached',
      level: 'B-LT',
      timestampAuthority: checkedTimestampAuthority(pki.tsa.url),
      revocationProvider: revocation,
      estimatedSize: 24_000,
    });
    expect(signed.warnings).toEqual([]);
    expect(revocation.failures).toEqual([]);
    const text = Buffer.from(signed.bytes).toString('latin1');
    expect(text).toMatch(/\/DSS/);
    expect(text).toMatch(/\/OCSPs/);
    const scratch = scratchDir();
    try {
      const checked = runOnPdf(scratch.dir, 'pdfsig', ['{}'], signed.bytes);
      expect(checked.stdout).toContain('Signature Validation: Signature is Valid.');
    } finally {
      scratch.cleanup();
    }
  });

  it('refuses an OCSP answer about another certificate, signed by another key, or expired', async () => {
    const parse = (der: Uint8Array) => pkijs.Certificate.fromBER(new Uint8Array(der));
    const { seal, tsa, intermediate } = pki.certificates;
    const asked = ocspRequestFor(parse(seal), parse(intermediate));
    const answer = (signer: 'ocsp-int' | 'seal') => {
      writeFileSync(path.join(pki.dir, 'asked.ocsp-req'), asked.request);
      execFileSync('openssl', [
        ...['ocsp', '-index', path.join(pki.dir, 'intermediate/index.txt')],
        ...['-CA', path.join(pki.dir, 'intermediate.crt'), '-nmin', '60'],
        ...['-rsigner', path.join(pki.dir, `${signer}.crt`)],
        ...['-rkey', path.join(pki.dir, `${signer}.key`)],
        ...['-reqin', path.join(pki.dir, 'asked.ocsp-req')],
        ...['-respout', path.join(pki.dir, 'asked.ocsp-resp')],
      ]);
      return new Uint8Array(readFileSync(path.join(pki.dir, 'asked.ocsp-resp')));
    };
    const good = answer('ocsp-int');
    expect(checkOcspResponse(good, asked.certId, intermediate, new Date()).revokedAt).toBeNull();
    const other = ocspRequestFor(parse(tsa), parse(intermediate)).certId;
    expect(() => checkOcspResponse(good, other, intermediate, new Date())).toThrow(
      'answered about another certificate',
    );
    // The seal certificate is the intermediate's too, but not delegated to answer OCSP for it.
    expect(() => checkOcspResponse(answer('seal'), asked.certId, intermediate, new Date())).toThrow(
      'its issuer or responder did not sign',
    );
    const later = new Date(Date.now() + 2 * 3600_000);
    expect(() => checkOcspResponse(good, asked.certId, intermediate, later)).toThrow('expired at');

    // A CRL ends with its signature: one bit changed there, and the issuer did not sign it.
    const crl = new Uint8Array(
      await (await fetch(`${pki.crl.url}/intermediate.crl`)).arrayBuffer(),
    );
    expect(checkCrl(crl, intermediate, new Date()).nextUpdate).not.toBeNull();
    crl[crl.length - 1] ^= 0x01;
    expect(() => checkCrl(crl, intermediate, new Date())).toThrow('a CRL its issuer did not sign');
    expect(() => checkCrl(crl, pki.certificates.root, new Date())).toThrow('another issuer');
  });
});
