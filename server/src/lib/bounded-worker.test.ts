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
