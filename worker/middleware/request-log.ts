/**
 * One structured log line per request (issue 30 §3; worker/lib/log.ts): request id, method, the route
 * pattern Hono matched (never the raw path or query, which may carry personal data), status, duration,
 * D1 rows read/written (when the request's statements are counted: config.d1Stats, see
 * middleware/context.ts) and the edge cache's verdict (x-cache: HIT | MISS | BYPASS, null when the route
 * is not cached). A response with status ≥ 500 also bumps the hourly '5xx' counter the superadmin's
 * "Drift" tab reads — after the response, through waitUntil where there is one.
 */
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import type { AppEnv } from '../context';
import { logLine } from '../lib/log';
import { bumpCounter, OPS_COUNTERS } from '../lib/ops-counters';
import { D1_ROWS_READ_HEADER, D1_ROWS_WRITTEN_HEADER, D1_STATEMENTS_HEADER } from './context';

const num = (v: string | null) => (v === null ? null : Number.parseInt(v, 10));

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  const status = c.res.status;
  const h = c.res.headers;
  const rowsRead = num(h.get(D1_ROWS_READ_HEADER));
  let route = routePath(c, -1);
  // Nothing but the middleware matched: the SPA / JSON not-found answer.
  if (route === '/*' || route === '*') route = status === 404 ? '(not found)' : route;
  logLine({
    type: 'request',
    requestId: c.get('requestId') ?? null,
    method: c.req.method,
    route,
    status,
    ms: Date.now() - started,
    d1: rowsRead === null ? null : { rowsRead, rowsWritten: num(h.get(D1_ROWS_WRITTEN_HEADER)), statements: num(h.get(D1_STATEMENTS_HEADER)) },
    cache: h.get('x-cache'),
  });
  if (status >= 500 && c.var.db) {
    const write = bumpCounter(c.var.db, OPS_COUNTERS.serverErrors, c.var.clock?.now() ?? new Date()).catch((err) =>
      console.error('5xx counter not recorded', err),
    );
    let waitUntil: ((p: Promise<unknown>) => void) | null = null;
    try {
      const ctx = c.executionCtx;
      waitUntil = (p) => ctx.waitUntil(p);
    } catch {
      waitUntil = null;
    }
    if (waitUntil) waitUntil(write);
    else await write;
  }
});
