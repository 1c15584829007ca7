import { defineConfig } from 'vitest/config';

// Two projects. `unit`: pure functions, tested beside their source, and the SDK; no database,
// runs in seconds (`npm test -- --project unit`). `e2e`: HTTP and browser tests against a real
// migrated database on both engines, with the PostgreSQL server started by the global setup.
// `npm test` runs both, and one JSON report (.ci/run) counts the tests of both.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['server/src/**/*.test.ts', 'sdk/test/**/*.test.ts'],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/setup/postgres.ts'],
          pool: 'forks',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
