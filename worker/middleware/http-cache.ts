/**
 * HTTP caching for public, cookie-free GETs (server-rendered pages and public listing reads):
 * `Cache-Control` with stale-while-revalidate, a strong `ETag` (SHA-1 of the body) and `304 Not Modified`
 * for a matching `If-None-Match` (RFC 9110 §13.1.2, §15.4.5).
 *
 * The Worker's edge cache (worker/middleware/edge-cache.ts) keys entries by the public-data version, so a write that
 * bumps the version is visible on the next request. The browser policy (PUBLIC_CACHE_CONTROL) and the
 * strong ETag (strongEtag) are defined there, once; this middleware applies them.
 *
 * Never applied to a request that carries the session cookie: such responses get `private, no-store`
 * and no ETag, so nothing personal is stored by any cache (ARCHITECTURE.md "Caching").
 */
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, strongEtag } from '../lib/cache';
import { SESSION_COOKIE } from '../lib/session';

/** Headers a 304 must repeat from the 200 it stands for (RFC 9110 §15.4.5). */
const RETAINED_304 = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary'];

/** True when a response may be shared: a 200 that sets no cookie and did not opt out itself. */
function isShareable(res: Response): boolean {
  if (res.status !== 200 || res.headers.has('set-cookie')) return false;
  const cc = res.headers.get('cache-control')?.toLowerCase() ?? '';
  return !cc.includes('private') && !cc.includes('no-store');
}

/** If-None-Match uses weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored. */
export function etagMatches(etag: string, ifNoneMatch: string | undefined): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  const mine = strip(etag);
  return ifNoneMatch.split(',').some((t) => strip(t) === mine);
}

export const httpCache = createMiddleware<AppEnv>(async (c, next) => {
  const method = c.req.method;
  if (method !== 'GET' && method !== 'HEAD') return next();
  await next();
  if (getCookie(c, SESSION_COOKIE) !== undefined) {
    const out = new Response(c.res.body, c.res);
    out.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
    out.headers.delete('ETag');
    c.res = undefined;
    c.res = out;
    return;
  }
  const res = c.res;
  if (res.status >= 400) {
    // An error page (unknown city, bad query) is never stored: the next request asks again.
    const out = new Response(res.body, res);
    out.headers.set('Cache-Control', 'no-store');
    out.headers.delete('ETag');
    c.res = undefined;
    c.res = out;
    return;
  }
  if (!isShareable(res)) return;
  // The edge cache stored one with its entry; any other public 200 gets it here.
  const tag = res.headers.get('ETag') ?? (await strongEtag(await res.clone().arrayBuffer()));
  if (etagMatches(tag, c.req.header('If-None-Match'))) {
    await res.body?.cancel();
    const headers = new Headers();
    for (const name of RETAINED_304) {
      const v = res.headers.get(name);
      if (v) headers.set(name, v);
    }
    headers.set('ETag', tag);
    headers.set('Cache-Control', PUBLIC_CACHE_CONTROL);
    c.res = undefined;
    c.res = new Response(null, { status: 304, headers });
    return;
  }
  // c.res headers may be immutable when the response came from the Cache API: rebuild it.
  const out = new Response(res.body, res);
  out.headers.set('Cache-Control', PUBLIC_CACHE_CONTROL);
  out.headers.set('ETag', tag);
  c.res = undefined;
  c.res = out;
});
