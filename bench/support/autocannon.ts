import { createRequire } from 'node:module';

/** One autocannon run against one target: the figures the benchmarks keep. */
export type LoadRun = {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
};

type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
};

// autocannon ships no type declarations; this is the part of its API the benchmarks use.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  method?: 'GET' | 'POST';
  body?: Buffer;
  headers?: Record<string, string>;
  connections: number;
  pipelining?: number;
  duration: number;
}) => Promise<AutocannonResult>;

/** Loads `url` with autocannon for `duration` seconds from this process. */
export async function runAutocannon(options: Parameters<typeof autocannon>[0]): Promise<LoadRun> {
  const r = await autocannon(options);
  return {
    requestsPerSecond: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}
