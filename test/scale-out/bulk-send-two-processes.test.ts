import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../server/src/jobs/queue.js';
import { changeCredits } from '../../server/src/modules/tenants/tenants.repo.js';
import type { TestContext } from '../helpers/context.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { startTwoProcesses, type TwoProcesses } from './support.js';

const ROWS = 2000;

// Two `signet serve` processes on one PostgreSQL database run one bulk send. Each has its own
// DATA_DIR: creating a row reads no file (documents share the template's stored file), so
// neither needs the other's disk. A second job chain for the same bulk send (as when a lease
// taken over raced a run still alive) makes both processes create rows at the same moment.
describe('one bulk send on two processes and one PostgreSQL database', () => {
  let two: TwoProcesses;
  let ctx: TestContext;
  let b: TwoProcesses['b'];
  let apiKey: string;
  let tenantId: string;

  beforeAll(async () => {
    two = await startTwoProcesses({ MAIL_DAILY_LIMIT_PER_TENANT: '100000' });
    ({ ctx, b, apiKey, tenantId } = two);
    await changeCredits(ctx.db.kysely, { tenantId, delta: 2 * ROWS, reason: 'grant' });
  });

  afterAll(() => two?.close());

  it(
    'creates every row once, none lost, with both chains running',
    { timeout: 180_000 },
    async () => {
      const template = await createTemplate(ctx, apiKey, {
        tenantId,
        template: { name: 'Scale', roles: [{ name: 'Client' }, { name: 'Witness' }] },
        fields: signatureFields(2),
      });
      expect(template.status).toBe(201);
      const templateId = template.body.template.id as string;
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        signees: [
          { role: 0, email: `scale${i}@example.com`, name: `Client ${i}` },
          { role: 1, email: `witness${i}@example.com`, name: `Witness ${i}` },
        ],
        externalId: `row-${i + 1}`,
      }));
      // Intake on process a; the jobs run wherever they are claimed.
      const upload = await fetch(`${two.a.baseUrl}/api/templates/${templateId}/bulk-sends`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ rows }),
      });
      const text = await upload.text();
      expect(upload.status, text).toBe(202);
      const bulkSendId = (JSON.parse(text) as { bulkSend: { id: string } }).bulkSend.id;
      await enqueueJob(ctx.db.kysely, {
        kind: 'bulk_send.run',
        payload: { bulkSendId },
        maxAttempts: 20,
      });

      const end = Date.now() + 170_000;
      for (;;) {
        const res = await fetch(`${b.baseUrl}/api/bulk-sends/${bulkSendId}`, {
          headers: { 'x-api-key': apiKey },
        });
        const { bulkSend } = (await res.json()) as { bulkSend: { status: string } };
        if (bulkSend.status === 'completed') break;
        if (Date.now() > end) throw new Error(`bulk send still ${bulkSend.status}`);
        await new Promise((r) => setTimeout(r, 200));
      }

      const made = await ctx.db.kysely
        .selectFrom('bulk_send_rows')
        .select(['row_number', 'status', 'document_id'])
        .where('bulk_send_id', '=', bulkSendId)
        .orderBy('row_number')
        .execute();
      expect(made.every((r) => r.status === 'created' && r.document_id !== null)).toBe(true);
      expect(new Set(made.map((r) => r.document_id)).size).toBe(ROWS);
      const documents = await ctx.db.kysely
        .selectFrom('documents')
        .select(['id', 'external_id', 'status'])
        .where('template_id', '=', templateId)
        .execute();
      expect(documents).toHaveLength(ROWS);
      // Each row's document is the one made from that row.
      const byId = new Map(documents.map((d) => [d.id, d]));
      for (const r of made) {
        expect(byId.get(r.document_id!)?.external_id).toBe(`row-${r.row_number}`);
        expect(byId.get(r.document_id!)?.status).toBe('in_process');
      }
      const emails = await ctx.db.kysely
        .selectFrom('emails')
        .select('to_address')
        .where('tenant_id', '=', tenantId)
        .execute();
      expect(emails).toHaveLength(2 * ROWS);
      expect(new Set(emails.map((e) => e.to_address)).size).toBe(2 * ROWS);
      const bulk = await ctx.db.kysely
        .selectFrom('bulk_sends')
        .selectAll()
        .where('id', '=', bulkSendId)
        .executeTakeFirstOrThrow();
      expect(bulk).toMatchObject({ status: 'completed', created: ROWS, failed: 0 });
      const ledger = await ctx.db.kysely
        .selectFrom('credit_ledger')
        .select(['delta', 'reason'])
        .where('reference', '=', bulkSendId)
        .execute();
      expect(ledger).toEqual([{ delta: -2 * ROWS, reason: 'bulk-send' }]);
      // Both chains ended: no job of the bulk send is left.
      const jobs = await ctx.db.kysely
        .selectFrom('jobs')
        .select(['id', 'status', 'last_error'])
        .where('kind', '=', 'bulk_send.run')
        .execute();
      expect(jobs).toEqual([]);
    },
  );
});
