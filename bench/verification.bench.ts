// Latency of signer verification (issue 49): `POST /api/signing/{token}/auth` with an access
// code, with an e-mailed code and with an identity token, one request at a time against the real
// service on SQLite, and `GET /api/signing/{token}` of a link that asks for nothing beside it.
// `npx tsx bench/verification.bench.ts [--samples 300]`. Goal: the e-mail code
// and the token answer in < 20 ms p99. An access code is an Argon2id hash (a password's cost,
// about 10 ms of a thread by design): its figure is shown, its goal is the same.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { makePdf } from '../test/helpers/pdf.js';
import {
  createChildren,
  createKeyAndTenant,
  isMain,
  median,
  percentile,
  startService,
} from './support/processes.js';

/** One measured kind of request. */
export type VerificationFigure = { what: string; samples: number; p50Ms: number; p99Ms: number };

/** What the benchmark measured. */
export type VerificationBenchResult = {
  figures: VerificationFigure[];
  goalMs: number;
  /** The e-mailed code and the token within the goal at p99. */
  met: boolean;
};

const GOAL_MS = 20;
// Each link takes 20 verifications at once (its rate limit): samples are spread over links.
const PER_LINK = 20;

type Signee = { id: string; email: string; token: string };

async function ok(res: Response, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Runs the benchmark; `samples` requests of each kind after a few unmeasured ones. */
export async function runVerificationBench(
  options: { samples?: number; log?: (line: string) => void } = {},
): Promise<VerificationBenchResult> {
  const samples = options.samples ?? 300;
  const log = options.log ?? console.log;
  const children = createChildren();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-verification-'));
  let client = 0;
  // Every request from an address of its own: the per-address limits are not measured here.
  const from = () => ({
    'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`,
  });
  try {
    const service = await startService(children, { dataDir, env: { TRUST_PROXY: 'loopback' } });
    const base = service.base;
    const { apiKey, tenantId } = await createKeyAndTenant(base);
    const keys = await generateKeyPair('ES256', { extractable: true });
    await ok(
      await fetch(`${base}/api/tenants/${tenantId}/identity-keys`, {
        method: 'PUT',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'bench' }] }),
      }),
      200,
      'identity keys',
    );
    const mails = async (email: string) =>
      (
        (await ok(
          await fetch(`${base}/dev/mailbox?to=${encodeURIComponent(email)}`, {
            headers: { accept: 'application/json' },
          }),
          200,
          'mailbox',
        )) as { emails: Array<{ subject: string; text: string }> }
      ).emails;
    // Sent documents of up to 100 signees each, all with this `auth`: their links.
    const links = async (count: number, auth: Record<string, string>) => {
      const made: Signee[] = [];
      while (made.length < count) {
        const n = Math.min(100, count - made.length);
        const run = randomUUID().slice(0, 8);
        const signees = Array.from({ length: n }, (_, i) => ({
          email: `s${i}.${run}@example.com`,
          name: `Signee ${i}`,
          ...auth,
        }));
        const form = new FormData();
        form.append('tenantId', tenantId);
        form.append('signees', JSON.stringify(signees));
        form.append(
          'file',
          new Blob([new Uint8Array(makePdf())], { type: 'application/pdf' }),
          'c.pdf',
        );
        const created = await ok(
          await fetch(`${base}/api/documents/quick-create`, {
            method: 'POST',
            headers: { 'x-api-key': apiKey },
            body: form,
          }),
          201,
          'quick-create',
        );
        const id = created.document.id as string;
        await ok(
          await fetch(`${base}/api/documents/${id}/send-for-signing`, {
            method: 'POST',
            headers: { 'x-api-key': apiKey },
          }),
          200,
          'send',
        );
        for (const s of created.signees as Array<{ id: string; email: string }>) {
          const text = (await mails(s.email)).map((m) => m.text).join('\n');
          const token = /\/sign\/(sg_[\w-]+)/.exec(text)![1]!;
          made.push({ id: s.id, email: s.email, token });
        }
      }
      return made;
    };
    const timed = async (what: string, requests: Array<() => Promise<Response>>, status = 200) => {
      const warm = Math.min(10, Math.floor(requests.length / 10));
      const took: number[] = [];
      for (const [i, request] of requests.entries()) {
        const start = performance.now();
        const res = await request();
        const ms = performance.now() - start;
        if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        if (i >= warm) took.push(ms);
      }
      const figure = {
        what,
        samples: took.length,
        p50Ms: Number(median(took).toFixed(2)),
        p99Ms: Number(percentile(took, 99).toFixed(2)),
      };
      log(
        `${what}: p50 ${figure.p50Ms} ms, p99 ${figure.p99Ms} ms over ${figure.samples} requests`,
      );
      return figure;
    };
    const post = (token: string, body: object) => () =>
      fetch(`${base}/api/signing/${token}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from() },
        body: JSON.stringify(body),
      });
    const perLink = Math.ceil(samples / PER_LINK) + 1;

    const plain = await links(perLink, {});
    const view = await timed(
      'GET /api/signing/{token}, a link without verification',
      Array.from(
        { length: samples },
        (_, i) => () =>
          fetch(`${base}/api/signing/${plain[i % plain.length]!.token}`, { headers: from() }),
      ),
    );

    const coded = await links(perLink, { auth: 'access_code', accessCode: 'bench-code-42' });
    const accessCode = await timed(
      'POST …/auth {code}, access code (Argon2id)',
      Array.from({ length: samples }, (_, i) =>
        post(coded[i % coded.length]!.token, { code: 'bench-code-42' }),
      ),
    );

    // An e-mailed code opens a link once: one link per sample, each sent its code first.
    const otp = await links(samples, { auth: 'email_otp' });
    const codes: string[] = [];
    for (const s of otp) {
      await ok(
        await fetch(`${base}/api/signing/${s.token}/auth/send`, {
          method: 'POST',
          headers: from(),
        }),
        202,
        'send code',
      );
      const mail = (await mails(s.email)).find((m) => m.subject.startsWith('Your code'));
      codes.push(/\b(\d{6})\b/.exec(mail!.text)![1]!);
    }
    const emailed = await timed(
      'POST …/auth {code}, e-mailed code',
      otp.map((s, i) => post(s.token, { code: codes[i]! })),
    );

    // Tokens are made before the clock starts, as an integrator's server makes them; links of
    // their own, whose rate limit the runs above did not use.
    const vouched = await links(perLink, { auth: 'email_otp' });
    const tokens = await Promise.all(
      Array.from({ length: samples }, async (_, i) => {
        const s = vouched[i % vouched.length]!;
        const jwt = await new SignJWT({ email: s.email })
          .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
          .setAudience(s.id)
          .setIssuer('https://bench.example.com')
          .setSubject(`user-${i}`)
          .setIssuedAt()
          .setExpirationTime('10m')
          .setJti(randomUUID())
          .sign(keys.privateKey);
        return { token: s.token, jwt };
      }),
    );
    const identity = await timed(
      'POST …/auth {identity}, ES256 token',
      tokens.map((t) => post(t.token, { identity: t.jwt })),
    );

    const figures = [view, accessCode, emailed, identity];
    const met = emailed.p99Ms < GOAL_MS && identity.p99Ms < GOAL_MS;
    log(
      `goal: e-mailed code and token < ${GOAL_MS} ms p99: ${met ? 'MET' : 'MISSED'}; access code p99 ${accessCode.p99Ms} ms (${accessCode.p99Ms < GOAL_MS ? 'within' : 'over'} it)`,
    );
    return { figures, goalMs: GOAL_MS, met };
  } finally {
    await children.stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { samples: { type: 'string' } } });
  runVerificationBench({ samples: values.samples ? Number(values.samples) : undefined }).catch(
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
