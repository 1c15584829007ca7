import { afterAll, describe, expect, it } from 'vitest';
import { createBoundedWorker } from './bounded-worker.js';
import { AppError } from './errors.js';

const worker = createBoundedWorker<string, string>({
  script: new URL('../../../test/fixtures/bounded-worker-script.mjs', import.meta.url),
  heapMb: 32,
  deadlineMs: 1500,
  failure: 'The file could not be read',
});
afterAll(() => worker.close());

describe('createBoundedWorker', () => {
  it('answers a job, and a reported error as an Error', async () => {
    expect(await worker.run('ok')).toBe('done');
    await expect(worker.run('reported')).rejects.toThrow('no good');
  });

  it('ends a job past its deadline with a 422, and the next job gets a new thread', async () => {
    const err = await worker.run('slow').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe('The file could not be read within 1.5 s.');
    expect(await worker.run('ok')).toBe('done');
  });

  it('ends a job past its heap limit with a 422', async () => {
    const err = await worker.run('oom').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe('The file could not be read within the memory allowed.');
    expect(await worker.run('ok')).toBe('done');
  }, 20_000);

  it('rejects with a plain Error, not a 422, when the thread dies of its own fault', async () => {
    const err = await worker.run('crash').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(AppError);
    expect((err as Error).message).toMatch(/its worker thread stopped: boom/);
    expect(await worker.run('ok')).toBe('done');
  });
});

describe('createBoundedWorker with several threads', () => {
  const pool = createBoundedWorker<string, string>({
    script: new URL('../../../test/fixtures/bounded-worker-script.mjs', import.meta.url),
    heapMb: 32,
    deadlineMs: 5000,
    failure: 'The file could not be read',
    threads: 2,
    spare: true,
  });
  afterAll(() => pool.close());

  it('runs two jobs side by side, and a third waits its turn', async () => {
    await Promise.all([pool.run('ok'), pool.run('ok')]); // both threads started
    const started = performance.now();
    const jobs = [pool.run('spin:600'), pool.run('spin:600'), pool.run('spin:600')];
    expect(pool.running()).toBe(2);
    expect(pool.waiting()).toBe(1);
    await Promise.all(jobs);
    // The third started when one of the first two ended.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1150);
  });

  it('gives one job its own deadline', async () => {
    const err = await pool.run('slow', { deadlineMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe('The file could not be read within 0.3 s.');
    expect(await pool.run('spin:500', { deadlineMs: 2000 })).toBe('done');
  });

  it('withdraws a waiting job from the queue when its signal aborts', async () => {
    const holders = [pool.run('spin:400'), pool.run('spin:400')];
    const controller = new AbortController();
    const withdrawn = pool.run('ok', { signal: controller.signal }).catch((e: unknown) => e);
    expect(pool.waiting()).toBe(1);
    controller.abort();
    expect(pool.waiting()).toBe(0);
    expect(((await withdrawn) as Error).name).toBe('AbortError');
    await Promise.all(holders);
  });

  it('ends the thread of a running job whose signal aborts, and a new one takes the next', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const stopped = pool.run('slow', { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 200);
    const before = pool.thread();
    expect(((await stopped) as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(pool.running()).toBe(0);
    // The spare took its place and a new spare was started at once, not with the next job.
    expect(pool.thread()).toBe(before + 1);
    expect(await pool.run('ok')).toBe('done');
    // An already aborted signal never reaches a thread.
    const err = await pool.run('ok', { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
  });
});

describe('createBoundedWorker whose script announces it has loaded', () => {
  const slowToLoad = createBoundedWorker<string, string>({
    script: new URL('../../../test/fixtures/bounded-worker-slow-load.mjs', import.meta.url),
    heapMb: 32,
    deadlineMs: 500,
    failure: 'The file could not be read',
    announcesReady: true,
  });
  afterAll(() => slowToLoad.close());

  it('starts a job’s deadline when its thread is ready, not while it loads', async () => {
    const started = performance.now();
    expect(await slowToLoad.run('ok')).toBe('done');
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(await slowToLoad.run('ok')).toBe('done');
  });
});
