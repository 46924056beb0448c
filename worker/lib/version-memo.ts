/**
 * Per-isolate memos behind worker/lib/data-version.ts, with no I/O and no imports (unit-tested in Node):
 *  - `createVersionMemo`: one number read from storage (the public-data version), trusted for `ttlMs`;
 *    callers that arrive while a read is in flight share it; `invalidate()` forgets the value and stops
 *    a read already in flight from storing its (possibly old) result.
 *  - `createKeyedMemo`: one value per key (a value derived from public data, keyed by the data version),
 *    loaded once per key, concurrent callers sharing the load.
 *  - `createOnceMemo`: one value per isolate (page assets, the share-card engines), loaded once.
 *
 * Sharing a read in flight across requests has one hazard in workerd: a promise belongs to the request
 * that created it, and if that request is cancelled (client gone) the promise may never settle. So a
 * caller that joins someone else's read waits at most `joinWaitMs` (from when that read started), then
 * reads itself (`joinWithDeadline`).
 */
/** `shared`, unless it has not settled after `waitMs`: then the result of `fallback()` (started then). */
function joinWithDeadline<T>(shared: Promise<T>, waitMs: number, fallback: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const own = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => fallback().then(resolve, reject), waitMs);
  });
  return Promise.race([shared, own]).finally(() => clearTimeout(timer));
}

export interface VersionMemo {
  /** The remembered version while fresh; else shares a read in flight, or starts `read`. */
  get(read: () => Promise<number>): Promise<number>;
  /** Forget the value, and make any read in flight unable to store what it returns. */
  invalidate(): void;
}

export interface VersionMemoOptions {
  /** How long a value read is trusted, from when its read started (ms). */
  ttlMs: number;
  /** How long a caller waits for someone else's read in flight, from when it started, before reading itself (ms). */
  joinWaitMs: number;
  /** Clock in ms (default Date.now). */
  now?: () => number;
}

/** One memo: no module state here (test/unit/version-memo.test.ts drives it with a fake clock and read). */
export function createVersionMemo(opts: VersionMemoOptions): VersionMemo {
  const { ttlMs, joinWaitMs } = opts;
  const now = opts.now ?? (() => Date.now()); // read late: a test may fake Date (test/integration/http-cache.test.ts)
  let value: number | undefined;
  let readStartedAt = 0;
  // Incremented by invalidate(): a read that started before it may have seen the old version.
  let generation = 0;
  let inflight: { promise: Promise<number>; startedAt: number } | undefined;

  function start(read: () => Promise<number>, startedAt: number): Promise<number> {
    const gen = generation;
    let pending: Promise<number>;
    try {
      pending = read();
    } catch (err) {
      return Promise.reject(err);
    }
    const done = () => {
      if (inflight?.promise === promise) inflight = undefined;
    };
    const promise: Promise<number> = pending.then(
      (v) => {
        if (gen === generation) {
          value = v;
          readStartedAt = startedAt;
        }
        done();
        return v;
      },
      (err: unknown) => {
        done();
        throw err;
      },
    );
    inflight = { promise, startedAt };
    return promise;
  }

  return {
    get(read) {
      const t = now();
      if (value !== undefined && t - readStartedAt < ttlMs) return Promise.resolve(value);
      if (inflight) {
        const waited = t - inflight.startedAt;
        if (waited < joinWaitMs) return joinWithDeadline(inflight.promise, joinWaitMs - waited, () => start(read, now()));
      }
      return start(read, t);
    },
    invalidate() {
      generation++;
      value = undefined;
      inflight = undefined;
    },
  };
}

export interface KeyedMemo<T> {
  /** The value loaded for `key`; loads it (once, shared by concurrent callers) when the key is new. */
  get(key: number, load: () => Promise<T>): Promise<T>;
}

/**
 * Remembers the value of the latest key loaded (keys are data versions: a new one replaces the old).
 * A failed load is not remembered.
 */
export function createKeyedMemo<T>(opts: { joinWaitMs: number; now?: () => number }): KeyedMemo<T> {
  const now = opts.now ?? (() => Date.now()); // read late: a test may fake Date (test/integration/http-cache.test.ts)
  let entry: { key: number; value: T } | undefined;
  let inflight: { key: number; promise: Promise<T>; startedAt: number } | undefined;

  function start(key: number, load: () => Promise<T>): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = load();
    } catch (err) {
      return Promise.reject(err);
    }
    const done = () => {
      if (inflight?.promise === promise) inflight = undefined;
    };
    const promise: Promise<T> = pending.then(
      (value) => {
        entry = { key, value };
        done();
        return value;
      },
      (err: unknown) => {
        done();
        throw err;
      },
    );
    inflight = { key, promise, startedAt: now() };
    return promise;
  }

  return {
    get(key, load) {
      if (entry && entry.key === key) return Promise.resolve(entry.value);
      if (inflight && inflight.key === key) {
        const waited = now() - inflight.startedAt;
        if (waited < opts.joinWaitMs) return joinWithDeadline(inflight.promise, opts.joinWaitMs - waited, () => start(key, load));
      }
      return start(key, load);
    },
  };
}

export interface OnceMemo<T> {
  /** The value once loaded; else joins a load in flight (at most `joinWaitMs`) or starts `load`. */
  get(load: () => Promise<T>): Promise<T>;
}

export interface OnceMemoOptions {
  /** How long a caller waits for someone else's load in flight, from when it started (ms). */
  joinWaitMs: number;
  /**
   * What a caller does when that wait is over: 'load' loads itself (loading twice is harmless, e.g. a
   * manifest); 'fail' rejects, for a load that must not run twice at once (a wasm engine that initialises
   * once per isolate) — the caller answers without it instead of hanging.
   */
  afterWait: 'load' | 'fail';
  /** Clock in ms (default Date.now). */
  now?: () => number;
}

/**
 * One value per isolate (the page assets' manifest, the share-card engines): the value is kept, never
 * the promise, so no request awaits another request's promise for longer than `joinWaitMs`. A failed
 * load is not kept; a load still in flight after `joinWaitMs` is no longer joined (the next caller starts
 * its own).
 */
export function createOnceMemo<T>(opts: OnceMemoOptions): OnceMemo<T> {
  const now = opts.now ?? (() => Date.now()); // read late: a test may fake Date (test/integration/http-cache.test.ts)
  let done: { value: T } | undefined;
  let inflight: { promise: Promise<T>; startedAt: number } | undefined;

  function start(load: () => Promise<T>): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = load();
    } catch (err) {
      return Promise.reject(err);
    }
    const clear = () => {
      if (inflight?.promise === promise) inflight = undefined;
    };
    const promise: Promise<T> = pending.then(
      (value) => {
        done = { value };
        clear();
        return value;
      },
      (err: unknown) => {
        clear();
        throw err;
      },
    );
    inflight = { promise, startedAt: now() };
    return promise;
  }

  return {
    get(load) {
      if (done) return Promise.resolve(done.value);
      if (inflight) {
        const waited = now() - inflight.startedAt;
        if (waited < opts.joinWaitMs) {
          const after =
            opts.afterWait === 'load'
              ? () => start(load)
              : () => Promise.reject(new Error(`still loading after ${opts.joinWaitMs} ms (started by another request)`));
          return joinWithDeadline(inflight.promise, opts.joinWaitMs - waited, after);
        }
      }
      return start(load);
    },
  };
}
