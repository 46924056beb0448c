/**
 * The per-isolate memo of the public-data version (worker/lib/version-memo.ts), driven by a fake clock
 * and a fake D1 read whose answers the test releases by hand.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DATA_VERSION_JOIN_WAIT_MS, DATA_VERSION_TTL_MS } from '../../worker/lib/data-version';
import { createKeyedMemo, createVersionMemo } from '../../worker/lib/version-memo';

/** A fake db: `version` is what a read returns; each read stays pending until `release()` (or `fail()`). */
function fakeDb(version = 1) {
  const db = {
    version,
    reads: 0,
    pending: [] as Array<{ resolve: (v: number) => void; reject: (e: unknown) => void; seen: number }>,
    read: () => {
      db.reads++;
      return new Promise<number>((resolve, reject) => db.pending.push({ resolve, reject, seen: db.version }));
    },
    /** Answers every read in flight with the version it saw when it started. */
    async release() {
      for (const p of db.pending.splice(0)) p.resolve(p.seen);
      await flush();
    },
    async fail(err: Error) {
      for (const p of db.pending.splice(0)) p.reject(err);
      await flush();
    },
  };
  return db;
}

const flush = () => new Promise<void>((r) => setImmediate(r));

let clock = 0;
const now = () => clock;
const TTL = DATA_VERSION_TTL_MS;
const JOIN = DATA_VERSION_JOIN_WAIT_MS;

beforeEach(() => {
  clock = 1_000_000;
});
afterEach(() => {
  vi.useRealTimers();
});

/** Resolves a get() whose read is released right away. */
async function getNow(memo: ReturnType<typeof createVersionMemo>, db: ReturnType<typeof fakeDb>) {
  const p = memo.get(db.read);
  await db.release();
  return p;
}

describe('version memo', () => {
  it('the TTL is short (at most a second or two) and the join wait shorter than it', () => {
    expect(TTL).toBe(1_000);
    expect(JOIN).toBeGreaterThan(0);
    expect(JOIN).toBeLessThan(TTL);
  });

  it('reads once, then answers from memory until the TTL (from the start of the read) has passed', async () => {
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const db = fakeDb(7);
    expect(await getNow(memo, db)).toBe(7);
    expect(db.reads).toBe(1);
    db.version = 8; // written by another isolate: not seen while the memo is fresh
    clock += TTL - 1;
    expect(await memo.get(db.read)).toBe(7);
    expect(db.reads).toBe(1);
    clock += 1;
    expect(await getNow(memo, db)).toBe(8);
    expect(db.reads).toBe(2);
  });

  it('concurrent callers share one read in flight', async () => {
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const db = fakeDb(3);
    const all = Promise.all([memo.get(db.read), memo.get(db.read), memo.get(db.read)]);
    await db.release();
    expect(await all).toEqual([3, 3, 3]);
    expect(db.reads).toBe(1);
  });

  it('invalidate() forgets the value: the next call reads again', async () => {
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const db = fakeDb(1);
    expect(await getNow(memo, db)).toBe(1);
    db.version = 2;
    memo.invalidate();
    expect(await getNow(memo, db)).toBe(2);
    expect(db.reads).toBe(2);
  });

  it('a read in flight when invalidate() runs is not stored (it may have seen the old version)', async () => {
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const db = fakeDb(1);
    const early = memo.get(db.read); // started before the write commits
    db.version = 2;
    memo.invalidate(); // the write's request has finished
    // A caller after the invalidation does not join the old read: it starts its own.
    const late = memo.get(db.read);
    await db.release();
    expect(await early).toBe(1);
    expect(await late).toBe(2);
    expect(db.reads).toBe(2);
    // What is remembered is the read that started after the invalidation.
    expect(await memo.get(db.read)).toBe(2);
    expect(db.reads).toBe(2);
  });

  it('an old read finishing after a newer one does not overwrite it', async () => {
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const db = fakeDb(1);
    const early = memo.get(db.read);
    const stale = db.pending.pop()!; // hold the old read back
    db.version = 2;
    memo.invalidate();
    expect(await getNow(memo, db)).toBe(2);
    stale.resolve(stale.seen);
    expect(await early).toBe(1);
    expect(await memo.get(db.read)).toBe(2);
    expect(db.reads).toBe(2);
  });

  it('a failed read is not remembered and reaches every caller that shared it; the next call retries', async () => {
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const db = fakeDb(5);
    const a = expect(memo.get(db.read)).rejects.toThrow('D1 down');
    const b = expect(memo.get(db.read)).rejects.toThrow('D1 down');
    await db.fail(new Error('D1 down'));
    await a;
    await b;
    expect(await getNow(memo, db)).toBe(5);
    expect(db.reads).toBe(2);
  });

  it('a read that throws synchronously rejects instead of throwing, and leaves nothing in flight', async () => {
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const boom = () => {
      throw new Error('no binding');
    };
    await expect(memo.get(boom)).rejects.toThrow('no binding');
    const db = fakeDb(4);
    expect(await getNow(memo, db)).toBe(4);
  });

  it('a caller waits for a stuck read in flight at most the join wait, then reads itself', async () => {
    vi.useFakeTimers();
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const db = fakeDb(9);
    void memo.get(db.read); // this read never settles (its request was cancelled)
    db.pending.pop();
    clock += 100;
    const joined = memo.get(db.read);
    expect(db.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(JOIN - 100 - 1);
    expect(db.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(db.reads).toBe(2);
    for (const p of db.pending.splice(0)) p.resolve(p.seen);
    expect(await joined).toBe(9);
    // Its own read is remembered.
    expect(await memo.get(db.read)).toBe(9);
    expect(db.reads).toBe(2);
  });

  it('a read in flight for longer than the join wait is not joined at all', async () => {
    const memo = createVersionMemo({ ttlMs: TTL, joinWaitMs: JOIN, now });
    const db = fakeDb(2);
    void memo.get(db.read);
    db.pending.pop(); // stuck
    clock += JOIN;
    expect(await getNow(memo, db)).toBe(2);
    expect(db.reads).toBe(2);
  });
});

describe('keyed memo (a value per data version)', () => {
  /** A fake load whose calls stay pending until released. */
  function fakeLoad() {
    const l = {
      calls: 0,
      pending: [] as Array<{ resolve: (v: string[]) => void; reject: (e: unknown) => void }>,
      load: () => {
        l.calls++;
        return new Promise<string[]>((resolve, reject) => l.pending.push({ resolve, reject }));
      },
      async release(value: string[]) {
        for (const p of l.pending.splice(0)) p.resolve(value);
        await flush();
      },
    };
    return l;
  }

  it('loads once per key; concurrent callers share the load; a new key loads again', async () => {
    const memo = createKeyedMemo<string[]>({ joinWaitMs: JOIN, now });
    const l = fakeLoad();
    const both = Promise.all([memo.get(1, l.load), memo.get(1, l.load)]);
    await l.release(['goteborg']);
    expect(await both).toEqual([['goteborg'], ['goteborg']]);
    expect(await memo.get(1, l.load)).toEqual(['goteborg']);
    expect(l.calls).toBe(1);
    const next = memo.get(2, l.load);
    await l.release(['goteborg', 'malmo']);
    expect(await next).toEqual(['goteborg', 'malmo']);
    expect(await memo.get(2, l.load)).toEqual(['goteborg', 'malmo']);
    expect(l.calls).toBe(2);
  });

  it('a failed load is not remembered', async () => {
    const memo = createKeyedMemo<string[]>({ joinWaitMs: JOIN, now });
    const l = fakeLoad();
    const failed = expect(memo.get(1, l.load)).rejects.toThrow('D1 down');
    for (const p of l.pending.splice(0)) p.reject(new Error('D1 down'));
    await failed;
    const again = memo.get(1, l.load);
    await l.release(['lund']);
    expect(await again).toEqual(['lund']);
    expect(l.calls).toBe(2);
  });

  it('a stuck load is joined at most the join wait, then the caller loads itself', async () => {
    vi.useFakeTimers();
    const memo = createKeyedMemo<string[]>({ joinWaitMs: JOIN, now });
    const l = fakeLoad();
    void memo.get(1, l.load);
    l.pending.pop(); // never settles
    const joined = memo.get(1, l.load);
    await vi.advanceTimersByTimeAsync(JOIN);
    expect(l.calls).toBe(2);
    for (const p of l.pending.splice(0)) p.resolve(['umea']);
    expect(await joined).toEqual(['umea']);
    expect(await memo.get(1, l.load)).toEqual(['umea']);
    expect(l.calls).toBe(2);
  });
});
