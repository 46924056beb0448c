/**
 * After every request that may write (anything but GET/HEAD), forget this isolate's memoized
 * public-data version (worker/lib/data-version.ts). `bumpDataVersion` already forgets it when the
 * statement is built, but a concurrent GET can read and memoize the old version between that moment
 * and the batch's commit; forgetting again once the write has finished closes that window, so the
 * writer's next request (and every other request in this isolate) sees the new version.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { invalidateDataVersion } from '../lib/data-version';

export const forgetDataVersionAfterWrites = createMiddleware<AppEnv>(async (c, next) => {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD') return next();
  try {
    await next();
  } finally {
    invalidateDataVersion();
  }
});
