import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  OutsideFault,
  checkedTimestampAuthority,
  readTimestampToken,
} from '../../server/src/modules/sealing/timestamp-authority.js';
import { startLocalPki, type LocalPki } from '../helpers/local-pki.js';

// A real TSA (openssl ts -reply) on loopback, switched through the faults real ones show: each
// must end in a checked token or an OutsideFault that names the TSA's host and what happened.
let pki: LocalPki;
let host: string;
beforeAll(async () => {
  pki = await startLocalPki();
  host = new URL(pki.tsa.url).host;
});
afterAll(() => pki?.close());
beforeEach(() => {
  pki.tsa.mode = 'ok';
});

const digest = () => createHash('sha256').update(randomBytes(32)).digest();

async function faultOf(promise: Promise<unknown>): Promise<OutsideFault> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OutsideFault);
  const fault = error as OutsideFault;
  expect(fault.source).toBe('tsa');
  expect(fault.message).toContain(`the time-stamp authority at ${host}`);
  expect(fault.message).not.toMatch(/document/i);
  return fault;
}

// A loopback server in front of the TSA: the request as `ask` rewrites it goes to the TSA, and
// the client gets what `answer` makes of the reply.
async function inFront(
  answer: (reply: Buffer, res: import('node:http').ServerResponse) => void,
  ask: (query: Buffer) => Uint8Array = (query) => query,
) {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstream = request(pki.tsa.url, { method: 'POST' }, (reply) => {
        const body: Buffer[] = [];
        reply.on('data', (chunk: Buffer) => body.push(chunk));
        reply.on('end', () => answer(Buffer.concat(body), res));
      });
      upstream.end(ask(Buffer.concat(chunks)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('checkedTimestampAuthority', () => {
  it('returns a token for the hash asked, signed by the TSA, recent, that openssl verifies', async () => {
    const hash = digest();
    const token = await checkedTimestampAuthority(pki.tsa.url).timestamp(hash, 'SHA-256');
    const read = readTimestampToken(token);
    expect(Math.abs(read.genTime.getTime() - Date.now())).toBeLessThan(60_000);
    expect(read.imprint.algorithm).toBe('SHA-256');
    expect(Buffer.from(read.imprint.hash).equals(hash)).toBe(true);
    expect(Buffer.from(read.signerCertificate).equals(pki.certificates.tsa)).toBe(true);
    const all = read.certificates.map((certificate) => Buffer.from(certificate).toString('hex'));
    expect(all).toContain(Buffer.from(pki.certificates.intermediate).toString('hex'));
    expect(all).toContain(Buffer.from(pki.certificates.root).toString('hex'));

    const tokenFile = path.join(pki.dir, 'checked.tst');
    writeFileSync(tokenFile, token);
    const verified = execFileSync('openssl', [
      ...['ts', '-verify', '-digest', hash.toString('hex'), '-token_in', '-in', tokenFile],
      ...['-CAfile', pki.files.chain, '-untrusted', path.join(pki.dir, 'tsa.crt')],
    ]).toString();
    expect(verified).toContain('Verification: OK');
  });

  it('faults on a 503, and a retry after a single 503 gets a token', async () => {
    pki.tsa.mode = 'fail-once-503';
    const authority = checkedTimestampAuthority(pki.tsa.url);
    const fault = await faultOf(authority.timestamp(digest(), 'SHA-256'));
    expect(fault.message).toContain('answered 503');
    const hash = digest();
    expect(readTimestampToken(await authority.timestamp(hash, 'SHA-256')).imprint.hash).toEqual(
      new Uint8Array(hash),
    );

    pki.tsa.mode = 'always-503';
    for (let i = 0; i < 2; i++) {
      expect((await faultOf(authority.timestamp(digest(), 'SHA-256'))).message).toContain('503');
    }
  });

  it('cuts a body that trickles in at the deadline', async () => {
    pki.tsa.mode = 'slow-body';
    const started = Date.now();
    const fault = await faultOf(
      checkedTimestampAuthority(pki.tsa.url, { timeoutMs: 1500 }).timestamp(digest(), 'SHA-256'),
    );
    expect(fault.message).toContain('did not answer within 1.5 s');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a valid token for another hash', async () => {
    pki.tsa.mode = 'wrong-imprint';
    const fault = await faultOf(
      checkedTimestampAuthority(pki.tsa.url).timestamp(digest(), 'SHA-256'),
    );
    expect(fault.message).toContain('answered with a token for another hash');
  });

  it('refuses six bytes of junk and a rejection', async () => {
    pki.tsa.mode = 'junk';
    const authority = checkedTimestampAuthority(pki.tsa.url);
    expect((await faultOf(authority.timestamp(digest(), 'SHA-256'))).message).toContain(
      'answered with 6 bytes that are not a time-stamp response',
    );
    pki.tsa.mode = 'rejection';
    expect((await faultOf(authority.timestamp(digest(), 'SHA-256'))).message).toContain(
      'refused the request (PKIStatus rejection)',
    );
  });

  it('does not follow a redirect, even to the real TSA', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(302, { location: pki.tsa.url }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`;
    host = new URL(url).host;
    const before = pki.tsa.requests;
    try {
      const fault = await faultOf(checkedTimestampAuthority(url).timestamp(digest(), 'SHA-256'));
      expect(fault.message).toContain('answered 302');
      expect(pki.tsa.requests).toBe(before);
    } finally {
      host = new URL(pki.tsa.url).host;
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a token made for another request (another nonce)', async () => {
    const front = await inFront(
      (reply, res) => res.writeHead(200).end(reply),
      (query) => {
        const request = pkijs.TimeStampReq.fromBER(new Uint8Array(query));
        request.nonce = new asn1js.Integer({ value: 42 });
        return new Uint8Array(request.toSchema().toBER(false));
      },
    );
    host = new URL(front.url).host;
    try {
      const fault = await faultOf(
        checkedTimestampAuthority(front.url).timestamp(digest(), 'SHA-256'),
      );
      expect(fault.message).toContain('a token for another request (its nonce differs)');
    } finally {
      host = new URL(pki.tsa.url).host;
      await front.close();
    }
  });

  it('refuses a token whose signature does not verify, and an answer over the size cap', async () => {
    // The token ends with its signer info, which ends with the signature value.
    const front = await inFront((reply, res) => {
      reply[reply.length - 1] ^= 0x01;
      res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply);
    });
    host = new URL(front.url).host;
    try {
      const fault = await faultOf(
        checkedTimestampAuthority(front.url).timestamp(digest(), 'SHA-256'),
      );
      expect(fault.message).toContain('signature does not verify');
    } finally {
      host = new URL(pki.tsa.url).host;
      await front.close();
    }
    const capped = checkedTimestampAuthority(pki.tsa.url, { maxBytes: 1000 });
    expect((await faultOf(capped.timestamp(digest(), 'SHA-256'))).message).toMatch(
      /more than the 1000 bytes allowed/,
    );
  });

  it('faults when nothing listens', async () => {
    await pki.crl.stop();
    try {
      host = new URL(pki.crl.url).host;
      const fault = await faultOf(
        checkedTimestampAuthority(`${pki.crl.url}/tsr`).timestamp(digest(), 'SHA-256'),
      );
      expect(fault.message).toContain('could not be reached (ECONNREFUSED)');
    } finally {
      host = new URL(pki.tsa.url).host;
      await pki.crl.start();
    }
  });

  it('refuses a token from a certificate not for time-stamping, or whose attributes name another', async () => {
    const seal = await tokenSigner('seal', pki.certificates.seal);
    const tsa = await tokenSigner('tsa', pki.certificates.tsa);
    // [who signs, whose certificate the ESS attribute names (none: no attribute), the fault]
    for (const [signer, named, expected] of [
      [seal, seal, 'not marked (critical) for time-stamping'],
      [tsa, seal, "signed attributes do not name its signer's certificate"],
      [tsa, null, null],
    ] as const) {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          void signedReply(Buffer.concat(chunks), signer, named?.der ?? null).then((reply) =>
            res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`;
      host = new URL(url).host;
      try {
        const asked = checkedTimestampAuthority(url).timestamp(digest(), 'SHA-256');
        if (expected) expect((await faultOf(asked)).message).toContain(expected);
        else expect(readTimestampToken(await asked).signerCertificate).toEqual(tsa.der);
      } finally {
        host = new URL(pki.tsa.url).host;
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});

type TokenSigner = { certificate: pkijs.Certificate; key: CryptoKey; der: Uint8Array };

async function tokenSigner(name: 'seal' | 'tsa', der: Uint8Array): Promise<TokenSigner> {
  const pem = readFileSync(path.join(pki.dir, `${name}.key`), 'utf8');
  const key = await webcrypto.subtle.importKey(
    'pkcs8',
    createPrivateKey(pem).export({ type: 'pkcs8', format: 'der' }),
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return { certificate: pkijs.Certificate.fromBER(new Uint8Array(der)), key, der };
}

// A granted reply for the request, signed by `signer`, its ESS attribute naming the
// certificate `named` (or absent): what openssl ts -reply will not make.
async function signedReply(
  query: Buffer,
  signer: TokenSigner,
  named: Uint8Array | null,
): Promise<Buffer> {
  const request = pkijs.TimeStampReq.fromBER(new Uint8Array(query));
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: '1.3.6.1.4.1.55555.1',
    messageImprint: request.messageImprint,
    serialNumber: new asn1js.Integer({ value: 1 }),
    genTime: new Date(),
    nonce: request.nonce,
  });
  const tstDer = tstInfo.toSchema().toBER(false);
  const attribute = (type: string, value: asn1js.AsnType) =>
    new pkijs.Attribute({ type, values: [value] });
  const sequence = (...value: asn1js.AsnType[]) => new asn1js.Sequence({ value });
  const sha256 = (bytes: ArrayBuffer | Uint8Array) =>
    createHash('sha256').update(new Uint8Array(bytes)).digest();
  const attributes = [
    attribute('1.2.840.113549.1.9.3', new asn1js.ObjectIdentifier({ value: TST_INFO })),
    attribute('1.2.840.113549.1.9.4', new asn1js.OctetString({ valueHex: sha256(tstDer) })),
  ];
  if (named) {
    const certId = sequence(new asn1js.OctetString({ valueHex: sha256(named) }));
    attributes.push(attribute('1.2.840.113549.1.9.16.2.47', sequence(sequence(certId))));
  }
  const signedData = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: TST_INFO,
      eContent: new asn1js.OctetString({ valueHex: tstDer }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({
          issuer: signer.certificate.issuer,
          serialNumber: signer.certificate.serialNumber,
        }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
      }),
    ],
    certificates: [signer.certificate],
  });
  await signedData.sign(signer.key, 0, 'SHA-256');
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: new pkijs.ContentInfo({
      contentType: pkijs.ContentInfo.SIGNED_DATA,
      content: signedData.toSchema(true),
    }),
  });
  return Buffer.from(response.toSchema().toBER(false));
}

const TST_INFO = '1.2.840.113549.1.9.16.1.4';
