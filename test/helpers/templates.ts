import type { TestContext } from './context.js';
import { makePdf } from './pdf.js';

/** The parts of POST /api/templates; `template` as an object (sent as JSON) or a raw string. */
export type TemplateParts = {
  tenantId: string;
  template?: unknown;
  fields?: unknown;
  textTags?: 'true' | 'false';
  file?: Buffer | null;
  filename?: string;
};

/** POST /api/templates over real HTTP (multipart). */
export async function createTemplate(
  ctx: TestContext,
  apiKey: string,
  parts: TemplateParts,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  form.append('tenantId', parts.tenantId);
  const template = parts.template ?? {
    name: 'Lease',
    roles: [{ name: 'Tenant' }, { name: 'Landlord' }],
  };
  form.append('template', typeof template === 'string' ? template : JSON.stringify(template));
  if (parts.fields !== undefined) {
    form.append(
      'fields',
      typeof parts.fields === 'string' ? parts.fields : JSON.stringify(parts.fields),
    );
  }
  if (parts.textTags) form.append('textTags', parts.textTags);
  if (parts.file !== null) {
    form.append(
      'file',
      new Blob([new Uint8Array(parts.file ?? makePdf({ pages: 2 }))], { type: 'application/pdf' }),
      parts.filename ?? 'lease.pdf',
    );
  }
  const res = await fetch(`${ctx.baseUrl}/api/templates`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, accept: 'application/json', ...headers },
    body: form,
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: (text ? JSON.parse(text) : null) as any,
  };
}

/** A signature field for each of the first `roles` roles, on page 1, stacked. */
export function signatureFields(roles: number, extra: object[] = []) {
  return [
    ...Array.from({ length: roles }, (_, role) => ({
      role,
      type: 'signature',
      page: 1,
      x: 72,
      y: 100 + role * 60,
      width: 160,
      height: 40,
    })),
    ...extra,
  ];
}
