import { describe, expect, it } from 'vitest';
import { connectionCaps, descriptorLimit } from './connection-guard.js';

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
