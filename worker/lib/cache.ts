/**
 * Edge cache (Cache API, caches.default) for anonymous public GETs: server-rendered pages and listing
 * responses. The key holds the public-data version (worker/lib/data-version.ts) and the Stockholm date,
 * so a write that bumps the version, or midnight, makes the next request miss; old entries are simply
 * never read again. A request carrying the session cookie is never read from or written to the cache,
 * and a response that sets a cookie or is not a 200 is never stored. Correctness never depends on it.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../context';
import { getDataVersion } from './data-version';
import { SESSION_COOKIE } from './session';

/** How long the edge keeps an entry (keys change on every write, so this only bounds storage). */
export const EDGE_TTL_S = 3600;
/** Browsers cannot see the data version, so they revalidate every time (the edge answers fast). */
export const BROWSER_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** True when the request may be served from and stored in the shared cache. */
export function isAnonymousGet(c: Context<AppEnv>): boolean {
  return (c.req.method === 'GET' || c.req.method === 'HEAD') && getCookie(c, SESSION_COOKIE) === undefined && !c.var.user;
}

function edgeCache(): Cache | null {
  try {
    return (globalThis as unknown as { caches?: { default?: Cache } }).caches?.default ?? null;
  } catch {
    return null;
  }
}

/** The versioned cache key of a request: path + sorted query + data version + Stockholm date. */
export function cacheKey(url: string, version: number, today: string): string {
  const u = new URL(url);
  const params = [...u.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const q = new URLSearchParams(params).toString();
  return `https://edge-cache.quizkvall.internal/v${version}/${today}${u.pathname}${q ? `?${q}` : ''}`;
}

/**
 * Serves from the edge cache or renders with `produce` and stores the result. Personal requests
 * (session cookie) always run `produce` and are marked `private, no-store`. Adds `x-cache: HIT|MISS|BYPASS`.
 */
export async function withEdgeCache(c: Context<AppEnv>, produce: () => Promise<Response>): Promise<Response> {
  const cache = edgeCache();
  if (!isAnonymousGet(c) || !cache) {
    const res = await produce();
    const out = new Response(res.body, res);
    if (!isAnonymousGet(c)) out.headers.set('cache-control', 'private, no-store');
    out.headers.set('x-cache', 'BYPASS');
    return out;
  }
  const version = await getDataVersion(c.var.db);
  const key = new Request(cacheKey(c.req.url, version, c.var.clock.today()));
  const hit = await cache.match(key).catch(() => undefined);
  if (hit) {
    const out = new Response(hit.body, hit);
    out.headers.set('cache-control', BROWSER_CACHE_CONTROL);
    out.headers.set('x-cache', 'HIT');
    return out;
  }
  const res = await produce();
  const out = new Response(res.body, res);
  if (!out.headers.has('cache-control')) out.headers.set('cache-control', BROWSER_CACHE_CONTROL);
  out.headers.set('x-cache', 'MISS');
  if (res.status === 200 && !res.headers.has('set-cookie')) {
    const stored = out.clone();
    const headers = new Headers(stored.headers);
    headers.set('cache-control', `public, max-age=${EDGE_TTL_S}`);
    headers.delete('x-cache');
    const put = cache.put(key, new Response(stored.body, { status: 200, headers })).catch(() => undefined);
    try {
      c.executionCtx.waitUntil(put);
    } catch {
      await put;
    }
  }
  return out;
}
