// The client's operations outside a tenant: the service's health and metadata, the account,
// PDF verification, signed-copy links, the signee's side of a signing link, and the sandbox's
// dev mailbox. Most need no API key.
import { typed } from './client-documents.js';
import type {
  DevMailbox,
  PdfVerification,
  ServiceMeta,
  SignInput,
  SigningLinkStatus,
  SigningView,
  User,
} from './resource-types.js';
import { toBlob, type Transport } from './transport.js';

/** The service-level methods of a client. */
export function serviceApi(t: Transport) {
  return {
    /** Liveness: `{status: 'ok'}` while the process answers. */
    health: () => t.call('getHealth'),
    /** Readiness: `{status: 'ready'}`, or a SignetApiError 503 while the database is down. */
    readiness: () => t.call('getReadiness'),
    /** The environment (sandbox or production) and whether the dev mailbox is on. */
    meta: () => typed<ServiceMeta>(t.call('getMeta')),
    /** The Prometheus metrics, as text. */
    metrics: () => t.text('getMetrics'),
  };
}

/** The account methods of a client (the API keys themselves are made in the dashboard). */
export function accountApi(t: Transport) {
  return {
    /** The user behind the API key. */
    me: async () => (await typed<{ user: User }>(t.call('getCurrentUser'))).user,
    /**
     * Signs up (the same answer whether or not the address has an account); a new account gets
     * its first tenant, named `tenantName` or "<name>'s workspace".
     */
    signUp: (input: { email: string; password: string; name: string; tenantName?: string }) =>
      t.call('signUp', {}, {}, { json: input }),
    /** Confirms an address with the token its e-mail carried. */
    verifyEmail: (token: string) => t.call('verifyEmail', {}, {}, { json: { token } }),
    /** Sends the verification e-mail again. */
    resendVerification: (email: string) =>
      t.call('resendVerification', {}, {}, { json: { email } }),
    /** Sends a password-reset e-mail (the same answer for an unknown address). */
    requestPasswordReset: (email: string) =>
      t.call('requestPasswordReset', {}, {}, { json: { email } }),
    /** Sets a new password with the token of the reset e-mail. */
    resetPassword: (input: { token: string; password: string }) =>
      t.call('resetPassword', {}, {}, { json: input }),
  };
}

/** Checks any PDF's signatures and evidence on the service (public; rate limited). */
export function verifyPdf(t: Transport) {
  return (file: Blob | Uint8Array | ArrayBuffer, fileName = 'document.pdf') => {
    const form = new FormData();
    form.append('file', toBlob(file), fileName);
    return typed<PdfVerification>(t.call('verifyPdf', {}, {}, { form }));
  };
}

/** Downloads outside the API key's documents: the completion e-mails' signed-copy links. */
export function copiesApi(t: Transport) {
  return {
    /** The signed copy behind a `{base_url}/api/copies/{token}` link. */
    signedCopy: (token: string) => t.bytes('downloadSignedCopy', { token }),
  };
}

/**
 * The signee's side of a signing link (what the signing page does), for your own signing UI
 * or tests. After `authenticate`, the link's cookie is kept here and sent with its later calls.
 */
export function signingApi(t: Transport) {
  const cookies = new Map<string, string>();
  const withCookie = (token: string) => {
    const cookie = cookies.get(token);
    return cookie ? { headers: { cookie } } : {};
  };
  return {
    /** The document, the signee's part and whether they can sign now. */
    view: (token: string) =>
      typed<SigningView>(t.call('getSigningView', { token }, {}, withCookie(token))),
    /** The PDF to sign. */
    file: (token: string) => t.bytes('getSigningFile', { token }, {}, withCookie(token)),
    /**
     * What became of the link's document (open, sealing, signed, declined, cancelled, expired),
     * answered even once it is closed; for a signed one, the signee's copy link's state.
     */
    status: (token: string) =>
      typed<SigningLinkStatus>(t.call('getSigningLinkStatus', { token }, {}, withCookie(token))),
    /** The signed copy, once the document is signed (personal, 30 days, revocable). */
    signedCopy: (token: string) =>
      t.bytes('downloadSigningLinkCopy', { token }, {}, withCookie(token)),
    /** E-mails the 6-digit code of an `email_otp` link. */
    sendCode: (token: string) => t.call('sendSigningCode', { token }),
    /** Satisfies the link's verification with its code or an identity token. */
    authenticate: async (token: string, input: { code?: string; identity?: string }) => {
      const res = await t.send(
        'verifySigningLink',
        { token },
        {},
        { json: input },
        'application/json',
      );
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      if (cookie) cookies.set(token, cookie);
      return (await res.json()) as { method: string; expiresAt: string };
    },
    /**
     * Uploads a file for an `attachment` field (PDF, PNG or JPEG, at most 10 MiB); its
     * `attachmentId` is then the field's value in `sign`.
     */
    uploadAttachment: async (
      token: string,
      file: { data: Blob | Uint8Array | ArrayBuffer; name: string; type: string },
      fieldId?: string,
    ) => {
      const form = new FormData();
      if (fieldId) form.append('fieldId', fieldId);
      form.append('file', toBlob(file.data, file.type), file.name);
      return typed<{ attachmentId: string }>(
        t.call('uploadAttachment', { token }, {}, { form, ...withCookie(token) }),
      );
    },
    /** Signs: consent, the adopted signature (and initials), the signee's field values. */
    sign: (token: string, input: SignInput) =>
      t.call('sign', { token }, {}, { json: input, ...withCookie(token) }),
    /** An approver's approval. */
    approve: (token: string) =>
      t.call('approve', { token }, {}, { json: {}, ...withCookie(token) }),
    /** Declines, with the reason the sender will see. */
    decline: (token: string, input: { reason: string }) =>
      t.call('decline', { token }, {}, { json: input, ...withCookie(token) }),
  };
}

/** The sandbox's dev mailbox (only where the service runs with DEV_MAILBOX on). */
export function sandboxApi(t: Transport) {
  return {
    /** Stored e-mails, newest first, optionally only those to one address. */
    mailbox: (query: { to?: string } = {}) =>
      typed<DevMailbox>(t.call('listDevMailbox', {}, query) as Promise<DevMailbox>),
    /** One e-mail as an HTML page. */
    email: (emailId: string) => t.text('getDevMailboxEmail', { emailId }),
    /** One e-mail's PDF attachment. */
    attachment: (emailId: string) => t.bytes('getDevMailboxAttachment', { emailId }),
  };
}
