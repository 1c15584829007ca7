import type { Metric, Registry } from 'prom-client';

/** Upper bounds of the request-duration histogram's buckets, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type RouteTally = {
  method: string;
  route: string;
  /** Responses by status code. */
  statuses: Map<number, number>;
  /** Responses per bucket, not cumulative; one above every bound counts in `count` alone. */
  buckets: number[];
  sum: number;
  count: number;
};

/** A metric's samples as the registry formats them: `metricName` when it differs from `name`. */
type Samples = {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Array<{ metricName?: string; labels: Record<string, string | number>; value: number }>;
};

/**
 * The two per-request metrics, `signet_http_requests_total` and
 * `signet_http_request_duration_seconds`, tallied in plain numbers per route and turned into
 * Prometheus metrics only when scraped. prom-client's Counter and Histogram hash their label
 * objects on every update, which cost more than a microsecond of every request; here a request
 * costs a map lookup and three additions. The exposition is what prom-client's own metrics
 * print: the registry formats both.
 */
export function registerRequestMetrics(registry: Registry) {
  const tallies = new Map<string, RouteTally>();

  // A metric the registry reads through get() alone (and reset() on resetMetrics).
  const metric = (
    name: string,
    help: string,
    type: Samples['type'],
    values: () => Samples['values'],
  ) => ({
    name,
    help,
    get: async (): Promise<Samples> => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset: () => tallies.clear(),
  });
  const requests = metric(
    'signet_http_requests_total',
    'HTTP requests by route and status',
    'counter',
    () =>
      [...tallies.values()].flatMap((t) =>
        [...t.statuses].map(([status, value]) => ({
          labels: { method: t.method, route: t.route, status },
          value,
        })),
      ),
  );
  const durationName = 'signet_http_request_duration_seconds';
  const duration = metric(durationName, 'HTTP request duration by route', 'histogram', () =>
    [...tallies.values()].flatMap((t) => {
      const labels = { method: t.method, route: t.route };
      let cumulative = 0;
      return [
        ...DURATION_BUCKETS.map((le, i) => ({
          metricName: `${durationName}_bucket`,
          labels: { le, ...labels },
          value: (cumulative += t.buckets[i]!),
        })),
        { metricName: `${durationName}_bucket`, labels: { le: '+Inf', ...labels }, value: t.count },
        { metricName: `${durationName}_sum`, labels, value: t.sum },
        { metricName: `${durationName}_count`, labels, value: t.count },
      ];
    }),
  );
  registry.registerMetric(requests as unknown as Metric);
  registry.registerMetric(duration as unknown as Metric);

  /** Counts one response of `route` (its pattern, not the URL) and its duration in seconds. */
  return function record(method: string, route: string, status: number, seconds: number) {
    const key = `${method} ${route}`;
    let tally = tallies.get(key);
    if (!tally) {
      tally = {
        method,
        route,
        statuses: new Map(),
        buckets: DURATION_BUCKETS.map(() => 0),
        sum: 0,
        count: 0,
      };
      tallies.set(key, tally);
    }
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
    for (let i = 0; i < DURATION_BUCKETS.length; i++) {
      if (seconds <= DURATION_BUCKETS[i]!) {
        tally.buckets[i]! += 1;
        break;
      }
    }
    tally.sum += seconds;
    tally.count += 1;
  };
}
