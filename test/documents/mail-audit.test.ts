import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvidence } from '../../server/src/modules/sealing/evidence.js';
import { auditCsv } from '../../web/src/dashboard/audit-csv.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { downloadFile, signingCall, waitForStatus } from '../helpers/signing.js';
import { useMailingContext } from '../helpers/smtp.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { waitUntil } from '../faults/support.js';

type Entry = {
  action: string;
  signeeId: string | null;
  actor: string;
  details: { to?: string; kind?: string; error?: string } | null;
};

// Every e-mail to a signee is one audit entry naming its recipient and kind (docs/documents.md,
// "E-mails in the audit trail"), whoever delivers it: the request, or the outbox job.
describe.each(ENGINES)('e-mails in the audit trail on %s', (engine) => {
  const m = useMailingContext(engine, {
    listen: true,
    env: (url) => ({ SMTP_URL: url, MAIL_RETRY_BASE_MS: '100' }),
  });
  let apiKey: string;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    apiKey = (await createUser(m.ctx, { name: 'Sam Sender' })).apiKey;
    tenantId = (await createTenant(m.ctx, apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-mail-audit-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  // Short, distinct addresses: the certificate's line must hold them whole.
  const address = (label: string) => `${label}.${Math.random().toString(36).slice(2, 7)}@ex.io`;
  const toOf = (mail: { to?: unknown }) => (mail.to as { text: string } | undefined)?.text;
  const trail = async (id: string) =>
    (await api(m.ctx, apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail as Entry[];
  // "e-mailed invitation a@ex.io" for each e-mail entry, in trail order, except that e-mails
  // of one kind are sorted at the place of the first: their order is the transport's.
  const mails = (entries: Entry[]) => {
    const mail = entries.filter((e) => e.action === 'e-mailed' || e.action === 'e-mail failed');
    const kinds = mail.map((e) => e.details?.kind);
    return mail
      .map((e) => ({
        line: `${e.action} ${e.details?.kind} ${e.details?.to}`,
        group: kinds.indexOf(e.details?.kind),
      }))
      .sort((x, y) => x.group - y.group || (x.line < y.line ? -1 : 1))
      .map((x) => x.line);
  };
  const tokenMailedTo = async (to: string) => {
    const mail = await m.smtp.waitFor((x) => toOf(x) === to && /\/sign\/sg_/.test(x.text ?? ''));
    return /\/sign\/(sg_[A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1];
  };
  const sign = async (token: string, name: string) => {
    const res = await signingCall(m.ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: name },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const pdfText = (bytes: Buffer, name: string) => {
    const file = path.join(scratch, `${name}.pdf`);
    writeFileSync(file, bytes);
    return spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout;
  };
  // Every outbox row of the document is settled (sent or refused), so the trail is complete.
  const settled = (documentId: string, rows: number) =>
    waitUntil(async () => {
      const outbox = await m.ctx.db.kysely
        .selectFrom('emails')
        .select('status')
        .where('document_id', '=', documentId)
        .execute();
      return outbox.length === rows && outbox.every((r) => ['sent', 'refused'].includes(r.status));
    }, `${rows} e-mails of ${documentId} to settle`);

  it('records the invitation of each wave, the copies, in the trail, the CSV and the certificates', async () => {
    const [a, b] = [address('ann'), address('ben')];
    const created = await quickCreate(m.ctx, apiKey, {
      tenantId,
      signees: [
        { email: a, name: 'Ann First', signingOrder: 1 },
        { email: b, name: 'Ben Second', signingOrder: 2 },
      ],
      extra: { name: 'Two waves', signingOrderEnabled: 'true' },
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    const [ann, ben] = created.body.signees as Array<{ id: string; email: string }>;
    expect(ann.email).toBe(a);
    const sent = await api(m.ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(sent.status).toBe(200);

    await sign(await tokenMailedTo(a), 'Ann First');
    // The second wave is invited by the outbox job, not by a request.
    await sign(await tokenMailedTo(b), 'Ben Second');
    const done = await waitForStatus(m.ctx, apiKey, id, 'signed', 60_000);
    await settled(id, 4);

    const entries = await trail(id);
    expect(mails(entries)).toEqual([
      `e-mailed invitation ${a}`,
      `e-mailed invitation ${b}`,
      `e-mailed copy ${a}`,
      `e-mailed copy ${b}`,
    ]);
    for (const e of entries.filter((x) => x.action === 'e-mailed')) {
      expect(e.signeeId).toBe(e.details?.to === a ? ann.id : ben.id);
      expect(e.actor).toBe('system');
    }
    // The second invitation comes after the first signature, as it happened.
    const actions = entries.map((e) => `${e.action} ${e.details?.to ?? ''}`.trim());
    expect(actions.indexOf(`e-mailed ${b}`)).toBeGreaterThan(actions.indexOf('signed'));

    // The dashboard's CSV export: recipient and kind are its last two columns.
    const csv = auditCsv(entries as never).split('\r\n');
    expect(csv[0]).toMatch(/,recipient,emailKind$/);
    expect(csv.filter((l) => l.endsWith(`,${a},invitation`))).toHaveLength(1);
    expect(csv.filter((l) => l.endsWith(`,${b},invitation`))).toHaveLength(1);
    expect(csv.filter((l) => l.endsWith(`,${b},copy`))).toHaveLength(1);

    // The sealed PDF's certificate (made before the copies went out) names both invitations.
    const sealed = await downloadFile(m.ctx, done.document.downloadUrl);
    const text = pdfText(sealed, `sealed-${engine}`);
    expect(text).toContain(`To: ${a} (invitation)`);
    expect(text).toContain(`To: ${b} (invitation)`);
    const evidence = readEvidence(sealed)!;
    const emailed = evidence.auditTrail.entries.filter((e) => e.action === 'e-mailed');
    expect(emailed.map((e) => [e.recipient, e.emailKind])).toEqual([
      [a, 'invitation'],
      [b, 'invitation'],
    ]);
    expect(evidence.signees.map((s) => s.invitation.emailedAt.length)).toEqual([1, 1]);
    expect(evidence.signees.map((s) => s.invitation.channel)).toEqual(['email', 'email']);

    // The certificate made now also names the signed copies.
    const cert = await fetch(`${m.ctx.baseUrl}/api/documents/${id}/certificate`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(cert.status).toBe(200);
    const certText = pdfText(Buffer.from(await cert.arrayBuffer()), `certificate-${engine}`);
    expect(certText).toContain(`To: ${a} (signed copy)`);
    expect(certText).toContain(`To: ${b} (signed copy)`);
  });

  it('records a manual reminder, and the decline notice to the other signee', async () => {
    const [a, b] = [address('rae'), address('sol')];
    const created = await quickCreate(m.ctx, apiKey, {
      tenantId,
      signees: [
        { email: a, name: 'Rae' },
        { email: b, name: 'Sol' },
      ],
    });
    const id = created.body.document.id as string;
    const [rae, sol] = created.body.signees as Array<{ id: string }>;
    await api(m.ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const reminded = await api(m.ctx, apiKey, 'POST', `/api/documents/${id}/remind`);
    expect(reminded.status).toBe(200);
    let entries = await trail(id);
    expect(mails(entries)).toEqual([
      `e-mailed invitation ${a}`,
      `e-mailed invitation ${b}`,
      `e-mailed reminder ${a}`,
      `e-mailed reminder ${b}`,
    ]);
    const reminder = entries.find((e) => e.details?.kind === 'reminder' && e.details.to === a)!;
    expect(reminder.signeeId).toBe(rae.id);
    // Who asked for it stays its own entry.
    expect(entries.filter((e) => e.action === 'reminded')).toHaveLength(2);

    const declined = await signingCall(m.ctx, await tokenMailedTo(b), 'decline', {
      reason: 'Wrong address',
    });
    expect(declined.status).toBe(200);
    await settled(id, 5);
    entries = await trail(id);
    const notice = entries.filter((e) => e.details?.kind === 'declined');
    expect(notice.map((e) => [e.action, e.signeeId, e.details?.to])).toEqual([
      ['e-mailed', rae.id, a],
    ]);
    // The decliner gets no notice: their own link is what they just used.
    expect(entries.filter((e) => e.signeeId === sol.id && e.details?.kind === 'declined')).toEqual(
      [],
    );
  });

  it('records a permanent 550 as e-mail failed once, and never retries it', async () => {
    const [bad, good] = [address('refused'), address('taken')];
    m.smtp.rejectRecipients(/^refused\./);
    try {
      const created = await quickCreate(m.ctx, apiKey, {
        tenantId,
        signees: [
          { email: bad, name: 'Refused' },
          { email: good, name: 'Taken' },
        ],
      });
      const id = created.body.document.id as string;
      const signees = created.body.signees as Array<{ id: string }>;
      const sent = await api(m.ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
      expect(sent.body.deliveries[0]).toMatchObject({ email: bad, status: 'failed' });
      expect(sent.body.deliveries[0].error).toMatch(/550/);
      const failed = (await trail(id)).filter((e) => e.action === 'e-mail failed');
      expect(failed).toHaveLength(1);
      expect(failed[0].signeeId).toBe(signees[0].id);
      expect(failed[0].details).toMatchObject({ to: bad, kind: 'invitation' });
      expect(failed[0].details?.error).toMatch(/550/);

      // Refused for good: no job is left, and well past the retry delay nothing was re-sent.
      const row = await m.ctx.db.kysely
        .selectFrom('emails')
        .select(['id', 'status'])
        .where('to_address', '=', bad)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('refused');
      const job = await m.ctx.db.kysely
        .selectFrom('jobs')
        .select('id')
        .where('id', '=', row.id)
        .executeTakeFirst();
      expect(job).toBeUndefined();
      await new Promise((r) => setTimeout(r, 500));
      expect(mails(await trail(id))).toEqual([
        `e-mail failed invitation ${bad}`,
        `e-mailed invitation ${good}`,
      ]);

      // A refusal met by the outbox job (the cancel notice) is recorded the same way.
      m.smtp.rejectRecipients(/^(refused|taken)\./);
      const cancelled = await api(m.ctx, apiKey, 'POST', `/api/documents/${id}/cancel`, {
        reason: 'Done elsewhere',
      });
      expect(cancelled.status).toBe(200);
      await settled(id, 4);
      const notices = (await trail(id)).filter((e) => e.details?.kind === 'cancelled');
      expect(notices.map((e) => `${e.action} ${e.details?.to}`).sort()).toEqual([
        `e-mail failed ${bad}`,
        `e-mail failed ${good}`,
      ]);
    } finally {
      m.smtp.rejectRecipients(null);
    }
  });

  it("records a bulk send row's invitations", async () => {
    const template = await createTemplate(m.ctx, apiKey, {
      tenantId,
      template: { name: 'Bulk lease', roles: [{ name: 'Client' }, { name: 'Landlord' }] },
      fields: signatureFields(2),
    });
    expect(template.status).toBe(201);
    const [c, l] = [address('cli'), address('lan')];
    const bulk = await api(
      m.ctx,
      apiKey,
      'POST',
      `/api/templates/${template.body.template.id}/bulk-sends`,
      {
        rows: [
          {
            signees: [
              { role: 0, email: c, name: 'Cli' },
              { role: 1, email: l, name: 'Lan' },
            ],
          },
        ],
      },
    );
    expect(bulk.status).toBe(202);
    let documentId: string | null = null;
    await waitUntil(async () => {
      const rows = await api(m.ctx, apiKey, 'GET', `/api/bulk-sends/${bulk.body.bulkSend.id}/rows`);
      documentId = rows.body.rows[0]?.documentId ?? null;
      return documentId !== null;
    }, 'the bulk row to make its document');
    await settled(documentId!, 2);
    const entries = await trail(documentId!);
    expect(mails(entries).sort()).toEqual([`e-mailed invitation ${c}`, `e-mailed invitation ${l}`]);
    expect(entries.filter((e) => e.action === 'e-mailed').every((e) => e.signeeId)).toBe(true);
  });
});
