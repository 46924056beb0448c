/**
 * The tests' throwaway files in memory (issue 27: suite time). Every database a test run makes is thrown away at
 * its end: the integration tier's local D1s and caches (Miniflare keeps them under the OS temp folder), each e2e
 * app's state (test/e2e/support/app.ts) and the backup drill's copies. On a disk, SQLite's commits wait for
 * fsync: the integration tier spent 27 s of its 214 s waiting on the disk (2026-11-28, idle 2-core machine), and
 * 165 s with the temp folder on a tmpfs.
 *
 * `tmpdirInMemory()` points TMPDIR (read by Node's `os.tmpdir()`, Miniflare, wrangler and every child process) at
 * a folder on /dev/shm when that is a tmpfs with room to spare; otherwise (no /dev/shm, a container's 64 MB one)
 * it changes nothing and the files stay on disk. Each vitest config calls it when it loads, before any runtime or
 * app starts. The bench does not: its figures are measured on the disk, as before.
 */
import { mkdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

/** statfs f_type of a tmpfs (linux/magic.h TMPFS_MAGIC). */
const TMPFS_MAGIC = 0x01021994;
/** Free space /dev/shm must have: at most 157 MB were in use during the integration tier, 77 MB during the e2e run (2026-11-28). */
export const MIN_FREE_BYTES = 2 * 1024 ** 3;

/** Sets env.TMPDIR to `<root>/quizkvall-tests` when `root` is a tmpfs with MIN_FREE_BYTES free; returns that folder. */
export function tmpdirInMemory(
  env: Record<string, string | undefined> = process.env,
  root = '/dev/shm',
  statfs: (path: string) => { type: number; bavail: number; bsize: number } = statfsSync,
): string | undefined {
  try {
    const fs = statfs(root);
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < MIN_FREE_BYTES) return undefined;
    const dir = join(root, 'quizkvall-tests');
    mkdirSync(dir, { recursive: true });
    env.TMPDIR = dir;
    return dir;
  } catch {
    return undefined;
  }
}
