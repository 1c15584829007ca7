import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfBombs } from '../bad-input/hostile-pdfs.js';
import { storedFiles } from '../faults/support.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { pngBomb } from '../tenants/logo-files.js';
import { downloadFile, signingCall, waitForStatus } from '../helpers/signing.js';
import {
  documentWithAttachmentFields,
  jpegOf,
  nextAddress,
  pngOf,
  uploadAttachment,
} from './attachments-support.js';

const MIB = 1024 * 1024;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe.each(ENGINES)('attachment fields on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      env: { TRUST_PROXY: 'loopback' },
    });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-attach-'));
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const sign = (token: string, body: Record<string, unknown>) =>
    signingCall(
      ctx,
      token,
      'sign',
      { consent: true, signature: { type: 'typed', text: 'Signee' }, ...body },
      nextAddress(),
    );

  it('takes a PDF, a PNG and a JPEG, refuses what does not belong and seals the files in', async () => {
    const doc = await documentWithAttachmentFields(ctx, apiKey, tenantId);
    const pdf = makePdf({ pages: 1, title: 'Passport scan' });
    const okPdf = await uploadAttachment(ctx, doc.tokens[0], pdf, 'passport.pdf');
    expect(okPdf.status, JSON.stringify(okPdf.body)).toBe(201);
    expect(okPdf.body.attachmentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(okPdf.body.attachment).toMatchObject({
      filename: 'passport.pdf',
      contentType: 'application/pdf',
      sha256: sha256(pdf),
    });
    // A JPEG named .png is a JPEG: the bytes decide; it is kept re-encoded.
    const jpeg = await uploadAttachment(ctx, doc.tokens[0], await jpegOf(64, 48), 'proof.png');
    expect(jpeg.status).toBe(201);
    expect(jpeg.body.attachment.contentType).toBe('image/jpeg');
    const png = await uploadAttachment(
      ctx,
      doc.tokens[1],
      await pngOf(40, 30),
      'ben.png',
      doc.ben.attachments[0],
    );
    expect(png.status).toBe(201);

    // Another signee's upload, an unknown id, an upload made for another field: 422 at the value.
    const [idField, otherField] = doc.ada.attachments;
    const others = await sign(doc.tokens[0], {
      fields: [{ id: idField, value: png.body.attachmentId }],
    });
    expect(others.status).toBe(422);
    expect(others.body.errors).toEqual([
      { path: 'fields[0].value', message: 'is not an attachment you uploaded' },
    ]);
    const unknown = await sign(doc.tokens[1], {
      fields: [{ id: doc.ben.attachments[0], value: '00000000-0000-4000-8000-000000000000' }],
    });
    expect(unknown.body.errors).toEqual([
      { path: 'fields[0].value', message: 'is not an attachment you uploaded' },
    ]);
    const wrongField = await sign(doc.tokens[1], {
      fields: [{ id: doc.ben.attachments[0], value: okPdf.body.attachmentId }],
    });
    expect(wrongField.status).toBe(422);
    expect(wrongField.body.errors).toEqual([
      { path: 'fields[0].value', message: 'is not an attachment you uploaded' },
    ]);
    const forOther = await uploadAttachment(
      ctx,
      doc.tokens[0],
      await pngOf(10, 10),
      'x.png',
      otherField,
    );
    const misplaced = await sign(doc.tokens[0], {
      fields: [{ id: idField, value: forOther.body.attachmentId }],
    });
    expect(misplaced.body.errors).toEqual([
      { path: 'fields[0].value', message: 'was uploaded for another field' },
    ]);
    const twice = await sign(doc.tokens[0], {
      fields: [
        { id: idField, value: okPdf.body.attachmentId },
        { id: otherField, value: okPdf.body.attachmentId },
      ],
    });
    expect(twice.body.errors).toEqual([
      { path: 'fields[1].value', message: 'is already the value of another field' },
    ]);
    // The required attachment left empty.
    const empty = await sign(doc.tokens[0], { fields: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].message).toMatch(/"Copy of ID" \(attachment, page 1\) is required/);

    expect(
      (
        await sign(doc.tokens[0], {
          fields: [
            { id: idField, value: okPdf.body.attachmentId },
            { id: otherField, value: jpeg.body.attachmentId },
          ],
        })
      ).status,
    ).toBe(200);
    const uploaded = `data:image/png;base64,${(await pngOf(300, 100)).toString('base64')}`;
    const benSigned = await signingCall(
      ctx,
      doc.tokens[1],
      'sign',
      {
        consent: true,
        signature: { type: 'uploaded', image: uploaded },
        fields: [{ id: doc.ben.attachments[0], value: png.body.attachmentId }],
      },
      nextAddress(),
    );
    expect(benSigned.status, JSON.stringify(benSigned.body)).toBe(200);

    const done = await waitForStatus(ctx, apiKey, doc.id, 'signed', 30_000);
    const sealed = await downloadFile(ctx, done.document.downloadUrl);
    const file = path.join(scratch, `${doc.id}.pdf`);
    writeFileSync(file, sealed);
    // pdfdetach lists the three files and gives back their exact bytes.
    const list = spawnSync('pdfdetach', ['-list', file], { encoding: 'utf8' }).stdout;
    expect(list).toContain('attachment-1-passport.pdf');
    expect(list).toContain('attachment-2-proof.png');
    expect(list).toContain('attachment-3-ben.png');
    const out = path.join(scratch, doc.id);
    spawnSync('mkdir', ['-p', out]);
    spawnSync('pdfdetach', ['-saveall', '-o', out, file]);
    expect(readFileSync(path.join(out, 'attachment-1-passport.pdf')).equals(pdf)).toBe(true);
    const listed = await api(ctx, apiKey, 'GET', `/api/documents/${doc.id}/attachments`);
    expect(listed.status).toBe(200);
    const byName = new Map(
      (listed.body.attachments as Array<{ filename: string; sha256: string; id: string }>).map(
        (a) => [a.filename, a],
      ),
    );
    for (const name of ['proof.png', 'ben.png']) {
      const saved = readFileSync(
        path.join(out, `attachment-${name === 'ben.png' ? 3 : 2}-${name}`),
      );
      expect(sha256(saved)).toBe(byName.get(name)!.sha256);
    }
    expect(readdirSync(out).sort()).toEqual([
      'attachment-1-passport.pdf',
      'attachment-2-proof.png',
      'attachment-3-ben.png',
      'evidence.json',
    ]);
    const evidence = JSON.parse(readFileSync(path.join(out, 'evidence.json'), 'utf8'));
    expect(evidence.attachments[0]).toEqual({
      filename: 'passport.pdf',
      embeddedAs: 'attachment-1-passport.pdf',
      contentType: 'application/pdf',
      sha256: sha256(pdf),
    });
    expect(evidence.signees[1].method).toBe('uploaded');
    // The certificate lists each file's name and SHA-256; the field shows the name.
    const text = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.replace(
      /\s+/g,
      ' ',
    );
    expect(text).toContain(`passport.pdf, SHA-256 ${sha256(pdf)}`);
    expect(text).toContain(`ben.png, SHA-256 ${byName.get('ben.png')!.sha256}`);
    expect(text).toContain('Uploaded signature');
    expect(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout).toContain(
      'Signature is Valid',
    );
    // Members download an attachment; nobody without a key does.
    const got = await fetch(
      `${ctx.baseUrl}/api/documents/${doc.id}/attachments/${okPdf.body.attachmentId}`,
      { headers: { 'x-api-key': apiKey } },
    );
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(pdf)).toBe(true);
    const anonymous = await fetch(
      `${ctx.baseUrl}/api/documents/${doc.id}/attachments/${okPdf.body.attachmentId}`,
    );
    expect(anonymous.status).toBe(401);
    const stranger = (await createUser(ctx)).apiKey;
    const foreign = await fetch(
      `${ctx.baseUrl}/api/documents/${doc.id}/attachments/${okPdf.body.attachmentId}`,
      { headers: { 'x-api-key': stranger } },
    );
    expect(foreign.status).toBe(404);
    // The sealed file verifies as sealed: the attachments are the seal's own files.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(sealed)]), 'sealed.pdf');
    const verified = await (
      await fetch(`${ctx.baseUrl}/api/verify`, { method: 'POST', body: form })
    ).json();
    expect(verified.status).toBe('sealed');
    expect(verified.activeContent ?? []).not.toContain('embedded_files');

    // Deleting the document removes the stored attachments with it.
    const keys = () => storedFiles(ctx.config.dataDir).filter((f) => f.key.includes(doc.id));
    expect(keys().some((f) => f.key.includes('attachment-'))).toBe(true);
    expect((await api(ctx, apiKey, 'DELETE', `/api/documents/${doc.id}`)).status).toBe(204);
    expect(keys()).toEqual([]);
  }, 60_000);

  it('refuses wrong types, oversized files, the per-document total and bombs', async () => {
    const doc = await documentWithAttachmentFields(ctx, apiKey, tenantId);
    const token = doc.tokens[0];
    const before = storedFiles(ctx.config.dataDir).length;
    const gif = await uploadAttachment(ctx, token, Buffer.from('GIF89a......'), 'a.pdf');
    expect(gif.status).toBe(415);
    expect(gif.body.detail).toMatch(/must be a PDF, PNG or JPEG file/);
    const html = await uploadAttachment(ctx, token, Buffer.from('<html>%PDF-1.7'), 'a.pdf');
    expect(html.status).toBe(415);
    const big = await uploadAttachment(ctx, token, makePdf({ padBytes: 10 * MIB + 10 }), 'b.pdf');
    expect(big.status).toBe(413);
    expect(big.body.detail).toMatch(/at most 10 MiB/);
    const bomb = await uploadAttachment(ctx, token, pngBomb(), 'bomb.png');
    expect(bomb.status).toBe(422);
    expect(bomb.body.errors[0].path).toBe('file');
    expect(bomb.body.errors[0].message).toMatch(/declares more than 50000000 pixels/);
    const missing = await fetch(`${ctx.baseUrl}/api/signing/${token}/attachments`, {
      method: 'POST',
      headers: { 'x-forwarded-for': nextAddress() },
      body: (() => {
        const form = new FormData();
        form.append('fieldId', doc.ada.attachments[0]);
        return form;
      })(),
    });
    expect(missing.status).toBe(422);
    expect(storedFiles(ctx.config.dataDir).length).toBe(before);

    // 9 + 9 MiB fit; a third 9 MiB file would pass 25 MiB for the document.
    for (const i of [1, 2]) {
      const ok = await uploadAttachment(ctx, token, makePdf({ padBytes: 9 * MIB }), `${i}.pdf`);
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    }
    const third = await uploadAttachment(
      ctx,
      doc.tokens[1],
      makePdf({ padBytes: 9 * MIB }),
      'c.pdf',
    );
    expect(third.status).toBe(413);
    expect(third.body.detail).toMatch(/may hold 25 MiB together/);
  }, 60_000);

  it('answers PDF bombs with 201 or 422 while /healthz keeps answering', async () => {
    const doc = await documentWithAttachmentFields(ctx, apiKey, tenantId);
    const latencies: number[] = [];
    let running = true;
    const poll = (async () => {
      while (running) {
        const started = performance.now();
        expect((await fetch(`${ctx.baseUrl}/healthz`)).status).toBe(200);
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    // The probe's own first requests (a new connection) are not the service's latency.
    await new Promise((r) => setTimeout(r, 300));
    latencies.length = 0;
    const statuses: number[] = [];
    for (const [, bomb] of pdfBombs()) {
      const res = await uploadAttachment(ctx, doc.tokens[1], bomb, 'bomb.pdf');
      expect([201, 422]).toContain(res.status);
      if (res.status === 422) expect(res.body.errors[0].path).toBe('file');
      statuses.push(res.status);
    }
    running = false;
    await poll;
    expect(statuses).toContain(422);
    // The hostile-input tests' liveness bound (hostile-csv-support.ts): never a stalled loop.
    expect(Math.max(...latencies)).toBeLessThan(2000);
  }, 90_000);

  it('takes an uploaded signature and refuses bad ones with 422 at the image', async () => {
    const doc = await documentWithAttachmentFields(ctx, apiKey, tenantId);
    const attempt = (image: string) =>
      signingCall(
        ctx,
        doc.tokens[1],
        'sign',
        { consent: true, signature: { type: 'uploaded', image } },
        nextAddress(),
      );
    const bad = await attempt('data:image/gif;base64,R0lGODlh');
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toMatch(/signature\.image$/);
    const notImage = await attempt(
      `data:image/png;base64,${Buffer.from('hello').toString('base64')}`,
    );
    expect(notImage.body.errors).toEqual([
      { path: 'body.signature.image', message: 'must be a PNG or JPEG image' },
    ]);
    const bomb = await attempt(`data:image/png;base64,${pngBomb().toString('base64')}`);
    expect(bomb.status).toBe(422);
    expect(bomb.body.errors[0]).toMatchObject({ path: 'body.signature.image' });
    expect(bomb.body.errors[0].message).toMatch(/at most 4096 x 4096 pixels/);
    const tooBig = await attempt(
      `data:image/jpeg;base64,${Buffer.alloc(MIB + 10, 0xff).toString('base64')}`,
    );
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors[0].path).toMatch(/signature\.image$/);
    const jpeg = `data:image/jpeg;base64,${(await jpegOf(400, 120)).toString('base64')}`;
    const ok = await signingCall(
      ctx,
      doc.tokens[1],
      'sign',
      {
        consent: true,
        signature: { type: 'uploaded', image: jpeg },
        fields: [],
      },
      nextAddress(),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
