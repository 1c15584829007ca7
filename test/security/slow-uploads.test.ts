import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { openUpload } from './support.js';

// Uploads that keep just above the minimum rate (here 1 KiB a second) are not cut; the caps
// per address are raised so that one address can hold more of them than the file writer has
// slots (32).
const LIMITS = {
  HTTP_BODY_WINDOW_MS: '1000',
  HTTP_BODY_MIN_BYTES: '1024',
  HTTP_MAX_UPLOADS_PER_ADDRESS: '64',
  RATE_LIMIT_PER_SECOND: '1000',
  RATE_LIMIT_BURST: '1000',
};

describe.each(ENGINES)('slow uploads on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true, env: LIMITS });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  it('lets an upload through while 40 others trickle at the minimum rate', async () => {
    const slow = Array.from({ length: 40 }, () =>
      openUpload(ctx.baseUrl, apiKey, tenantId, makePdf({ padBytes: 1024 * 1024 })),
    );
    // 2 KiB every half second each: twice the minimum, for as long as the test runs.
    const pump = setInterval(() => slow.forEach((u) => u.send(2048)), 500);
    try {
      slow.forEach((u) => u.send(2048));
      await new Promise((r) => setTimeout(r, 1500));
      const started = performance.now();
      const honest = openUpload(ctx.baseUrl, apiKey, tenantId, makePdf({ padBytes: 1024 * 1024 }));
      honest.send();
      const answer = await Promise.race([
        honest.answer,
        new Promise((r) => setTimeout(() => r('still waiting after 5 s'), 5000)),
      ]);
      expect(answer).toMatchObject({ status: 201 });
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      clearInterval(pump);
    }
  });
});
