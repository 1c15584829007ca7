import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCsv, csvCell } from '../../web/src/dashboard/audit-csv.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingTokenFromMailbox, TINY_PNG } from '../helpers/signing.js';

const FORMULA = "=cmd|' /C calc'!A0";

// The cells of CSV text, quotes undone (RFC 4180).
function parseCsv(text: string): string[][] {
  const rows: string[][] = [[]];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      rows[rows.length - 1].push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      rows[rows.length - 1].push(cell);
      cell = '';
      rows.push([]);
      i++;
    } else {
      cell += c;
    }
  }
  rows[rows.length - 1].push(cell);
  return rows;
}

describe.each(ENGINES)("the audit trail's CSV export on %s", (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
  });
  afterAll(() => ctx.close());

  it("writes a signee's formula-shaped User-Agent as text, not as a formula", async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const signee = { email: `csv.${engine}@example.com`, name: 'Cell Signee' };
    const made = await quickCreate(ctx, owner.apiKey, { tenantId, signees: [signee] });
    const documentId = made.body.document.id as string;
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${documentId}/send-for-signing`))
        .status,
    ).toBe(200);
    const token = await signingTokenFromMailbox(ctx, signee.email);
    const headers = { 'user-agent': FORMULA };
    expect((await ctx.app.inject({ url: `/api/signing/${token}`, headers })).statusCode).toBe(200);
    const signed = await ctx.app.inject({
      method: 'POST',
      url: `/api/signing/${token}/sign`,
      headers: { ...headers, 'user-agent': '@SUM(1+1)*cmd|" /C calc"!A0' },
      payload: { consent: true, signature: { type: 'drawn', image: TINY_PNG } },
    });
    expect(signed.statusCode, signed.body).toBe(200);

    const trail = await api(ctx, owner.apiKey, 'GET', `/api/documents/${documentId}/audit-trail`);
    expect(trail.status).toBe(200);
    const rows = parseCsv(auditCsv(trail.body.auditTrail));
    const userAgents = rows.slice(1).map((r) => r[5]);
    expect(userAgents).toContain(`'${FORMULA}`);
    expect(userAgents).toContain(`'@SUM(1+1)*cmd|" /C calc"!A0`);
    for (const row of rows) {
      for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });
});

describe('csvCell', () => {
  it('prefixes every formula start with a quote and leaves other text alone', () => {
    expect(['=1', '+1', '-1', '@A1', '\t=1', '\r=1'].map(csvCell)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@A1",
      "'\t=1",
      `"'\r=1"`,
    ]);
    expect(csvCell('Mozilla/5.0 (X11; Linux)')).toBe('Mozilla/5.0 (X11; Linux)');
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell(null)).toBe('');
  });
});
