import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvidence } from '../../server/src/modules/sealing/evidence.js';
import { auditCsv } from '../../web/src/dashboard/audit-csv.js';
import { waitUntil } from '../faults/support.js';
import { ENGINES } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { downloadFile, signingCall, waitForStatus } from '../helpers/signing.js';
import { box, useRolesContext, type Signee } from './recipient-roles-support.js';

// Recipient roles (decisions §12, docs/documents.md "Recipient roles"): signers sign, approvers
// approve or reject in their turn, cc recipients get no link and only the outcome's e-mails.
// Fields and templates: recipient-roles-drafts.test.ts.
describe.each(ENGINES)('recipient roles on %s', (engine) => {
  const r = useRolesContext(engine);
  const { m, f, toOf, call, mailTo, addr, credits, trail, create } = r;
  const { tokenMailedTo, sign, approve, emailed } = r;

  it('quick-create takes each role, answers it, and refuses cc recipients alone', async () => {
    const [s, a, c] = [addr('sig'), addr('app'), addr('cc')];
    const made = await create([
      { email: s, name: 'Sig Ner' },
      { email: a, name: 'Ann Approver', role: 'approver' },
      { email: c, name: 'Cid Copy', role: 'cc' },
    ]);
    expect(made.signees.map((x) => x.role)).toEqual(['signer', 'approver', 'cc']);
    expect(Object.keys(made.signees[0]).sort()).toEqual(
      [
        'id', 'documentId', 'email', 'name', 'status', 'role', 'userId', 'signingOrder',
        'signingGroupId', 'signedAt', 'invitedAt', 'openedAt', 'declinedAt', 'declineReason',
        'language', 'auth', 'createdAt', 'updatedAt',
      ].sort(), // prettier-ignore
    );
    const read = await call('GET', `/api/documents/${made.id}`);
    expect(read.body.signees.map((x: Signee) => x.role)).toEqual(['signer', 'approver', 'cc']);

    const bad = await quickCreate(m.ctx, f.apiKey, {
      tenantId: f.tenantId,
      signees: [{ email: s, name: 'Sig', role: 'witness' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['signees.0.role']);
    const ccOnly = await quickCreate(m.ctx, f.apiKey, {
      tenantId: f.tenantId,
      signees: [{ email: c, name: 'Cid', role: 'cc' }],
    });
    expect(ccOnly.status).toBe(422);
    expect(ccOnly.body.errors).toEqual([
      { path: 'signees', message: 'at least one signee must be a signer or an approver' },
    ]);
  });

  it('sends with credits for signers only, a signature field for signers only, no cc invitation', async () => {
    const [s, a, c] = [addr('sig'), addr('app'), addr('cc')];
    const made = await create(
      [
        { email: s, name: 'Sig Ner' },
        { email: a, name: 'Ann Approver', role: 'approver' },
        { email: c, name: 'Cid Copy', role: 'cc' },
      ],
      { fields: JSON.stringify([{ signee: 0, type: 'signature', ...box }]) },
    );
    const before = await credits();
    const sent = await call('POST', `/api/documents/${made.id}/send-for-signing`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(await credits()).toBe(before - 1);
    expect(sent.body.deliveries.map((d: { email: string; status: string }) => d)).toMatchObject([
      { email: s, status: 'sent' },
      { email: a, status: 'sent' },
    ]);
    const { mail } = await tokenMailedTo(a);
    expect(mail.subject).toContain('Approval requested');
    expect(mail.text).toContain('Review and approve');
    const entries = await trail(made.id);
    expect(entries.find((e) => e.action === 'sent')?.details).toEqual({
      signees: 3,
      creditsUsed: 1,
    });
    await waitUntil(async () => emailed(await trail(made.id), a, 'invitation'), 'invitations');
    const cc = (await call('GET', `/api/documents/${made.id}`)).body.signees[2] as Signee;
    expect(cc).toMatchObject({ role: 'cc', status: 'pending', invitedAt: null });
    expect(m.smtp.messages.filter((x) => toOf(x) === c)).toEqual([]);

    // Approvers cost nothing either: a document of an approver and a cc takes no credit.
    const free = await create([
      { email: addr('app'), name: 'Only Approver', role: 'approver' },
      { email: addr('cc'), name: 'Only Copy', role: 'cc' },
    ]);
    const atFree = await credits();
    expect((await call('POST', `/api/documents/${free.id}/send-for-signing`)).status).toBe(200);
    expect(await credits()).toBe(atFree);
  });

  it('an approver between two signers takes their turn, and the last signature completes it', async () => {
    const [s1, a, s2, c] = [addr('one'), addr('app'), addr('two'), addr('cc')];
    const made = await create(
      [
        { email: s1, name: 'First Signer', signingOrder: 1 },
        { email: a, name: 'Ann Approver', signingOrder: 2, role: 'approver' },
        { email: s2, name: 'Second Signer', signingOrder: 3 },
        { email: c, name: 'Cid Copy', role: 'cc' },
      ],
      { name: 'Ordered roles', signingOrderEnabled: 'true' },
    );
    const [, approver, , copy] = made.signees;
    const sent = await call('POST', `/api/documents/${made.id}/send-for-signing`);
    expect(sent.body.deliveries.map((d: { status: string }) => d.status)).toEqual([
      'sent',
      'scheduled',
      'scheduled',
    ]);
    await sign((await tokenMailedTo(s1)).token);

    const { token: approverToken } = await tokenMailedTo(a);
    const view = await signingCall(m.ctx, approverToken, '');
    expect(view.body.signee).toMatchObject({ role: 'approver', status: 'pending' });
    expect(view.body.canSign).toBe(true);
    const asSigner = await signingCall(m.ctx, approverToken, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Ann' },
    });
    expect(asSigner.status).toBe(409);
    expect(asSigner.body.code).toBe('invalid_status');
    const approved = await approve(approverToken, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.signee).toMatchObject({ role: 'approver', status: 'signed' });
    expect((await approve(approverToken)).status).toBe(409);

    const { token: lastToken } = await tokenMailedTo(s2);
    expect((await approve(lastToken)).body.code).toBe('invalid_status');
    await sign(lastToken);
    const done = await waitForStatus(m.ctx, f.apiKey, made.id, 'signed', 60_000);
    const after = done.signees as Array<Signee & { signedAt: string | null }>;
    expect(after.map((x) => x.status)).toEqual(['signed', 'signed', 'signed', 'pending']);
    expect(after[1].signedAt).not.toBeNull();
    expect(after[3]).toMatchObject({ role: 'cc', invitedAt: null, signedAt: null });

    // The cc recipient gets the signed copy, audited as theirs.
    const copyMail = await mailTo(c, /Signed by everyone/);
    expect(copyMail.attachments).toHaveLength(1);
    await waitUntil(async () => emailed(await trail(made.id), c, 'copy'), 'the copy to the cc');
    const entries = await trail(made.id);
    const approval = entries.find((e) => e.action === 'approved');
    expect(approval).toMatchObject({ actor: `signee:${approver.id}`, signeeId: approver.id });
    expect(entries.filter((e) => e.signeeId === copy.id).map((e) => e.action)).toEqual([
      'e-mailed',
    ]);
    expect(auditCsv(entries as never)).toMatch(/\r\n[^,]+,approved,signee:/);
    const events = await m.ctx.db.kysely
      .selectFrom('events')
      .select(['type', 'old_status', 'new_status'])
      .where('signee_id', '=', approver.id)
      .execute();
    expect(events).toEqual([
      { type: 'signee.status_changed', old_status: 'pending', new_status: 'signed' },
    ]);

    // The seal: the approval in the evidence and on the audit certificate, no signature drawn.
    const sealed = await downloadFile(m.ctx, done.document.downloadUrl);
    const evidence = readEvidence(sealed)!;
    expect(evidence.signees.map((x) => [x.role, x.status])).toEqual([
      ['signer', 'signed'],
      ['approver', 'signed'],
      ['signer', 'signed'],
      ['cc', 'pending'],
    ]);
    expect(evidence.signees[1]).toMatchObject({ consent: null, method: null, typedName: null });
    expect(evidence.auditTrail.entries.map((e) => e.action)).toContain('approved');
    writeFileSync(path.join(f.scratch, 'sealed.pdf'), sealed);
    const text = spawnSync('pdftotext', [path.join(f.scratch, 'sealed.pdf'), '-'], {
      encoding: 'utf8',
    }).stdout;
    expect(text).toMatch(/approved/);
    expect(text).toContain('Ann Approver');
  });

  it("an approver's reject declines it; cc recipients get the decline and cancel notices", async () => {
    const [s, a, c] = [addr('sig'), addr('app'), addr('cc')];
    const made = await create([
      { email: s, name: 'Sig Ner' },
      { email: a, name: 'Ann Approver', role: 'approver' },
      { email: c, name: 'Cid Copy', role: 'cc' },
    ]);
    await call('POST', `/api/documents/${made.id}/send-for-signing`);
    const rejected = await signingCall(m.ctx, (await tokenMailedTo(a)).token, 'decline', {
      reason: 'The numbers are wrong',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.signee).toMatchObject({ role: 'approver', status: 'declined' });
    const read = await call('GET', `/api/documents/${made.id}`);
    expect(read.body.document.status).toBe('declined');
    const notice = await mailTo(c, /will not be signed/);
    expect(notice.text).toContain('You were sent a copy of this notice');
    await waitUntil(async () => emailed(await trail(made.id), c, 'declined'), 'the cc notice');

    const other = await create([
      { email: addr('sig'), name: 'Sig Ner' },
      { email: c, name: 'Cid Copy', role: 'cc' },
    ]);
    await call('POST', `/api/documents/${other.id}/send-for-signing`);
    const cancelled = await call('POST', `/api/documents/${other.id}/cancel`, { reason: 'Wrong' });
    expect(cancelled.status).toBe(200);
    expect((await mailTo(c, /was cancelled/)).text).toContain('Wrong');
    await waitUntil(async () => emailed(await trail(other.id), c, 'cancelled'), 'cancel notice');
  });
});
