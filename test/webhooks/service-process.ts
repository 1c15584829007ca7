import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { TestContext } from '../helpers/context.js';
import { documentsAvailable, minimalPdf, triggerDocumentEvent } from './fixtures.js';
import { freePort } from '../helpers/free-port.js';

/** A real `signet serve` process. */
export type ServiceProcess = {
  proc: ChildProcess;
  baseUrl: string;
  /** When the process was spawned and when /healthz first answered (wall clock, ms). */
  spawnedAt: number;
  readyAt: number;
  /** Structured log lines the process wrote to stdout. */
  logs: Array<Record<string, unknown>>;
  /** SIGKILL: no shutdown hooks, no chance to finish anything. */
  kill9: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * Spawns `node bin/signet-dev.mjs serve` (the `signet` command on the TypeScript sources, as
 * `npm run dev` runs it, never a build in dist/) on a free port with the given environment.
 */
export async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const proc = spawn('node', ['bin/signet-dev.mjs', 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let buffered = '';
  let stderr = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`service exited early: ${stderr}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`service did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    proc,
    baseUrl,
    spawnedAt,
    readyAt: Date.now(),
    logs,
    kill9: async () => {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Makes a document.status_changed through a spawned service's HTTP API (quick-create, then
 * send-for-signing). Without the documents module it records the change through `ctx` on the
 * same database, where the service's poll finds it.
 */
export async function triggerDocumentEventOn(
  service: ServiceProcess,
  ctx: TestContext,
  apiKey: string,
  tenantId: string,
) {
  if (!documentsAvailable(ctx)) return triggerDocumentEvent(ctx, apiKey, tenantId);
  const form = new FormData();
  form.append('tenantId', tenantId);
  form.append('signees', JSON.stringify([{ email: 'alice@example.com', name: 'Alice Example' }]));
  form.append(
    'file',
    new Blob([new Uint8Array(minimalPdf())], { type: 'application/pdf' }),
    'c.pdf',
  );
  const created = await fetch(`${service.baseUrl}/api/documents/quick-create`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, accept: 'application/json' },
    body: form,
  });
  const createdBody = (await created.json()) as { document: { id: string } };
  expect(created.status, JSON.stringify(createdBody)).toBe(201);
  const documentId = createdBody.document.id;
  const sent = await fetch(`${service.baseUrl}/api/documents/${documentId}/send-for-signing`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey },
  });
  const committedAt = Date.now();
  expect(sent.status, await sent.text()).toBe(200);
  const event = await ctx.db.kysely
    .selectFrom('events')
    .select('id')
    .where('document_id', '=', documentId)
    .executeTakeFirstOrThrow();
  return { eventId: event.id, documentId, signeeIds: [] as string[], committedAt };
}

/** Waits until attempt `attempt` of the event's delivery has its outcome recorded. */
export async function waitForRecordedAttempt(
  ctx: TestContext,
  eventId: string,
  attempt: number,
  timeoutMs = 20_000,
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const row = await ctx.db.kysely
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.finished_at'])
      .where('d.event_id', '=', eventId)
      .where('a.attempt', '=', attempt)
      .where('a.finished_at', 'is not', null)
      .executeTakeFirst();
    if (row) return;
    if (Date.now() > end) throw new Error(`attempt ${attempt} of ${eventId} not recorded`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
