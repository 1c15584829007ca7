import { createHash } from 'node:crypto';
import { PDF, type Signer, type TimestampAuthority } from '@libpdf/core';
import { OutsideFault, isOutsideFault } from './outside-fault.js';
import { lastSignatureContents, signPdf } from './pades-signature.js';
import { appendDss, validationData } from './dss.js';
import { createRevocationSource } from './revocation.js';
import type { SealLevel } from './seal-types.js';
import { checkedTimestampAuthority, readTimestampToken } from './timestamp-authority.js';

/** The level a seal is made at, and when it is lower than the one asked for, which and why. */
export type LevelChoice = { level: SealLevel; requested?: SealLevel; reason?: string };

/**
 * A seal that could not reach its level because an outside service failed (`fault`, an
 * OutsideFault): `reached` is the highest level it could have had. The seal job retries; on its
 * last attempt the document is sealed again at `reached`, its certificate saying why.
 */
export class LevelShortfall extends Error {
  constructor(
    readonly reached: SealLevel,
    readonly fault: Error,
  ) {
    super(fault.message);
  }
}

// Room for the CMS: a seal certificate with a few intermediates; a time-stamp token adds its
// own certificate chain. Unused room is zero padding, twice its size in hex.
export const SIGNATURE_RESERVE_BYTES = 12_288;
const TIMESTAMPED_RESERVE_BYTES = 24_576;
// Each OCSP or CRL exchange; a chain of four certificates whose sources all hang costs 40 s,
// well inside the sealing thread's two minutes, with both time stamps' 20 s each.
const REVOCATION_TIMEOUT_MS = 5_000;
/** The field of the archive time stamp (B-LTA). */
export const ARCHIVE_TIMESTAMP_FIELD = 'Signet archive time stamp';

/**
 * Signs `pdf` with the seal (signPdf) at `choice.level`: B-T time-stamps the signature; B-LT
 * then appends, as an incremental update, a DSS with the certificates and revocation data of
 * the seal's and the time stamp's chains (dss.ts); B-LTA then appends a document time stamp
 * over that. Every time-stamp token is checked before it is used (timestamp-authority.ts);
 * revocation data comes only from the URLs those chains name (revocation.ts), cached until its
 * next update.
 */
export async function signAtLevel(
  pdf: PDF,
  sign: { signer: Signer; fieldName: string; reason: string; signingTime: Date },
  choice: LevelChoice,
  tsaUrl: string | undefined,
): Promise<Uint8Array> {
  const { level } = choice;
  if (level !== 'B-B' && !tsaUrl) throw new Error(`a ${level} seal needs a time-stamp authority`);
  const tokens: Uint8Array[] = [];
  const tsa = tsaUrl ? recording(checkedTimestampAuthority(tsaUrl), tokens) : undefined;
  const signed = await reached('B-B', () =>
    signPdf(pdf, {
      ...sign,
      reservedBytes: tsa && level !== 'B-B' ? TIMESTAMPED_RESERVE_BYTES : SIGNATURE_RESERVE_BYTES,
      timestampAuthority: level === 'B-B' ? undefined : tsa,
    }),
  );
  if (level === 'B-B' || level === 'B-T' || !tsa) return signed;

  const source = createRevocationSource({ timeoutMs: REVOCATION_TIMEOUT_MS });
  const sealChain = [sign.signer.certificate, ...(sign.signer.certificateChain ?? [])];
  // Each token's certificates, read once (a pkijs parse costs milliseconds).
  const read = new Map<Uint8Array, Uint8Array[]>();
  const chainsOf = (token: Uint8Array) => {
    let chain = read.get(token);
    if (!chain) read.set(token, (chain = readTimestampToken(token).certificates));
    return chain;
  };
  source.allow([...sealChain, ...tokens.flatMap(chainsOf)]);
  // The seal with its chain, and its time stamp with the authority's chain: one VRI each.
  const entries = async (bytes: Uint8Array, stamped: Uint8Array[]) => [
    await validationData(
      lastSignatureContents(bytes),
      [...sealChain, ...stamped.flatMap(chainsOf)],
      source,
    ),
    ...(await Promise.all(stamped.map((token) => validationData(token, chainsOf(token), source)))),
  ];
  const withDss = await reached('B-T', async () => {
    const dss = await appendDss(signed, await entries(signed, tokens));
    failIfMissing(source.failures);
    return dss;
  });
  if (level === 'B-LT') return withDss;
  // The archive time stamp covers the whole file: the DSS before it already holds its
  // authority's chain (the signature's time stamp came from the same one). Only a token from
  // a certificate that DSS lacks (the authority changed keys between the two) needs one more
  // DSS after it, which the next archive time stamp would cover.
  const known = new Set(tokens.flatMap(chainsOf).map(fingerprint));
  return reached('B-LT', async () => {
    const lta = await PDF.load(withDss);
    const { bytes } = await lta.addTimestamp({
      timestampAuthority: tsa,
      fieldName: ARCHIVE_TIMESTAMP_FIELD,
    });
    const archive = tokens.at(-1)!;
    if (chainsOf(archive).every((certificate) => known.has(fingerprint(certificate)))) {
      return bytes;
    }
    source.allow(chainsOf(archive));
    const more = await appendDss(bytes, [await validationData(archive, chainsOf(archive), source)]);
    failIfMissing(source.failures);
    return more;
  });
}

const fingerprint = (der: Uint8Array) => createHash('sha256').update(der).digest('hex');

// Runs a step; an outside fault in it means the seal reached `level` and no further.
async function reached<T>(level: SealLevel, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (isOutsideFault(err)) throw new LevelShortfall(level, err as Error);
    throw err;
  }
}

// Revocation data the DSS lacks is a level not reached: the seal job retries for it.
function failIfMissing(failures: string[]): void {
  if (failures.length > 0) throw new OutsideFault('revocation', failures.join('; '));
}

// The tokens a time-stamp authority handed out, for their certificate chains.
function recording(tsa: TimestampAuthority, tokens: Uint8Array[]): TimestampAuthority {
  return {
    timestamp: async (digest, algorithm) => {
      const token = await tsa.timestamp(digest, algorithm);
      tokens.push(token);
      return token;
    },
  };
}
