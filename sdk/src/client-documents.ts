// The client's documents: create, edit, send, remind, cancel, seal, the audit trail and
// certificate, downloads, and the text-tag preview.
import type {
  DocumentDetail,
  DocumentEdit,
  DocumentPage,
  DocumentSummary,
  DocumentStatus,
  DocumentWithSignees,
  Field,
  FieldInput,
  QuickCreateInput,
  QuickCreateResult,
  SendForSigningResult,
  SigneeChange,
  SigneeEdit,
  SigneeInput,
  SigneeRole,
} from './client-types.js';
import type {
  AuditEntry,
  FieldAttachment,
  RemindResult,
  TextTagPreview,
} from './resource-types.js';
import type { TemplateWithFields } from './template-types.js';
import { toBlob, type Transport } from './transport.js';

/** `call`'s answer as the SDK's type: tsc checks that the API's answer fits it. */
export const typed = <T>(answer: Promise<T>): Promise<T> => answer;

/** The document methods of a client. */
export function documentsApi(t: Transport) {
  return {
    /** Uploads a PDF with its signees; the document starts in draft. */
    quickCreate: (input: QuickCreateInput) => {
      const form = new FormData();
      form.append('tenantId', input.tenantId);
      form.append('signees', JSON.stringify(input.signees));
      // Plain strings as they are, the rest as JSON: what the multipart form takes.
      const parts = [
        ['name', input.name],
        ['signingMessage', input.signingMessage],
        ['signingOrderEnabled', input.signingOrderEnabled],
        ['signingGroupsEnabled', input.signingGroupsEnabled],
        ['expiresAt', input.expiresAt],
        ['reminders', input.reminders],
        ['fields', input.fields],
        ['textTags', input.textTags],
        ['externalId', input.externalId],
        ['metadata', input.metadata],
        ['redirectUrl', input.redirectUrl],
      ] as const;
      for (const [name, value] of parts) {
        if (value !== undefined) {
          form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
        }
      }
      form.append('file', toBlob(input.file), input.fileName ?? 'document.pdf');
      return typed<QuickCreateResult>(
        t.call('quickCreateDocument', {}, {}, { form, idempotencyKey: input.idempotencyKey }),
      );
    },
    /** A document with its signees, its fields and a fresh download URL. */
    get: (documentId: string) => typed<DocumentDetail>(t.call('getDocument', { documentId })),
    /** Deletes a draft, or a document no longer in process, with its files. */
    delete: (documentId: string) => typed<void>(t.call('deleteDocument', { documentId })),
    /**
     * A page of a tenant's documents, newest first: by status, folder (its own documents),
     * pinned or not, `externalId` (exactly) and `q` (in the name or a signee's name or
     * e-mail, any case).
     */
    list: (query: {
      tenantId: string;
      status?: DocumentStatus;
      folderId?: string;
      pinned?: boolean;
      q?: string;
      /** Only the documents with exactly this externalId. */
      externalId?: string;
      /** Only the documents that became signed at or after this ISO time. */
      completedSince?: string;
      /** Only the documents in process with a signee's invitation or reminder refused for good. */
      emailFailed?: true;
      limit?: number;
      cursor?: string;
    }) => typed<DocumentPage>(t.call('listDocuments', {}, query)),
    /**
     * A tenant's home counts in one call: in process, drafts, completed since `completedSince`
     * (default 7 days ago) and in process with a failed e-mail.
     */
    summary: async (query: { tenantId: string; completedSince?: string }) =>
      (await typed<{ summary: DocumentSummary }>(t.call('getDocumentSummary', {}, query))).summary,
    /**
     * Changes a draft's settings, its externalId, metadata and redirectUrl (draft or in
     * process), or pins and files a document in any status.
     */
    update: (documentId: string, patch: DocumentEdit) =>
      typed<DocumentDetail>(t.call('updateDocument', { documentId }, {}, { json: patch })),
    /** Adds a signee to a draft. */
    addSignee: (documentId: string, signee: SigneeInput) =>
      typed<SigneeChange>(t.call('addSignee', { documentId }, {}, { json: signee })),
    /** Changes a draft's signee. */
    updateSignee: (documentId: string, signeeId: string, patch: SigneeEdit) =>
      typed<SigneeChange>(t.call('updateSignee', { documentId, signeeId }, {}, { json: patch })),
    /** Removes a draft's signee and their fields. */
    removeSignee: (documentId: string, signeeId: string) =>
      typed<void>(t.call('removeSignee', { documentId, signeeId })),
    /** A document's fields. */
    getFields: (documentId: string) =>
      typed<{ fields: Field[] }>(t.call('getFields', { documentId })),
    /** Replaces a draft's fields. */
    putFields: (documentId: string, fields: FieldInput[]) =>
      typed<{ fields: Field[] }>(t.call('putFields', { documentId }, {}, { json: { fields } })),
    /** Sends a draft for signing; check `deliveries` as well as the status. */
    sendForSigning: (documentId: string, options: { idempotencyKey?: string } = {}) =>
      typed<SendForSigningResult>(t.call('sendForSigning', { documentId }, {}, options)),
    /** Reminds the signees whose turn it is now (rate limited per address: 429 when none is left). */
    remind: (documentId: string) => typed<RemindResult>(t.call('remindSignees', { documentId })),
    /** Cancels a document in process; `reason` is told to the signees already invited. */
    cancel: (documentId: string, options: { reason?: string } = {}) =>
      typed<DocumentWithSignees>(t.call('cancelDocument', { documentId }, {}, { json: options })),
    /** Seals again a document in `seal_failed` (its `sealFailure` says why it failed). */
    retrySeal: (documentId: string) =>
      typed<DocumentWithSignees>(t.call('retrySeal', { documentId })),
    /** The document's audit trail, oldest entry first. */
    auditTrail: async (documentId: string) =>
      (await typed<{ auditTrail: AuditEntry[] }>(t.call('getAuditTrail', { documentId })))
        .auditTrail,
    /**
     * The audit certificate alone, as a sealed PDF made now: the trail so far, the hashes, in
     * the document's language. Any status but draft (then 409 `document_not_sent`).
     */
    getAuditCertificate: (documentId: string) => t.bytes('getAuditCertificate', { documentId }),
    /** The document's PDF: the sealed file once signed, else the original. */
    download: async (documentId: string) => {
      const { document } = await typed<DocumentDetail>(t.call('getDocument', { documentId }));
      return downloadUrl(t, document.downloadUrl);
    },
    /** The files the document's signees attached for its `attachment` fields. */
    attachments: async (documentId: string) =>
      (await typed<{ attachments: FieldAttachment[] }>(t.call('listAttachments', { documentId })))
        .attachments,
    /** One attached file's bytes (a PDF, PNG or JPEG). */
    downloadAttachment: (documentId: string, attachmentId: string) =>
      t.bytes('downloadAttachment', { documentId, attachmentId }),
    /** Revokes the signed-copy links of the completion e-mails; answers how many still worked. */
    revokeCopyLinks: (documentId: string) => t.call('revokeCopyLinks', { documentId }),
    /** Makes a template of a draft: its signees become roles (named by `roles` if given). */
    saveAsTemplate: (
      documentId: string,
      input: {
        name: string;
        roles?: Array<string | { name: string; signingOrder?: number; role?: SigneeRole }>;
      },
    ) => typed<TemplateWithFields>(t.call('saveAsTemplate', { documentId }, {}, { json: input })),
    /**
     * The `{{TYPE:N}}` text tags of a PDF as quick-create with `textTags` would place them, and
     * every problem; `signees`: how many the document will have. Stores nothing.
     */
    previewTextTags: (input: {
      file: Blob | Uint8Array | ArrayBuffer;
      fileName?: string;
      signees?: number;
    }) => {
      const form = new FormData();
      if (input.signees !== undefined) form.append('signees', String(input.signees));
      form.append('file', toBlob(input.file), input.fileName ?? 'document.pdf');
      return typed<TextTagPreview>(t.call('previewTextTags', {}, {}, { form }));
    },
  };
}

/**
 * The file behind a `downloadUrl` (a document's or a template's), fetched from the client's
 * own base URL: the service's PUBLIC_URL in the link may not be reachable from here.
 */
export function downloadUrl(t: Transport, url: string): Promise<Uint8Array> {
  const parsed = new URL(url);
  const match = /\/api\/files\/([^/]+)\/([^/]+)$/.exec(parsed.pathname);
  if (!match) return t.fetchUrl(url);
  const query = Object.fromEntries(parsed.searchParams);
  return t.bytes(
    'downloadFile',
    { documentId: decodeURIComponent(match[1]), kind: decodeURIComponent(match[2]) },
    query,
  );
}
