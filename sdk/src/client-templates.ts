// The client's templates, bulk sends and direct links (decisions §11).
import { downloadUrl, typed } from './client-documents.js';
import type { DirectLinkView } from './resource-types.js';
import type {
  BulkSend,
  BulkSendRow,
  BulkSendRowInput,
  BulkSendRowsPage,
  FromTemplateInput,
  FromTemplateResult,
  TemplateEdit,
  TemplateField,
  TemplateFieldInput,
  TemplateInput,
  TemplatePage,
  TemplateWithFields,
} from './template-types.js';
import { toBlob, type Transport } from './transport.js';

/** The template methods of a client. */
export function templatesApi(t: Transport) {
  return {
    /** Uploads a PDF as a template with its roles, and fields placed for roles. */
    create: (input: TemplateInput) => {
      const { tenantId, file, fileName, fields, textTags, idempotencyKey, ...template } = input;
      const form = new FormData();
      form.append('tenantId', tenantId);
      form.append('template', JSON.stringify(template));
      if (fields !== undefined) form.append('fields', JSON.stringify(fields));
      if (textTags !== undefined) form.append('textTags', String(textTags));
      form.append('file', toBlob(file), fileName ?? 'template.pdf');
      return typed<TemplateWithFields>(t.call('createTemplate', {}, {}, { form, idempotencyKey }));
    },
    /** A template with its fields and a fresh download URL. */
    get: (templateId: string) => typed<TemplateWithFields>(t.call('getTemplate', { templateId })),
    /** The template's PDF. */
    download: async (templateId: string) => {
      const { template } = await typed<TemplateWithFields>(t.call('getTemplate', { templateId }));
      return downloadUrl(t, template.downloadUrl);
    },
    /** A page of a tenant's templates, newest first; `q` in the name, any case. */
    list: (query: { tenantId: string; q?: string; limit?: number; cursor?: string }) =>
      typed<TemplatePage>(t.call('listTemplates', {}, query)),
    /** Changes the name, settings, roles (the whole list) or direct link. */
    update: (templateId: string, patch: TemplateEdit) =>
      typed<TemplateWithFields>(t.call('updateTemplate', { templateId }, {}, { json: patch })),
    /** Publishes (or withdraws) the direct link of a one-role template; see `directLink.url`. */
    setDirectLink: (templateId: string, enabled: boolean) =>
      typed<TemplateWithFields>(
        t.call('updateTemplate', { templateId }, {}, { json: { directLink: { enabled } } }),
      ),
    /** Replaces a template's fields. */
    putFields: (templateId: string, fields: TemplateFieldInput[]) =>
      typed<{ fields: TemplateField[] }>(
        t.call('putTemplateFields', { templateId }, {}, { json: { fields } }),
      ),
    /** Deletes a template; documents made from it stay. */
    delete: (templateId: string) => typed<void>(t.call('deleteTemplate', { templateId })),
    /** A document from a template: signees per role, prefill by label; `send` sends it too. */
    createDocument: (
      templateId: string,
      input: FromTemplateInput,
      options: { idempotencyKey?: string } = {},
    ) =>
      typed<FromTemplateResult>(
        t.call('createDocumentFromTemplate', { templateId }, {}, { json: input, ...options }),
      ),
  };
}

/** The bulk-send methods of a client. */
export function bulkSendsApi(t: Transport) {
  const get = async (bulkSendId: string) =>
    (await typed<{ bulkSend: BulkSend }>(t.call('getBulkSend', { bulkSendId }))).bulkSend;
  return {
    /**
     * Sends a template to every row of a CSV file (`csv`: its bytes) or of JSON `rows`; the
     * rows go out in the background: follow them with `get` or `waitUntilCompleted`.
     */
    create: async (
      templateId: string,
      input: ({ csv: Uint8Array | Blob } | { rows: BulkSendRowInput[] }) & {
        idempotencyKey?: string;
      },
    ) => {
      const { idempotencyKey } = input;
      let body: { form: FormData } | { json: { rows: BulkSendRowInput[] } };
      if ('csv' in input) {
        const form = new FormData();
        form.append('csv', toBlob(input.csv, 'text/csv'), 'rows.csv');
        body = { form };
      } else body = { json: { rows: input.rows } };
      return (
        await typed<{ bulkSend: BulkSend }>(
          t.call('createBulkSend', { templateId }, {}, { ...body, idempotencyKey }),
        )
      ).bulkSend;
    },
    /** A bulk send's progress. */
    get,
    /** A page of its rows in row order, e.g. `{status: 'failed'}` with why each failed. */
    rows: (
      bulkSendId: string,
      query: { status?: BulkSendRow['status']; limit?: number; cursor?: string } = {},
    ) => typed<BulkSendRowsPage>(t.call('listBulkSendRows', { bulkSendId }, query)),
    /** A template's bulk sends, newest first. */
    list: (templateId: string, query: { limit?: number; cursor?: string } = {}) =>
      typed<{ bulkSends: BulkSend[]; nextCursor: string | null }>(
        t.call('listBulkSends', { templateId }, query),
      ),
    /** Polls until the bulk send is completed (every `intervalMs`, 1 s by default). */
    waitUntilCompleted: async (
      bulkSendId: string,
      options: { intervalMs?: number; timeoutMs?: number } = {},
    ) => {
      const deadline = Date.now() + (options.timeoutMs ?? 15 * 60_000);
      for (;;) {
        const bulk = await get(bulkSendId);
        if (bulk.status === 'completed') return bulk;
        if (Date.now() > deadline) {
          throw new Error(
            `bulk send ${bulkSendId} not completed in time (${bulk.created} of ${bulk.total} created)`,
          );
        }
        await new Promise((r) => setTimeout(r, options.intervalMs ?? 1000));
      }
    },
  };
}

/** The direct-link methods of a client: what a visitor of `{base_url}/t/{token}` does. */
export function directLinksApi(t: Transport) {
  return {
    /** The template's direct link as its visitors see it. */
    get: (token: string) => typed<DirectLinkView>(t.call('getDirectLinkView', { token })),
    /** Starts a document from the link for a visitor; answers their signing URL. */
    use: (token: string, input: { name: string; email: string }) =>
      t.call('useDirectLink', { token }, {}, { json: input }),
  };
}
