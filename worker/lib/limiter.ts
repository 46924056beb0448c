/**
 * At most `n` tasks at a time (issue 42.3: the pushes of one queue batch). A Worker invocation has six
 * connections waiting for response headers at most; a seventh waits in line, so a bound below six keeps a
 * connection free for the batch's mail however many pushes hang.
 */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function createLimiter(n: number): Limiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next in line (running stays the same), or free it.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
