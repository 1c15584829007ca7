import type { TestContext } from './context.js';
import { makePdf } from './pdf.js';

/** Multipart parts for quick-create; any part can be overridden or left out with null. */
export type QuickCreateParts = {
  file?: Buffer | null;
  filename?: string;
  tenantId?: string | null;
  signees?: unknown;
  extra?: Record<string, string>;
};

/** Posts quick-create over real HTTP as multipart/form-data. */
export async function quickCreate(
  ctx: TestContext,
  apiKey: string,
  parts: QuickCreateParts,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  if (parts.tenantId !== null && parts.tenantId !== undefined)
    form.append('tenantId', parts.tenantId);
  const signees =
    parts.signees === undefined
      ? [
          { email: 'alice@example.com', name: 'Alice Example' },
          { email: 'bob@example.com', name: 'Bob Example' },
        ]
      : parts.signees;
  if (signees !== null) {
    form.append('signees', typeof signees === 'string' ? signees : JSON.stringify(signees));
  }
  for (const [k, v] of Object.entries(parts.extra ?? {})) form.append(k, v);
  if (parts.file !== null) {
    form.append(
      'file',
      new Blob([new Uint8Array(parts.file ?? makePdf())], { type: 'application/pdf' }),
      parts.filename ?? 'contract.pdf',
    );
  }
  const res = await fetch(`${ctx.baseUrl}/api/documents/quick-create`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, accept: 'application/json', ...headers },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Calls a JSON endpoint over real HTTP. */
export async function api(
  ctx: TestContext,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': apiKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, headers: res.headers, body: parsed as any };
}
