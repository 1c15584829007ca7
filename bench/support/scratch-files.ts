// The files a benchmark's servers write, kept from skewing this run or the next one.
//
// A file-creating benchmark writes tens of gigabytes (one 200 KB file per request, thousands a
// second) and deleting them afterwards frees as many inodes. On ext4 without a journal, as on
// these VMs, creating a file skips every free inode of its group deleted in the last 60 s (300 s
// while the inode's table block is not yet written back), one buffer lookup each: right after a
// run deleted 200 000 files, the service's kernel time per stored file went from 0.32 ms to
// 1.04 ms, and the targets were not slowed alike. So stored files are emptied, not deleted,
// between measurements (their space comes back, their inodes stay in use), and a run that
// follows a deletion by a benchmark waits until the kernel reuses those inodes without looking.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// When a benchmark last deleted many files (ms since the epoch), shared by every run on the host.
const MARKER = path.join(tmpdir(), 'signet-bench-deleted-at');
// RECENTCY_MIN of fs/ext4/ialloc.c, and a margin; `sync` first, so no table block stays dirty.
const SETTLE_MS = 65_000;

/** Truncates every file ending in `suffix` below `dir` to zero bytes; returns how many. */
export function emptyFiles(dir: string, suffix: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(suffix)) continue;
    truncateSync(path.join(entry.parentPath, entry.name), 0);
    count++;
  }
  return count;
}

/** Records that many files were just deleted, after writing the file system's state back. */
export function markDeletion(): void {
  execFileSync('sync');
  writeFileSync(MARKER, String(Date.now()));
}

/** Waits, if a benchmark deleted many files less than SETTLE_MS ago, until that has passed. */
export async function settleAfterDeletion(log: (line: string) => void): Promise<void> {
  let at = 0;
  try {
    at = Number(readFileSync(MARKER, 'utf8'));
  } catch {
    return;
  }
  const wait = at + SETTLE_MS - Date.now();
  if (!(wait > 0)) return;
  log(
    `waiting ${Math.ceil(wait / 1000)} s: an earlier run's deleted files still slow file creation`,
  );
  await new Promise((resolve) => setTimeout(resolve, Math.min(wait, SETTLE_MS)));
}
