import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../helpers/postgres-cluster.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

// Every run tests both engines. With TEST_DATABASE_URL the given server is used; otherwise a
// throwaway cluster is started from the machine's PostgreSQL binaries and removed afterwards.

/** Starts (or adopts) the PostgreSQL server the tests use. */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('postgresUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const cluster = await startPostgresCluster(
    '-c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off',
  );
  project.provide('postgresUrl', cluster.adminUrl);
  return cluster.stop;
}
