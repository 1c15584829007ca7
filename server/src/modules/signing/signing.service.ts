import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/handle.js';
import { AppError, validationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import { findUserById } from '../accounts/accounts.repo.js';
import type { RequestOrigin } from '../documents/audit.repo.js';
import * as repo from '../documents/documents.repo.js';
import { moveDocument, moveSignee } from '../documents/lifecycle.js';
import { queueDeclineNotices } from '../documents/after-signing.js';
import { blockedReason } from '../documents/signing-turns.js';
import { advanceSigning, assertTurn, resolveLink } from './signing-steps.js';
import { recordFirstView } from './first-view.js';
import { documentFileKey } from '../storage/keys.js';
import type { Storage } from '../storage/storage.js';
import {
  checkFieldValues,
  initialsOf,
  signedFieldValues,
  type AdoptedMark,
  type SubmittedValue,
} from '../fields/field-filling.js';
import { fillFields, listFields } from '../fields/fields.repo.js';
import { documentPageSizes } from '../fields/fields.service.js';
import { loadBrand } from '../tenants/branding.js';
import { checkAttachmentValues } from './attachments.js';

/** What the signing flow needs. */
export type SigningDeps = {
  db: Db;
  storage: Storage;
  config: Pick<Config, 'publicUrl' | 'secretKey' | 'mailDailyLimitPerTenant'>;
  wakeJobs: () => void;
};

/** The signature a signee gives: typed name or a drawn PNG. */
export type SignatureInput =
  | { type: 'typed'; text: string }
  | { type: 'drawn'; image: Buffer }
  | { type: 'uploaded'; image: Buffer };

// Stores a drawn mark before the transaction; content-addressed so a retry writes the same key.
async function storeDrawn(
  deps: SigningDeps,
  mark: SignatureInput | undefined,
  name: (digest: string) => string,
  documentId: string,
): Promise<string | null> {
  if (!mark || mark.type === 'typed') return null;
  const digest = createHash('sha256').update(mark.image).digest('hex').slice(0, 16);
  const key = documentFileKey(documentId, name(digest));
  await deps.storage.put(key, mark.image, 'image/png');
  return key;
}

const adopted = (mark: SignatureInput): AdoptedMark =>
  mark.type === 'typed' ? { type: 'typed', text: mark.text } : { type: mark.type };

/** What the signing page shows; the first view is recorded as "opened". */
export async function viewSigning(deps: SigningDeps, token: string, origin: RequestOrigin) {
  const { signee, document } = await resolveLink(deps.db.kysely, token);
  const signees = await repo.listSignees(deps.db.kysely, document.id);
  if (signee.opened_at === null) {
    const at = await recordFirstView(deps.db, {
      documentId: document.id,
      tenantId: document.tenant_id,
      signeeId: signee.id,
      origin,
    });
    if (at) {
      signee.opened_at = at;
      deps.wakeJobs();
    }
  }
  const sender = await findUserById(deps.db.kysely, document.user_id);
  const reason = blockedReason(document, signees, signee);
  const fields = await listFields(deps.db.kysely, document.id);
  const names = new Map(signees.map((s) => [s.id, s.name]));
  return {
    signee,
    document,
    senderName: sender?.name ?? 'Signet',
    canSign: reason === null,
    reason,
    fields: fields.filter((f) => f.signee_id === signee.id),
    filledFields: fields
      .filter((f) => f.signee_id !== signee.id && f.value !== null)
      .map((f) => ({ field: f, signeeName: names.get(f.signee_id) ?? '' })),
    // A file whose pages cannot be read still signs (on an appended page): no sizes then.
    pages: await documentPageSizes(deps, document).catch(() => []),
    brand: await loadBrand(deps.db.kysely, document.tenant_id, deps.config.publicUrl),
  };
}

/** The original PDF for a valid link. */
export async function signingFile(deps: SigningDeps, token: string) {
  const { document } = await resolveLink(deps.db.kysely, token);
  return { stream: await deps.storage.get(document.file), filename: document.original_file };
}

/**
 * pending → signed for the link's signee, in one transaction with its event and audit entry;
 * the last required signature moves the document to pending_seal and enqueues the seal job,
 * otherwise a completed wave invites the next one.
 */
export async function signDocument(
  deps: SigningDeps,
  input: {
    token: string;
    signature: SignatureInput;
    /** Initials for initials fields; derived from the typed signature or the name when absent. */
    initials?: SignatureInput;
    fields?: SubmittedValue[];
    origin: RequestOrigin;
  },
) {
  const { signee, document } = await resolveLink(deps.db.kysely, input.token);
  // Checked before anything is stored, so a link that cannot sign writes nothing; checked again
  // in the transaction below, which decides.
  assertTurn(document, await repo.listSignees(deps.db.kysely, document.id), signee, 'sign');
  const own = (await listFields(deps.db.kysely, document.id)).filter(
    (f) => f.signee_id === signee.id,
  );
  const checked = checkFieldValues(own, input.fields ?? []);
  const submitted = input.fields ?? [];
  checked.errors.push(
    ...(await checkAttachmentValues(deps.db, {
      documentId: document.id,
      signeeId: signee.id,
      own: own.filter((f) => submitted.some((s) => s.id === f.id)),
      values: checked.values,
      indexOf: (id) => submitted.findIndex((s) => s.id === id),
    })),
  );
  if (checked.errors.length > 0) {
    throw validationError(checked.errors, 'Some of your fields are not filled as they must be.');
  }
  const initials: SignatureInput = input.initials ?? {
    type: 'typed',
    text: initialsOf(input.signature.type === 'typed' ? input.signature.text : signee.name),
  };
  const usesInitials = own.some((f) => f.type === 'initials');
  const signatureFile = await storeDrawn(
    deps,
    input.signature,
    (digest) => `signature-${signee.id}-${digest}.png`,
    document.id,
  );
  const initialsFile = usesInitials
    ? await storeDrawn(
        deps,
        initials,
        (digest) => `initials-${signee.id}-${digest}.png`,
        document.id,
      )
    : null;
  const now = nowIso();
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    const { signee: current, document: doc } = await resolveLink(trx, input.token, deps.db.engine);
    const signees = await repo.listSignees(trx, doc.id);
    assertTurn(doc, signees, current, 'sign');
    const signed = await moveSignee(trx, {
      document: doc,
      signee: current,
      move: 'sign',
      at: now,
      set: {
        signed_at: now,
        signature_file: signatureFile,
        signature_typed: input.signature.type === 'typed' ? input.signature.text : null,
        initials_file: initialsFile,
        initials_typed: usesInitials && initials.type === 'typed' ? initials.text : null,
      },
      by: {
        actor: `signee:${current.id}`,
        origin: input.origin,
        details: { name: current.name, email: current.email, method: input.signature.type },
      },
    });
    if (!signed) throw new AppError('invalid_status', 'This signee has already signed.');
    const filled = signedFieldValues(own, {
      values: checked.values,
      signee: current,
      signature: adopted(input.signature),
      initials: adopted(initials),
      at: now,
    });
    await fillFields(trx, doc.id, filled, now);
    await advanceSigning(trx, deps, {
      document: doc,
      signees: signees.map((s) =>
        s.id === current.id ? { ...s, status: 'signed' as const, signed_at: now } : s,
      ),
      by: { actor: `signee:${current.id}`, origin: input.origin },
      at: now,
    });
    return { signeeId: current.id, documentId: doc.id };
  });
  deps.wakeJobs();
  return reload(deps, result.documentId, result.signeeId);
}

/**
 * pending → declined for the signee and → declined for the document: terminal. An approver's
 * rejection is this same decline (decisions §12).
 */
export async function declineDocument(
  deps: SigningDeps,
  input: { token: string; reason: string; origin: RequestOrigin },
) {
  const now = nowIso();
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    const { signee, document } = await resolveLink(trx, input.token, deps.db.engine);
    const signees = await repo.listSignees(trx, document.id);
    assertTurn(document, signees, signee, 'decline');
    const by = {
      actor: `signee:${signee.id}`,
      origin: input.origin,
      details: { name: signee.name, email: signee.email, reason: input.reason },
    };
    const declined = await moveSignee(trx, {
      document,
      signee,
      move: 'decline',
      at: now,
      set: { declined_at: now, decline_reason: input.reason },
      by,
    });
    const moved =
      declined &&
      (await moveDocument(trx, { document, move: 'decline', at: now, by, signeeId: signee.id }));
    if (!moved) throw new AppError('link_expired', 'This signing link is no longer valid.');
    await queueDeclineNotices(trx, {
      document,
      signees,
      decliner: signee,
      reason: input.reason,
      publicUrl: deps.config.publicUrl,
    });
    return { signeeId: signee.id, documentId: document.id };
  });
  deps.wakeJobs();
  return reload(deps, result.documentId, result.signeeId);
}

/** The document and the signee as they stand after a step, for its answer. */
export async function reload(deps: SigningDeps, documentId: string, signeeId: string) {
  const document = await repo.findDocument(deps.db.kysely, documentId);
  const signees = await repo.listSignees(deps.db.kysely, documentId);
  return { document: document!, signee: signees.find((s) => s.id === signeeId)! };
}
