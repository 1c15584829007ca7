import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../../db/handle.js';
import { enqueueJob } from '../../jobs/queue.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError, validationError } from '../../lib/errors.js';
import { newId, nowIso } from '../../lib/ids.js';
import type { RequestOrigin } from '../documents/audit.repo.js';
import { decodeFields } from '../fields/fields.repo.js';
import type { TemplateSource } from '../templates/from-template.service.js';
import {
  findTemplate,
  rolesOf,
  type TemplateRole,
  type TemplateRow,
} from '../templates/templates.repo.js';
import { readableTemplate } from '../templates/templates.service.js';
import { changeCredits, findTenant } from '../tenants/tenants.repo.js';
import { requireMembership } from '../tenants/tenants.service.js';
import { MAX_BULK_ROWS, parseBulkCsv } from './bulk-csv.js';
import { checkCsvRows, checkJsonRows, type BulkTemplate, type CheckedRow } from './bulk-rows.js';
import { BULK_SEND_JOB, BULK_SEND_JOB_ATTEMPTS } from './bulk-send.job.js';
import * as repo from './bulk-sends.repo.js';
import { creditsFor, signs } from '../documents/signee-roles.js';

/** What the bulk-send routes need. */
export type BulkSendDeps = { db: Db; wakeJobs: () => void };

/** A bulk send's rows as uploaded: a CSV file, or the JSON form's `rows`. */
export type BulkSource = { csv: Buffer } | { rows: unknown[] };

// Rows checked between two turns of the event loop: a 10,000-row file is checked in about
// 0.2 s, which would otherwise hold every other request for as long.
const CHECK_CHUNK = 500;
// How many row errors a refused file answers with.
const MAX_REPORTED_ERRORS = 100;

/** The API form of a bulk send. */
export function presentBulkSend(b: repo.BulkSendRow) {
  return {
    id: b.id,
    templateId: b.template_id,
    status: b.status,
    total: b.total,
    created: b.created,
    failed: b.failed,
    createdAt: b.created_at,
    finishedAt: b.finished_at,
    waitingUntil: b.waiting_until,
  };
}

/** The columns of a template a bulk send's documents are made of (its snapshot). */
export function templateSnapshot(t: TemplateRow): TemplateSource {
  return {
    id: t.id,
    tenant_id: t.tenant_id,
    name: t.name,
    roles: t.roles,
    fields: t.fields,
    signing_message: t.signing_message,
    email_language: t.email_language,
    signing_order_enabled: t.signing_order_enabled,
    file: t.file,
    original_file: t.original_file,
    size_bytes: t.size_bytes,
    original_sha256: t.original_sha256,
    page_sizes: t.page_sizes,
  };
}

// Every signer role of a template with fields needs a signature field, as sending does
// (requireSendableFields): refused here once rather than on every row.
function requireSignatureFields(template: Omit<BulkTemplate, 'roles'> & { roles: TemplateRole[] }) {
  if (template.fields.length === 0) return;
  const signing = new Set(
    template.fields.filter((f) => f.type === 'signature').map((f) => f.signee_id),
  );
  const missing = template.roles.filter((r) => signs(r) && !signing.has(r.id));
  if (missing.length === 0) return;
  throw new AppError(
    'signature_field_missing',
    `Every signer role needs a signature field before the template can be sent; ${missing.map((r) => r.name).join(', ')} ${missing.length === 1 ? 'has' : 'have'} none.`,
  );
}

/**
 * Every row checked, a chunk per turn of the event loop; a header problem, a file that cannot
 * be read or a wrong number of JSON rows throws 422.
 */
async function checkRows(template: BulkTemplate, source: BulkSource): Promise<CheckedRow[]> {
  const checked: CheckedRow[] = [];
  if ('csv' in source) {
    const csv = await parseBulkCsv(source.csv);
    // The header is checked before the rows, and a file of a header alone refused.
    if (csv.rows.length === 0) return checkCsvRows(template, csv);
    for (let start = 0; start < csv.rows.length; start += CHECK_CHUNK) {
      const rows = csv.rows.slice(start, start + CHECK_CHUNK);
      for (const r of checkCsvRows(template, { header: csv.header, rows })) {
        checked.push({ ...r, row: r.row + start });
      }
      await nextTurn();
    }
    return checked;
  }
  if (source.rows.length === 0 || source.rows.length > MAX_BULK_ROWS) {
    return checkJsonRows(template, source.rows);
  }
  for (let start = 0; start < source.rows.length; start += CHECK_CHUNK) {
    for (const r of checkJsonRows(template, source.rows.slice(start, start + CHECK_CHUNK))) {
      checked.push({ ...r, row: r.row + start });
    }
    await nextTurn();
  }
  return checked;
}

function insufficientCredits(needed: number, roles: number) {
  return new AppError(
    'insufficient_credits',
    `This bulk send needs ${needed} credit(s), one per signer role (${roles}) of every valid row; the tenant has fewer.`,
  );
}

/**
 * POST /api/templates/{id}/bulk-sends: checks the whole file, then in one transaction stores
 * the bulk send and its rows (bad rows `failed`, never charged), reserves a credit per role of
 * every valid row and enqueues the first run. Refusals (422, 402) create nothing.
 */
export async function createBulkSend(
  deps: BulkSendDeps,
  input: {
    templateId: string;
    userId: string;
    senderName: string;
    origin: RequestOrigin;
    source: BulkSource;
  },
) {
  const template = await readableTemplate(deps.db, input);
  await requireMembership(deps.db.kysely, {
    tenantId: template.tenant_id,
    userId: input.userId,
    action: 'document.send',
  });
  const bulkTemplate = { roles: rolesOf(template), fields: decodeFields(template.fields) };
  requireSignatureFields(bulkTemplate);
  const checked = await checkRows(bulkTemplate, input.source);
  const valid = checked.filter((r) => r.error === null).length;
  if (valid === 0) {
    throw validationError(
      checked
        .slice(0, MAX_REPORTED_ERRORS)
        .map((r) => ({ path: `rows.${r.row}`, message: r.error ?? '' })),
      `No row can be sent: all ${checked.length} have errors (the first ${Math.min(checked.length, MAX_REPORTED_ERRORS)} are listed by row number).`,
    );
  }
  // Approvers and cc recipients cost nothing, as in send-for-signing.
  const roles = creditsFor(bulkTemplate.roles);
  const needed = valid * roles;
  // Read first, so a file too large for the balance is refused before anything is written;
  // the reservation below is what holds.
  const tenant = await findTenant(deps.db.kysely, template.tenant_id);
  if (!tenant || tenant.credit_balance < needed) throw insufficientCredits(needed, roles);

  const now = nowIso();
  const bulk: repo.BulkSendRow = {
    id: newId(),
    tenant_id: template.tenant_id,
    template_id: template.id,
    user_id: input.userId,
    sender_name: input.senderName,
    origin: JSON.stringify(input.origin),
    template_snapshot: JSON.stringify(templateSnapshot(template)),
    status: 'queued',
    total: checked.length,
    created: 0,
    failed: checked.length - valid,
    credits_reserved: needed,
    waiting_until: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
  const rows = checked.map((r) => ({
    bulk_send_id: bulk.id,
    row_number: r.row,
    status: r.error === null ? ('pending' as const) : ('failed' as const),
    input: r.input ? JSON.stringify(r.input) : null,
    error: r.error,
    document_id: null,
    updated_at: now,
  }));
  await deps.db.kysely.transaction().execute(async (trx) => {
    // Held until the commit (PostgreSQL): a delete of the template waits, then sees this bulk
    // send and keeps the file its documents will share; a delete that came first is a 404.
    const current = await findTemplate(trx, template.id, { engine: deps.db.engine, mode: 'share' });
    if (!current) throw new AppError('not_found', 'No such template.');
    await repo.insertBulkSend(trx, bulk);
    await repo.insertBulkRows(trx, rows, () => nextTurn());
    await enqueueJob(trx, {
      kind: BULK_SEND_JOB,
      payload: { bulkSendId: bulk.id },
      maxAttempts: BULK_SEND_JOB_ATTEMPTS,
    });
    // The balance last: its row is held (PostgreSQL) only from here to the commit.
    const balance = await changeCredits(trx, {
      tenantId: bulk.tenant_id,
      delta: -needed,
      reason: 'bulk-send',
      reference: bulk.id,
    });
    if (balance === null) throw insufficientCredits(needed, roles);
  });
  deps.wakeJobs();
  return bulk;
}

/** A bulk send the caller may read (404 for anyone else, as for none). */
async function readableBulkSend(db: Db, input: { bulkSendId: string; userId: string }) {
  const bulk = await repo.findBulkSend(db.kysely, input.bulkSendId);
  if (!bulk) throw new AppError('not_found', 'No such bulk send.');
  await requireMembership(db.kysely, {
    tenantId: bulk.tenant_id,
    userId: input.userId,
    action: 'template.read',
    notFound: 'No such bulk send.',
  });
  return bulk;
}

/** GET /api/bulk-sends/{id}: a bulk send's progress. */
export function getBulkSend(deps: BulkSendDeps, input: { bulkSendId: string; userId: string }) {
  return readableBulkSend(deps.db, input);
}

/** A page of a bulk send's rows in row order, optionally of one status; keyset on the row number. */
export async function listBulkSendRows(
  deps: BulkSendDeps,
  input: {
    bulkSendId: string;
    userId: string;
    status?: repo.BulkRowRecord['status'];
    limit: number;
    cursor?: string;
  },
) {
  await readableBulkSend(deps.db, input);
  let after: number | undefined;
  if (input.cursor !== undefined) {
    if (!/^\d{1,9}$/.test(input.cursor)) {
      throw validationError(
        [{ path: 'querystring.cursor', message: 'is not a cursor returned by this API' }],
        'Invalid cursor.',
      );
    }
    after = Number(input.cursor);
  }
  const rows = await repo.listRows(deps.db.kysely, { ...input, after, limit: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  return {
    rows: page.map((r) => ({
      row: r.row_number,
      status: r.status,
      error: r.error,
      documentId: r.document_id,
    })),
    nextCursor: rows.length > input.limit ? String(page.at(-1)!.row_number) : null,
  };
}

/** GET /api/templates/{id}/bulk-sends: a template's bulk sends, newest first. */
export async function listBulkSends(
  deps: BulkSendDeps,
  input: { templateId: string; userId: string; limit: number; cursor?: string },
) {
  const template = await readableTemplate(deps.db, input);
  const rows = await repo.listBulkSends(deps.db.kysely, {
    tenantId: template.tenant_id,
    templateId: template.id,
    after: input.cursor ? decodeCursor(input.cursor) : undefined,
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    bulkSends: page,
    nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null,
  };
}
