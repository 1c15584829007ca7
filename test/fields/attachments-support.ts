import sharp from 'sharp';
import type { TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { signingTokenFromMailbox } from '../helpers/signing.js';

let address = 0;
/** A fresh client address per call (the service trusts X-Forwarded-For from loopback). */
export const nextAddress = () => `10.51.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

/** Posts a file to a signing link's attachments as multipart, from a fresh address. */
export async function uploadAttachment(
  ctx: TestContext,
  token: string,
  bytes: Buffer,
  filename: string,
  fieldId?: string,
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  if (fieldId) form.append('fieldId', fieldId);
  const res = await fetch(`${ctx.baseUrl}/api/signing/${token}/attachments`, {
    method: 'POST',
    headers: { 'x-forwarded-for': nextAddress() },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A real PNG photo-like image of the given size (noise, so it does not compress to nothing). */
export async function pngOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
}

/** A JPEG of the given size. */
export async function jpegOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#aa6633' } })
    .jpeg()
    .toBuffer();
}

/**
 * A sent document whose two signees each have a signature field and an attachment field
 * (the first signee a second, optional one): the fields and each signee's link.
 */
export async function documentWithAttachmentFields(
  ctx: TestContext,
  apiKey: string,
  tenantId: string,
) {
  const tag = Math.random().toString(36).slice(2, 8);
  const emails = [`ada.${tag}@example.com`, `ben.${tag}@example.com`];
  const fields = [
    { signee: 0, type: 'signature', page: 1, x: 72, y: 600, width: 180, height: 48 },
    {
      signee: 0,
      type: 'attachment',
      page: 1,
      x: 72,
      y: 680,
      width: 200,
      height: 18,
      label: 'Copy of ID',
      required: true,
    },
    { signee: 0, type: 'attachment', page: 1, x: 300, y: 680, width: 200, height: 18 },
    { signee: 1, type: 'signature', page: 1, x: 330, y: 600, width: 180, height: 48 },
    { signee: 1, type: 'attachment', page: 1, x: 72, y: 720, width: 200, height: 18 },
  ];
  const created = await quickCreate(ctx, apiKey, {
    tenantId,
    signees: [
      { email: emails[0], name: 'Ada Lovelace' },
      { email: emails[1], name: 'Ben Okafor' },
    ],
    extra: { fields: JSON.stringify(fields) },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const id = created.body.document.id as string;
  const sent = await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
  if (sent.status !== 200) throw new Error(JSON.stringify(sent.body));
  const tokens = await Promise.all(emails.map((e) => signingTokenFromMailbox(ctx, e)));
  const all = created.body.fields as Array<{ id: string; type: string; signeeId: string }>;
  const [ada, ben] = created.body.signees as Array<{ id: string }>;
  const of = (signeeId: string, type: string) =>
    all.filter((f) => f.signeeId === signeeId && f.type === type).map((f) => f.id);
  return {
    id,
    tokens,
    ada: { attachments: of(ada.id, 'attachment') },
    ben: { attachments: of(ben.id, 'attachment') },
  };
}
