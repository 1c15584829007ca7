import { describe, expect, it } from 'vitest';
import * as sdk from '../src/index.js';

// The embedding helper is browser code in a package Node imports too (webhooks, the client):
// importing must touch no browser global, and calling it outside a page says so. Its behaviour
// in a page is tested in Chromium through /embed.js, which is this same function
// (test/browser/embedding.test.ts).
describe('mount (embedded signing) in Node', () => {
  it('is exported and importing it needs no DOM', () => {
    expect(typeof sdk.mount).toBe('function');
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
  });

  it('refuses to run outside a browser page with a clear error', () => {
    expect(() => sdk.mount('#signing', { url: 'https://signet.example/sign/sg_x' })).toThrow(
      'Signet.mount runs in a browser page',
    );
  });
});
