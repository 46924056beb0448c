/**
 * A short-lived memo of one number read from storage (the public-data version, worker/lib/data-version.ts):
 * the value is trusted for `ttlMs`, callers that arrive while a read is in flight share it, and
 * `invalidate()` forgets the value and stops a read already in flight from storing its (possibly old)
 * result. No I/O and no imports, so it is unit-tested in Node.
 */
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
  const now = opts.now ?? Date.now;
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

  /** Share `shared`, but after `waitMs` read ourselves (later callers then share our read). */
  function join(shared: Promise<number>, waitMs: number, read: () => Promise<number>): Promise<number> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const own = new Promise<number>((resolve, reject) => {
      timer = setTimeout(() => start(read, now()).then(resolve, reject), waitMs);
    });
    return Promise.race([shared, own]).finally(() => clearTimeout(timer));
  }

  return {
    get(read) {
      const t = now();
      if (value !== undefined && t - readStartedAt < ttlMs) return Promise.resolve(value);
      if (inflight) {
        const waited = t - inflight.startedAt;
        if (waited < joinWaitMs) return join(inflight.promise, joinWaitMs - waited, read);
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
