import { createHash } from 'node:crypto';
import {
  PdfArray,
  PdfDict,
  PdfName,
  PdfRef,
  PdfString,
  type PDF,
  type PdfObject,
} from '@libpdf/core';
import { chainEntries, checkChain, type ChainCheck } from '../../../../sdk/src/evidence-chain.js';
import { verifyEvidence, type EvidenceVerification } from '../../../../sdk/src/verify-evidence.js';
import { z } from 'zod';
import { messages } from '../../i18n/index.js';
import type { listAudit } from '../documents/audit.repo.js';
import type { SigneeRow } from '../documents/documents.repo.js';
import {
  EVIDENCE_FORMAT,
  evidenceSchema,
  type Evidence,
  type EvidenceSignee,
} from './evidence-schema.js';
import { EVIDENCE_FILE_NAME, type SealPdfInput, type SealSignature } from './seal-types.js';
import { signeeVerification } from './verification-evidence.js';

export { EVIDENCE_FORMAT, evidenceSchema, type Evidence, type EvidenceSignee };

/**
 * How the evidence file relates to the document (PDF 2.0 / PDF/A-3 associated files): a
 * `Supplement`, a representation of the audit certificate pages that programs read more easily
 * (and with more in it), not `Data` a page is drawn from, nor the `Source` it was made from.
 */
export const EVIDENCE_RELATIONSHIP = 'Supplement';

/** The evidence of a seal: what the input says, with the audit trail chained to the original. */
export function buildEvidence(
  input: SealPdfInput,
  seal: { sealedAt: Date; mode: Evidence['seal']['mode'] },
): Evidence {
  const trail = chainEntries(
    input.auditEntries.map((e) => ({
      at: e.at,
      action: e.action,
      actor: e.actor,
      ip: e.ip,
      userAgent: e.userAgent,
      // Only e-mail entries carry these, so other entries (and older files) hash as before.
      ...(e.email ? { recipient: e.email.to, emailKind: e.email.kind } : {}),
    })),
    input.originalSha256.toLowerCase(),
  );
  return {
    format: { ...EVIDENCE_FORMAT },
    document: {
      id: input.documentId,
      name: input.documentName,
      language: input.language ?? 'en',
      originalSha256: input.originalSha256.toLowerCase(),
    },
    seal: {
      sealedAt: seal.sealedAt.toISOString(),
      mode: seal.mode,
      sandbox: input.sandbox,
      certificate: {
        subject: input.certificate.subject,
        fingerprintSha256: input.certificate.fingerprint,
      },
    },
    signees: input.signees ?? input.signatures.map(signatureOnly),
    ...(input.attachments?.length
      ? {
          attachments: input.attachments.map((a) => ({
            filename: a.filename,
            embeddedAs: a.name,
            contentType: a.mimeType as 'application/pdf' | 'image/png' | 'image/jpeg',
            sha256: a.sha256,
          })),
        }
      : {}),
    fields: (input.fields ?? []).map((f) => ({
      type: f.type,
      page: f.page,
      box: { x: f.x, y: f.y, width: f.width, height: f.height },
      label: f.label,
      value: f.value,
      filledBy: { name: f.signeeName, email: f.signeeEmail },
      filledAt: f.filledAt,
    })),
    auditTrail: trail,
  };
}

// A signee known only from the signature page's input (no database at hand).
function signatureOnly(s: SealSignature): EvidenceSignee {
  return {
    name: s.name,
    email: s.email,
    status: 'signed',
    role: 'signer',
    invitation: { channel: null, invitedAt: null, emailedAt: [] },
    openedAt: null,
    signedAt: s.signedAt,
    ip: null,
    userAgent: null,
    consent: null,
    method: s.image ? 'drawn' : 'typed',
    typedName: s.typedName ?? null,
    signatureImageSha256: s.image ? sha256(s.image) : null,
  };
}

type AuditRow = Awaited<ReturnType<typeof listAudit>>[number];

/**
 * Each signee's authentication evidence from what the database holds: the signee row, its
 * entries in the audit trail (the link issued or e-mailed to its address, the signature's or
 * approval's address and browser) and the drawn signature read for the seal. An approver who
 * approved is `signed` with no signature and no consent (they ticked none); a cc recipient
 * held no link and stays `pending`.
 */
export function gatherSigneeEvidence(
  signees: SigneeRow[],
  trail: AuditRow[],
  signatures: SealSignature[],
  language: string,
): EvidenceSignee[] {
  const consent = messages(language).signing.consent;
  return signees.map((s) => {
    // The signing link's e-mails: invitations and reminders (entries before kinds were
    // recorded have none, and were invitations); notices and copies carry no link.
    const own = trail.filter((e) => e.signeeId === s.id);
    const linkMails = own.filter(
      (e) =>
        (e.action === 'e-mailed' || e.action === 'e-mail failed') &&
        [undefined, 'invitation', 'reminder'].includes(e.details?.kind as string | undefined),
    );
    const emailed = linkMails.filter((e) => e.action === 'e-mailed' && e.details?.to === s.email);
    const signed = own.findLast((e) => e.action === 'signed' || e.action === 'approved');
    const image = signatures.find((x) => x.email === s.email && x.image)?.image;
    const signature = s.status === 'signed' && s.role === 'signer';
    const drawn = signature && s.signature_file !== null;
    return {
      name: s.name,
      email: s.email,
      status: s.status,
      role: s.role,
      invitation: {
        channel:
          linkMails.length > 0
            ? 'email'
            : own.some((e) => e.action === 'link issued')
              ? 'link'
              : null,
        invitedAt: s.invited_at,
        emailedAt: emailed.map((e) => e.createdAt),
      },
      openedAt: s.opened_at,
      signedAt: s.signed_at,
      ip: signed?.ip ?? null,
      userAgent: signed?.userAgent ?? null,
      // A signature is only accepted with the box ticked (signing.schemas.ts).
      consent: signature ? { given: true, statement: consent } : null,
      method: !signature
        ? null
        : signed?.details?.method === 'uploaded'
          ? ('uploaded' as const)
          : drawn
            ? ('drawn' as const)
            : ('typed' as const),
      typedName: s.signature_typed,
      signatureImageSha256: drawn && image ? sha256(image) : null,
      verification: signeeVerification(own),
    };
  });
}

/**
 * Embeds the evidence as `evidence.json`, an associated file of the document: listed in the
 * catalog's /AF (earlier seals' evidence stays listed) and its /EmbeddedFiles, where viewers
 * show attachments (replacing an earlier seal's entry of the same name, still in its revision).
 * The stream is compressed when the PDF is saved.
 */
export function embedEvidence(pdf: PDF, evidence: Evidence, sealedAt: Date): void {
  pdf.attachments.add(EVIDENCE_FILE_NAME, Buffer.from(JSON.stringify(evidence)), {
    mimeType: 'application/json',
    description: `Evidence of the signing of "${evidence.document.name}": audit trail as a hash chain, field values, signees (docs/evidence.md)`,
    createdAt: sealedAt,
    modifiedAt: sealedAt,
    overwrite: true,
  });
  const resolve = (value: PdfObject | undefined) =>
    value instanceof PdfRef ? (pdf.getObject(value) ?? undefined) : value;
  const catalog = pdf.getCatalog();
  const names = resolve(catalog.get('Names'));
  const tree = names instanceof PdfDict ? resolve(names.get('EmbeddedFiles')) : undefined;
  const list = tree instanceof PdfDict ? resolve(tree.get('Names')) : undefined;
  const items = list instanceof PdfArray ? list.toArray() : [];
  const at = items.findIndex((x) => x instanceof PdfString && x.asString() === EVIDENCE_FILE_NAME);
  const ref = items[at + 1];
  const spec = at >= 0 ? resolve(ref) : undefined;
  if (!(ref instanceof PdfRef) || !(spec instanceof PdfDict)) {
    throw new Error('the evidence file was not added to /EmbeddedFiles');
  }
  spec.set('AFRelationship', PdfName.of(EVIDENCE_RELATIONSHIP));
  // @libpdf/core 0.4.2 escapes the MIME type's slash twice (/application#232Fjson, read back
  // as "application#2Fjson"): the name is written again, escaped once.
  const files = resolve(spec.get('EF'));
  const stream = files instanceof PdfDict ? resolve(files.get('F')) : undefined;
  if (stream instanceof PdfDict) stream.set('Subtype', PdfName.of('application/json'));
  const earlier = resolve(catalog.get('AF'));
  catalog.set('AF', new PdfArray([...(earlier instanceof PdfArray ? earlier.toArray() : []), ref]));
}

/** Checks the evidence's audit trail against its original's SHA-256. */
export function checkEvidenceChain(evidence: Evidence): ChainCheck {
  return checkChain(evidence.auditTrail, evidence.document.originalSha256);
}

// A signee's verification for people: its method, when, and who vouched for an identity.
function describeVerification(v: NonNullable<EvidenceSignee['verification']>): string {
  const vouched = v.identity
    ? `: ${v.identity.subject ?? 'no sub'} vouched for by ${v.identity.issuer ?? 'no iss'} (key ${v.identity.keyId})`
    : '';
  return `verified with ${v.method.replace('_', ' ')} at ${v.verifiedAt}${vouched}`;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** verifyEvidence's answer, with whether the evidence file matches the schema. */
export type EvidenceReport = EvidenceVerification & {
  /** Where the evidence file does not match docs/evidence.schema.json; null when it does. */
  schemaProblems: string | null;
};

/** The evidence file of a PDF, parsed against the schema; undefined when no seal embeds one. */
export function readEvidence(bytes: Uint8Array): Evidence | undefined {
  const found = verifyEvidence(bytes).evidence;
  return found === undefined ? undefined : evidenceSchema.parse(found);
}

/**
 * Checks a PDF's evidence file (sdk/src/verify-evidence.ts: the signature of its revision, by
 * one of `fingerprints`, covering it and the whole file; its audit chain) and its schema.
 */
export function checkEvidence(bytes: Uint8Array, fingerprints: string[]): EvidenceReport {
  const result = verifyEvidence(bytes, { trustedFingerprints: fingerprints });
  const parsed = result.evidence ? evidenceSchema.safeParse(result.evidence) : undefined;
  return {
    ...result,
    schemaProblems: parsed && !parsed.success ? z.prettifyError(parsed.error) : null,
  };
}

/** The evidence as lines for people: the check, then the document, signees, fields and trail. */
export function describeEvidence(report: EvidenceReport): string[] {
  const lines = [`evidence: ${report.status}: ${report.detail}`];
  if (report.schemaProblems) lines.push(`  not in the documented format: ${report.schemaProblems}`);
  const e = report.evidence as Evidence | undefined;
  if (!e || report.schemaProblems) return lines;
  const from = (ip: string | null, agent: string | null) =>
    ip || agent ? ` from ${ip ?? 'an unrecorded address'}${agent ? ` (${agent})` : ''}` : '';
  lines.push(
    `  ${EVIDENCE_FILE_NAME}: ${e.format.name} ${e.format.version}, SHA-256 ${sha256(report.evidenceBytes!)}`,
    `  document: "${e.document.name}" (${e.document.id}, ${e.document.language})`,
    `  original SHA-256: ${e.document.originalSha256}`,
    `  sealed: ${e.seal.sealedAt}, ${e.seal.mode}${e.seal.sandbox ? ', sandbox' : ''}, by ${e.seal.certificate.subject}`,
    `  signees (${e.signees.length}):`,
  );
  for (const s of e.signees) {
    const invited =
      s.invitation.channel === 'email'
        ? 'link e-mailed to that address'
        : s.invitation.channel === 'link'
          ? 'link handed to the sender'
          : 'invitation not recorded';
    lines.push(
      `    ${s.name} <${s.email}>${s.role && s.role !== 'signer' ? ` (${s.role})` : ''}: ${s.status}${s.signedAt ? ` ${s.signedAt}` : ''}${from(s.ip, s.userAgent)}`,
      `      ${invited}${s.invitation.emailedAt.length ? ` (${s.invitation.emailedAt.join(', ')})` : ''}; opened ${s.openedAt ?? 'not recorded'}; consent ${s.consent?.given ? 'given' : 'not recorded'}; ${s.method ?? 'no'} signature${s.typedName ? ` "${s.typedName}"` : ''}${s.signatureImageSha256 ? ` (image SHA-256 ${s.signatureImageSha256})` : ''}`,
    );
    if (s.verification) lines.push(`      ${describeVerification(s.verification)}`);
  }
  lines.push(`  fields (${e.fields.length}):`);
  for (const f of e.fields) {
    lines.push(
      `    page ${f.page} ${f.type}${f.label ? ` "${f.label}"` : ''}: ${JSON.stringify(f.value)} by ${f.filledBy.name} <${f.filledBy.email}>${f.filledAt ? ` at ${f.filledAt}` : ''}`,
    );
  }
  const chain = report.chain;
  lines.push(
    `  audit trail (${e.auditTrail.entries.length} entries; chain ${chain?.ok ? 'holds' : `broken at entry ${(chain?.index ?? 0) + 1}`}; head ${e.auditTrail.head}):`,
  );
  e.auditTrail.entries.forEach((entry, i) => {
    const mark = chain && !chain.ok && chain.index === i ? '  <-- broken link' : '';
    lines.push(
      `    ${i + 1}. ${entry.at} ${entry.action}${entry.recipient ? ` to ${entry.recipient}${entry.emailKind ? ` (${entry.emailKind})` : ''}` : ''} by ${entry.actor}${from(entry.ip, entry.userAgent)}${mark}`,
    );
  });
  return lines;
}
