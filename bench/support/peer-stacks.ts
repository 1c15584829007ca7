// The four ways of sealing that bench/peers.bench.ts compares (issue 30), each a function from
// the original PDF to the signed one. Each stack's modules are imported only when that stack is
// loaded, so a child process that runs one stack holds no other's code in its heap.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { SealCertificate } from '../../server/src/modules/sealing/seal-certificate.js';
import type { SealPdfInput } from '../../server/src/modules/sealing/seal-pdf.js';
import { missingPeers } from './peer-modules.js';

const require = createRequire(import.meta.url);

/** A TTF shipped in an `@expo-google-fonts/*` package, e.g. ('noto-sans', 'NotoSans'). */
export function expoFont(family: string, file: string, weight = '400Regular'): Uint8Array {
  const path = require.resolve(`@expo-google-fonts/${family}/${weight}/${file}_${weight}.ttf`);
  return new Uint8Array(readFileSync(path));
}

/** The stacks, in the order of the first round. */
export const STACK_NAMES = ['signet', 'signpdf', 'documenso', 'libpdf'] as const;
export type StackName = (typeof STACK_NAMES)[number];

/** What each stack is, for the report. */
export const STACK_LABELS: Record<StackName, string> = {
  signet: '(a) Signet sealPdf: signature + audit pages, PAdES B-B',
  signpdf: '(b) pdf-lib page + @signpdf/signpdf P12',
  documenso: '(c) Documenso pipeline: @cantoo/pdf-lib + @documenso/pdf-sign',
  libpdf: '(d) @libpdf/core load + sign (floor)',
};

/** What every stack writes into the sealed file: the same signees and audit trail. */
export type SealedInput = {
  original: Uint8Array;
  originalSha256: string;
  signatures: SealPdfInput['signatures'];
  auditEntries: SealPdfInput['auditEntries'];
};

/** One stack: the original and what to write about it in, the signed PDF out. */
export type PeerSeal = (input: SealedInput) => Promise<Uint8Array>;

/** Two signees and twelve audit entries about `original`: what every stack seals (and seal.bench.ts). */
export function sealedInput(original: Uint8Array): SealedInput {
  return {
    original,
    originalSha256: createHash('sha256').update(original).digest('hex'),
    signatures: [
      {
        name: 'Zoë Ünal',
        email: 'zoe@example.com',
        signedAt: '2024-05-01T10:00:00Z',
        typedName: 'Zoë Ünal',
      },
      { name: 'Łukasz Nowak', email: 'lukasz@example.pl', signedAt: '2024-05-01T11:00:00Z' },
    ],
    auditEntries: Array.from({ length: 12 }, (_, i) => ({
      at: new Date(Date.UTC(2024, 4, 1, 9, i)).toISOString(),
      action: ['created', 'sent', 'opened', 'signed'][i % 4],
      actor: i % 2 ? 'zoe@example.com' : 'lukasz@example.pl',
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36',
    })),
  };
}

/**
 * Why a stack cannot run on this machine (its packages are missing even after installPeers),
 * or null when it can. `installFailure` is what installPeers reported, if anything.
 */
export function unavailable(name: StackName, installFailure: string | null = null): string | null {
  const missing = missingPeers(name);
  if (!missing.length) return null;
  return `${missing.join(', ')} not installed in bench/peers: ${installFailure ?? 'npm install there did not provide them'}`;
}

/**
 * Loads one stack with the seal certificate. What a long-running service does once (parse the
 * P12 where the library lets it keep the result, read the fonts) happens here, not per seal.
 */
export async function loadStack(name: StackName, certificate: SealCertificate): Promise<PeerSeal> {
  const { p12, password } = certificate;
  switch (name) {
    case 'signet': {
      const { sealPdf } = await import('../../server/src/modules/sealing/seal-pdf.js');
      // sandbox: false, as with a configured certificate: no sandbox mark drawn on every page.
      return async (input) =>
        (
          await sealPdf({
            ...input,
            documentName: 'Benchmark contract',
            documentId: 'doc_bench',
            sandbox: false,
            certificate,
          })
        ).bytes;
    }
    case 'libpdf': {
      const { P12Signer, PDF } = await import('@libpdf/core');
      const signer = await P12Signer.create(p12, password);
      return async ({ original }) => {
        const pdf = await PDF.load(original);
        const { bytes } = await pdf.sign({ signer, subFilter: 'ETSI.CAdES.detached' });
        return bytes;
      };
    }
    case 'signpdf': {
      const { signpdfSeal } = await import('../peers/signpdf-stack.mjs');
      return signpdfSeal(p12, password, expoFont('noto-sans', 'NotoSans'));
    }
    case 'documenso': {
      const { documensoSeal } = await import('../peers/documenso-pipeline.mjs');
      return documensoSeal(p12, password, {
        noto: expoFont('noto-sans', 'NotoSans'),
        caveat: expoFont('caveat', 'Caveat'),
      });
    }
  }
}
