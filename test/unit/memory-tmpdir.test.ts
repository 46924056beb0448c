/** test/memory-tmpdir.ts: the tests' temp folder moves to a tmpfs only when there is one with room to spare. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIN_FREE_BYTES, tmpdirInMemory } from '../memory-tmpdir';

const TMPFS = 0x01021994;
const EXT4 = 0xef53;
const root = mkdtempSync(join(tmpdir(), 'qk-shm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('tmpdirInMemory', () => {
  it('points TMPDIR at a folder on a tmpfs with room to spare', () => {
    const env: Record<string, string | undefined> = { TMPDIR: '/tmp' };
    const dir = tmpdirInMemory(env, root, () => ({ type: TMPFS, bavail: MIN_FREE_BYTES / 4096, bsize: 4096 }));
    expect(dir).toBe(join(root, 'quizkvall-tests'));
    expect(env.TMPDIR).toBe(dir);
    expect(existsSync(dir!)).toBe(true);
  });

  it('leaves TMPDIR alone on a disk, on a small tmpfs (a container’s 64 MB /dev/shm) and without the folder', () => {
    const cases = [
      () => ({ type: EXT4, bavail: 1e9, bsize: 4096 }),
      () => ({ type: TMPFS, bavail: (64 * 1024 * 1024) / 4096, bsize: 4096 }),
      () => {
        throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      },
    ];
    for (const statfs of cases) {
      const env: Record<string, string | undefined> = { TMPDIR: '/tmp' };
      expect(tmpdirInMemory(env, root, statfs)).toBeUndefined();
      expect(env).toEqual({ TMPDIR: '/tmp' });
    }
  });
});
