#!/usr/bin/env -S npx tsx
// Checks a Signet-sealed PDF's evidence.json with nothing from the service:
//   npx tsx sdk/bin/verify-evidence.ts sealed.pdf [--trust <sha256-fingerprint>]... [--json]
// Exit codes: 0 valid, 2 altered, 3 no evidence or an untrusted certificate, 4 broken chain.
import { readFileSync } from 'node:fs';
import { verifyEvidence, type EvidenceVerification } from '../src/verify-evidence.js';

const EXIT: Record<EvidenceVerification['status'], number> = {
  valid: 0,
  altered: 2,
  no_evidence: 3,
  untrusted: 3,
  broken_chain: 4,
};

const args = process.argv.slice(2);
const json = args.includes('--json');
const trusted = args.flatMap((arg, i) => (arg === '--trust' && args[i + 1] ? [args[i + 1]] : []));
const file = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--trust');
if (!file) {
  console.error('usage: verify-evidence <file.pdf> [--trust <sha256-fingerprint>]... [--json]');
  process.exit(64);
}
const result = verifyEvidence(readFileSync(file), {
  trustedFingerprints: trusted.length ? trusted : undefined,
});
if (json) {
  const { evidenceBytes: _bytes, ...rest } = result;
  console.log(JSON.stringify(rest, null, 2));
} else {
  console.log(`${result.status}: ${result.detail}`);
  const signer = result.signature?.signer;
  if (signer) console.log(`signed by ${signer.subject} (SHA-256 ${signer.fingerprintSha256})`);
  if (result.signature?.signingTime) console.log(`signed at ${result.signature.signingTime}`);
  const evidence = result.evidence;
  if (evidence) {
    console.log(`document "${evidence.document.name}" (${evidence.document.id})`);
    console.log(`original SHA-256 ${evidence.document.originalSha256}`);
    console.log(`sealed ${evidence.seal.sealedAt} (${evidence.seal.mode})`);
    const broken = result.chain && !result.chain.ok ? result.chain.index : -1;
    evidence.auditTrail.entries.forEach((entry, i) => {
      const mark = i === broken ? '  <-- broken link' : '';
      console.log(
        `${i + 1}. ${String(entry.at)} ${String(entry.action)} by ${String(entry.actor)}${mark}`,
      );
    });
  }
}
process.exitCode = EXIT[result.status];
