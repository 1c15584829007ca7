import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/handle.js';
import { defineJob } from '../../jobs/runner.js';
import { nowIso } from '../../lib/ids.js';
import { listAudit } from '../documents/audit.repo.js';
import * as repo from '../documents/documents.repo.js';
import { moveDocument } from '../documents/lifecycle.js';
import { queueSignedCopies, signedFilename } from '../documents/after-signing.js';
import { documentFileKey } from '../storage/keys.js';
import { readAll, type Storage } from '../storage/storage.js';
import type { SealCertificate } from './seal-certificate.js';
import { gatherSigneeEvidence } from './evidence.js';
import { verificationOf } from './verification-evidence.js';
import {
  SEAL_JOB,
  type SealAuditEntry,
  type SealField,
  type SealLevel,
  type SealPdfInput,
} from './seal-types.js';
import { sealOffThread, type SealJobInput } from './seal-worker.js';
import { AppError } from '../../lib/errors.js';
import { listFields } from '../fields/fields.repo.js';
import { listAttachments } from '../fields/attachments.repo.js';
import { gatherSealAttachments } from './seal-attachments.js';
import { formatDate } from '../../i18n/index.js';

/** What sealing needs. */
export type SealDeps = {
  db: Db;
  storage: Storage;
  sandbox: boolean;
  tsaUrl: string | null;
  /** SEAL_LEVEL: the PAdES level seals aim for. */
  sealLevel: SealLevel;
  certificate: () => Promise<SealCertificate>;
  logger: FastifyBaseLogger;
  /** {base_url}: links in the completion e-mails. */
  publicUrl: string;
  /** MAIL_ATTACHMENT_LIMIT_BYTES: larger signed copies are linked, not attached. */
  attachmentLimit: number;
  /** Wakes the job runner for the completion e-mails queued with the seal. */
  wakeJobs: () => void;
};

/**
 * Seals a document in pending_seal: builds the sealed PDF, stores it, then moves the document
 * to signed in one transaction. Safe to run twice: a document no longer in pending_seal is
 * left alone, and a rerun after a crash overwrites the same sealed file before committing.
 */
export async function sealDocument(
  deps: SealDeps,
  documentId: string,
  options: { settle?: boolean } = {},
): Promise<void> {
  const document = await repo.findDocument(deps.db.kysely, documentId);
  if (!document || document.status !== 'pending_seal') return;
  const signees = await repo.listSignees(deps.db.kysely, documentId);
  // Signatures only: an approver's approval is in the audit trail and the evidence, not drawn.
  const signed = signees.filter((s) => s.status === 'signed' && s.role === 'signer');
  // On local disk the sealing thread reads the original itself. The other reads are made
  // together: each waits its turn on the thread pool, and the last signature's wait for the seal
  // is what signees and integrators see.
  const originalPath = deps.storage.localPath?.(document.file);
  const [original, signatures, fields, trail, certificate, attachments] = await Promise.all([
    originalPath ? null : readAll(deps.storage, document.file),
    Promise.all(
      signed.map(async (s) => ({
        name: s.name,
        email: s.email,
        signedAt: s.signed_at!,
        image: s.signature_file ? await readAll(deps.storage, s.signature_file) : undefined,
        typedName: s.signature_typed ?? undefined,
      })),
    ),
    sealFields(deps, document, signees),
    listAudit(deps.db.kysely, documentId),
    deps.certificate(),
    listFields(deps.db.kysely, documentId).then((rows) =>
      gatherSealAttachments(deps, documentId, rows),
    ),
  ]);
  const input: Omit<SealPdfInput, 'original'> = {
    signatures,
    fields,
    auditEntries: certificateEntries(trail, signees),
    documentName: document.name,
    documentId: document.id,
    language: document.email_language,
    originalSha256: document.original_sha256,
    sandbox: deps.sandbox,
    certificate,
    tsaUrl: deps.tsaUrl ?? undefined,
    level: deps.sealLevel,
    settle: options.settle,
    signees: gatherSigneeEvidence(signees, trail, signatures, document.email_language),
    attachments,
  };
  const job: SealJobInput = originalPath
    ? { ...input, originalPath }
    : { ...input, original: original! };
  const sealed = await sealOffThread(job).catch(async (err: unknown) => {
    // Out of time or memory on the sealing thread (a hostile or pathological original): seal
    // without reading it, the original attached unchanged, rather than retry it for ever. On
    // the sealing thread too: the fallback still decodes each drawn mark.
    if (!(err instanceof AppError)) throw err;
    const attached = { ...job, attachOnly: err.message };
    return sealOffThread(attached).catch((again: unknown) => {
      // Then what held the thread was no original but the marks (drawn before their image
      // data was checked): each signee's typed name instead.
      if (!(again instanceof AppError)) throw again;
      return sealOffThread(withoutDrawnMarks(attached));
    });
  });
  if (sealed.level !== deps.sealLevel) {
    deps.logger.warn(
      { documentId: document.id, sealLevel: sealed.level, requested: deps.sealLevel },
      'an outside service stayed down through every retry: sealed at a lower level',
    );
  }
  if (sealed.mode === 'attached') {
    deps.logger.warn(
      { documentId: document.id, sealMode: sealed.mode },
      'the original could not be modified: sealed with it attached unchanged',
    );
  }
  const key = documentFileKey(document.id, 'sealed.pdf');
  const { sha256: hash, size } = await deps.storage.put(
    key,
    Buffer.from(sealed.bytes),
    'application/pdf',
  );
  const now = nowIso();
  const moved = await deps.db.kysely.transaction().execute(async (trx) => {
    const moved = await moveDocument(trx, {
      document,
      move: 'seal',
      at: now,
      set: { sealed_file: key, hash, seal_mode: sealed.mode, seal_level: sealed.level },
      by: {
        actor: 'system',
        details: {
          sha256: hash,
          sandbox: deps.sandbox,
          sealMode: sealed.mode,
          sealLevel: sealed.level,
          ...(sealed.level !== deps.sealLevel ? { requestedLevel: deps.sealLevel } : {}),
        },
      },
    });
    // Every signee and the sender get the signed copy: queued with the move, so exactly once.
    if (moved) {
      await queueSignedCopies(trx, {
        document,
        signees,
        sealed: { key, size, filename: signedFilename(document) },
        publicUrl: deps.publicUrl,
        attachmentLimit: deps.attachmentLimit,
        at: now,
      });
    }
    return moved;
  });
  if (moved) deps.wakeJobs();
}

/**
 * The document's fields with what to draw: each signee's marks read once, a date field's date
 * written as its signee's signing page showed it (their language, else the document's). Also listed by the audit certificate alone (audit-certificate.ts).
 */
export async function sealFields(
  deps: Pick<SealDeps, 'db' | 'storage'>,
  document: repo.DocumentRow,
  signees: repo.SigneeRow[],
): Promise<SealField[]> {
  const rows = await listFields(deps.db.kysely, document.id);
  if (rows.length === 0) return [];
  const images = new Map<string, Uint8Array>();
  const image = async (key: string | null) => {
    if (!key) return undefined;
    if (!images.has(key)) images.set(key, await readAll(deps.storage, key));
    return images.get(key);
  };
  const bySignee = new Map(signees.map((s) => [s.id, s]));
  // An attachment field shows its file's name, not the upload's id.
  const filenames = rows.some((r) => r.type === 'attachment')
    ? new Map((await listAttachments(deps.db.kysely, document.id)).map((a) => [a.id, a.filename]))
    : new Map<string, string>();
  return Promise.all(
    rows.map(async (row) => {
      const signee = bySignee.get(row.signee_id);
      const value = row.value;
      const mark =
        row.type === 'signature'
          ? {
              image: await image(signee?.signature_file ?? null),
              typed: signee?.signature_typed ?? undefined,
            }
          : row.type === 'initials'
            ? {
                image: await image(signee?.initials_file ?? null),
                typed: signee?.initials_typed ?? undefined,
              }
            : undefined;
      return {
        type: row.type,
        page: row.page,
        x: row.x,
        y: row.y,
        width: row.width,
        height: row.height,
        label: row.label,
        value:
          row.type === 'date' && typeof value === 'string'
            ? // In the language its signee's page showed it in (field-layer.tsx): what they saw.
              formatDate(value, signee?.language ?? document.email_language)
            : row.type === 'attachment' && typeof value === 'string'
              ? (filenames.get(value) ?? null)
              : value,
        mark,
        tagBox: row.tag_box,
        signeeName: signee?.name ?? '',
        signeeEmail: signee?.email ?? '',
        filledAt: row.filled_at,
      };
    }),
  );
}

// A seal's input with every drawn mark replaced by bytes that are no PNG: each is drawn as its
// typed form, and the signature page says the drawn image could not be read.
const UNREAD_MARK = new Uint8Array(1);
function withoutDrawnMarks(job: SealJobInput): SealJobInput {
  const unread = (image?: Uint8Array) => (image ? UNREAD_MARK : undefined);
  return {
    ...job,
    signatures: job.signatures.map((s) => ({ ...s, image: unread(s.image) })),
    fields: job.fields?.map((f) =>
      f.mark ? { ...f, mark: { ...f.mark, image: unread(f.mark.image) } } : f,
    ),
  };
}

/** The trail as the audit certificate lists it: people named, not internal ids. */
export function certificateEntries(
  trail: Awaited<ReturnType<typeof listAudit>>,
  signees: repo.SigneeRow[],
): SealAuditEntry[] {
  return trail.map((e) => ({
    at: e.createdAt,
    action: e.action,
    actor: describeActor(e.actor, signees),
    ip: e.ip,
    userAgent: e.userAgent,
    ...emailOf(e),
    ...withVerification(e),
  }));
}

/**
 * The recipient and kind of an `e-mailed` or `e-mail failed` entry, from its details (entries
 * written before the kind was recorded name only the address; some name nothing).
 */
function emailOf(e: { action: string; details: Record<string, unknown> | null }) {
  if (e.action !== 'e-mailed' && e.action !== 'e-mail failed') return {};
  const to = e.details?.to;
  if (typeof to !== 'string') return {};
  const kind = typeof e.details?.kind === 'string' ? e.details.kind : null;
  return { email: { to, kind } };
}

// A verification entry's method and vouched identity, for the line under it.
function withVerification(e: { action: string; details: Record<string, unknown> | null }) {
  const verification = verificationOf(e);
  return verification ? { verification } : {};
}

/** An audit entry's actor as the certificate names it: people, not internal ids. */
function describeActor(actor: string, signees: repo.SigneeRow[]): string {
  const [kind, id] = actor.split(':');
  if (kind === 'signee') {
    const s = signees.find((x) => x.id === id);
    return s ? `${s.name} <${s.email}>` : 'signee';
  }
  if (kind === 'user') return 'sender';
  return actor;
}

/** The durable sealing job. */
export function sealJob(deps: SealDeps) {
  return defineJob({
    kind: SEAL_JOB,
    payload: z.object({ documentId: z.string() }),
    backoffMs: (attempt) => Math.min(5_000 * 2 ** (attempt - 1), 10 * 60_000),
    handle: async ({ documentId }, { job, attempt }) => {
      // The last attempt seals at whatever level the outside services allow; if even that
      // fails, the document moves to seal_failed, where it can be retried, not pending_seal
      // for ever.
      const last = attempt >= job.max_attempts;
      try {
        await sealDocument(deps, documentId, { settle: last });
      } catch (err) {
        if (last) await giveUp(deps, documentId, err);
        throw err;
      }
    },
  });
}

async function giveUp(deps: SealDeps, documentId: string, err: unknown): Promise<void> {
  const document = await repo.findDocument(deps.db.kysely, documentId);
  if (!document) return;
  const reason = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  const moved = await deps.db.kysely.transaction().execute((trx) =>
    moveDocument(trx, {
      document,
      move: 'failSeal',
      at: nowIso(),
      set: { seal_failure: reason },
      by: { actor: 'system', details: { reason } },
    }),
  );
  if (moved) {
    deps.logger.error({ documentId, err }, 'the seal failed for good: the document is seal_failed');
    deps.wakeJobs();
  }
}
