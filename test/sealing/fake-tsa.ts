import { createHash, generateKeyPairSync, webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import forge from 'node-forge';
import * as pkijs from 'pkijs';

const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';

export type FakeTsa = { url: string; requests: number; close: () => Promise<void> };

/** A TSA certificate (DER) issued by some CA, its PKCS #8 key (DER), and its chain up. */
export type TsaIdentity = { certificate: Uint8Array; privateKey: Uint8Array; chain?: Uint8Array[] };

/**
 * A local RFC 3161 time-stamp authority answering with real, signed tokens: under a
 * self-signed certificate of its own, or under `identity`, whose chain its tokens carry.
 */
export async function startFakeTsa(
  options: { failWith?: number; identity?: TsaIdentity } = {},
): Promise<FakeTsa> {
  const { certificate, privateKey, chain } = options.identity
    ? await importIdentity(options.identity)
    : { ...(await tsaIdentity()), chain: [] };
  let serial = 1;
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.requests++;
      if (options.failWith) {
        res.writeHead(options.failWith).end();
        return;
      }
      respond(Buffer.concat(chunks), certificate, privateKey, serial++, chain).then(
        (body) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsr`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function respond(
  body: Buffer,
  certificate: pkijs.Certificate,
  privateKey: CryptoKey,
  serial: number,
  chain: pkijs.Certificate[],
): Promise<Buffer> {
  const request = pkijs.TimeStampReq.fromBER(new Uint8Array(body));
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: '1.3.6.1.4.1.55555.1',
    messageImprint: request.messageImprint,
    serialNumber: new asn1js.Integer({ value: serial }),
    genTime: new Date(),
    nonce: request.nonce,
  });
  const tstDer = tstInfo.toSchema().toBER(false);
  const digest = createHash('sha256').update(Buffer.from(tstDer)).digest();
  const certificateHash = createHash('sha256')
    .update(Buffer.from(certificate.toSchema().toBER(false)))
    .digest();
  const signedData = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID_TST_INFO,
      eContent: new asn1js.OctetString({ valueHex: tstDer }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({
          issuer: certificate.issuer,
          serialNumber: certificate.serialNumber,
        }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({
              type: '1.2.840.113549.1.9.3',
              values: [new asn1js.ObjectIdentifier({ value: OID_TST_INFO })],
            }),
            new pkijs.Attribute({
              type: '1.2.840.113549.1.9.4',
              values: [new asn1js.OctetString({ valueHex: digest })],
            }),
            // ESS signing-certificate-v2 (RFC 5035), which `openssl ts -verify` requires: the
            // certificate's SHA-256, the default hash.
            new pkijs.Attribute({
              type: '1.2.840.113549.1.9.16.2.47',
              values: [
                new asn1js.Sequence({
                  value: [
                    new asn1js.Sequence({
                      value: [
                        new asn1js.Sequence({
                          value: [new asn1js.OctetString({ valueHex: certificateHash })],
                        }),
                      ],
                    }),
                  ],
                }),
              ],
            }),
          ],
        }),
      }),
    ],
    certificates: [certificate, ...chain],
  });
  await signedData.sign(privateKey, 0, 'SHA-256');
  const token = new pkijs.ContentInfo({
    contentType: pkijs.ContentInfo.SIGNED_DATA,
    content: signedData.toSchema(true),
  });
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: token,
  });
  return Buffer.from(response.toSchema().toBER(false));
}

async function importIdentity(identity: TsaIdentity) {
  return {
    certificate: pkijs.Certificate.fromBER(Uint8Array.from(identity.certificate)),
    privateKey: await webcrypto.subtle.importKey(
      'pkcs8',
      Uint8Array.from(identity.privateKey),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['sign'],
    ),
    chain: (identity.chain ?? []).map((der) => pkijs.Certificate.fromBER(Uint8Array.from(der))),
  };
}

async function tsaIdentity(): Promise<{ certificate: pkijs.Certificate; privateKey: CryptoKey }> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgeKey = forge.pki.privateKeyFromPem(
    privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  );
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  );
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 3600_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const name = [{ name: 'commonName', value: 'Test TSA' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'keyUsage', digitalSignature: true, critical: true },
    { name: 'extKeyUsage', timeStamping: true, critical: true },
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  const cryptoKey = await webcrypto.subtle.importKey(
    'pkcs8',
    privateKey.export({ type: 'pkcs8', format: 'der' }),
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return { certificate: pkijs.Certificate.fromBER(new Uint8Array(der)), privateKey: cryptoKey };
}
