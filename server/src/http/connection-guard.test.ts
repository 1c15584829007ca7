import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { connectionCaps, descriptorLimit, httpServerOptions } from './connection-guard.js';

describe('connection caps', () => {
  it('derives the global cap from the descriptor limit, below it with room for upload files', () => {
    // The report's machine: 20,000 descriptors.
    expect(connectionCaps(null, 20_000)).toEqual({ soft: 9808, hard: 9872 });
    // A common default: 1,024.
    const small = connectionCaps(null, 1024);
    expect(small.hard).toBe(384);
    expect(small.soft).toBeLessThan(small.hard);
    // Each connection may hold a second descriptor (an upload's file), plus the reserve.
    for (const limit of [1024, 4096, 20_000, 1 << 20]) {
      expect(2 * connectionCaps(null, limit).hard + 256).toBeLessThanOrEqual(limit);
    }
  });

  it('takes a configured cap as the soft one, with room above it for a probe', () => {
    expect(connectionCaps(50, 20_000)).toEqual({ soft: 50, hard: 58 });
    expect(connectionCaps(10_000, 20_000)).toEqual({ soft: 10_000, hard: 10_064 });
  });

  it("reads this process's descriptor limit", () => {
    expect(descriptorLimit()).toBeGreaterThan(0);
  });
});

describe('HTTP limits in the configuration', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-guard-'));
  const load = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, ...env }).http;
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('has defaults a slow but real upload passes and a trickle does not', () => {
    expect(load()).toEqual({
      headersTimeoutMs: 15_000,
      bodyWindowMs: 10_000,
      bodyMinBytes: 4096,
      requestTimeoutMs: 1_800_000,
      keepAliveTimeoutMs: 72_000,
      maxConnectionsPerAddress: 128,
      maxUploadsPerAddress: 64,
      maxConnections: null,
    });
  });

  it('reads each from the environment and refuses nonsense', () => {
    expect(load({ HTTP_MAX_CONNECTIONS: '500', HTTP_BODY_MIN_BYTES: '1' })).toMatchObject({
      maxConnections: 500,
      bodyMinBytes: 1,
    });
    expect(() => load({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(/PER_ADDRESS/);
    expect(() => load({ HTTP_BODY_WINDOW_MS: 'soon' })).toThrow(/HTTP_BODY_WINDOW_MS/);
  });

  it('gives Node a headers timeout within the request timeout, checked a few times a window', () => {
    const http = load({ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' });
    expect(httpServerOptions(http).http).toEqual({
      headersTimeout: 30_000,
      requestTimeout: 30_000,
      connectionsCheckingInterval: 1000,
    });
  });
});
