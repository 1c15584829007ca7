import { chmodSync, mkdirSync } from 'node:fs';

/**
 * Makes `dir` (and missing parents) and sets it to 0700: it holds the database, stored
 * documents and secrets, which no other user of the machine may read. An existing folder made
 * by an earlier version with the umask's 0755 is tightened too.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}
