/**
 * Edge cache for anonymous public GETs: server-rendered pages and listing responses. Two levels with
 * the same key: a small in-isolate memory map (no I/O at all on a hit) in front of the Cache API
 * (caches.default, shared by the isolates of a data centre).
 *
 * The key holds the public-data version (worker/lib/data-version.ts, memoized per isolate for at most
 * DATA_VERSION_TTL_MS, so a hit costs no D1 read) and the Stockholm date, so a write that bumps the
 * version, or midnight, makes the next request miss; old entries are simply
 * never read again. A request carrying the session cookie is never read from or written to the cache,
 * and a response that sets a cookie or is not a 200 is never stored. Correctness never depends on it.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../context';
import { getPublicAssets } from '../lib/assets';
import { cacheKey, DEV_CACHE_BUST_PARAM, EDGE_STORE_CACHE_CONTROL, effectiveQuery, PRIVATE_CACHE_CONTROL, strongEtag, type EffectiveQuery } from '../lib/cache';
import { currentDataVersion } from '../lib/data-version';
import { SESSION_COOKIE } from '../lib/session';

/** In-isolate level: at most this many entries and bytes (least recently used out first). */
const MEMORY_MAX_ENTRIES = 200;
const MEMORY_MAX_BYTES = 8 * 1024 * 1024;

interface MemoryEntry {
  body: ArrayBuffer;
  headers: Array<[string, string]>;
}
const memory = new Map<string, MemoryEntry>();
let memoryBytes = 0;

function memoryGet(key: string): MemoryEntry | undefined {
  const hit = memory.get(key);
  if (hit) {
    memory.delete(key);
    memory.set(key, hit);
  }
  return hit;
}

function memoryPut(key: string, entry: MemoryEntry): void {
  if (entry.body.byteLength > MEMORY_MAX_BYTES / 8) return;
  const old = memory.get(key);
  if (old) memoryBytes -= old.body.byteLength;
  memory.delete(key);
  memory.set(key, entry);
  memoryBytes += entry.body.byteLength;
  while (memory.size > MEMORY_MAX_ENTRIES || memoryBytes > MEMORY_MAX_BYTES) {
    const oldest = memory.keys().next().value as string;
    memoryBytes -= memory.get(oldest)!.body.byteLength;
    memory.delete(oldest);
  }
}

/** True when the request may be served from and stored in the shared cache. */
function isAnonymousGet(c: Context<AppEnv>): boolean {
  return (c.req.method === 'GET' || c.req.method === 'HEAD') && getCookie(c, SESSION_COOKIE) === undefined && !c.var.user;
}

function edgeCache(): Cache | null {
  try {
    return (globalThis as unknown as { caches?: { default?: Cache } }).caches?.default ?? null;
  } catch {
    return null;
  }
}

function respond(entry: MemoryEntry, xcache: string): Response {
  const headers = new Headers(entry.headers);
  // The browser policy is the middleware's (PUBLIC_CACHE_CONTROL); the Cache API's own TTL stays inside.
  headers.delete('cache-control');
  headers.set('x-cache', xcache);
  return new Response(entry.body.slice(0), { status: 200, headers });
}

export interface EdgeCacheOptions {
  /**
   * The query parameters the route reads (e.g. the keys of its zod contract). Only these are part of the
   * key; the default is none. `produce` must not read any other parameter.
   */
  query?: readonly string[];
  /**
   * For a route that ignores invalid values instead of refusing them (the pages, the widgets): what it reads
   * from the query. The key then holds these values, not the raw ones, so junk values of a known parameter
   * (`?weekday=x1`, `?weekday=x2` …) share the entry of the request without them (issue 43.8). Replaces `query`.
   */
  effective?: EffectiveQuery;
}

/**
 * Serves from the cache or renders with `produce` and stores the result. Personal requests (session
 * cookie) always run `produce` and are marked `private, no-store`. Adds `x-cache: HIT|MISS|BYPASS`.
 */
export async function withEdgeCache(c: Context<AppEnv>, produce: () => Promise<Response>, opts: EdgeCacheOptions = {}): Promise<Response> {
  if (!isAnonymousGet(c)) {
    const res = await produce();
    const out = new Response(res.body, res);
    out.headers.set('cache-control', PRIVATE_CACHE_CONTROL);
    out.headers.set('x-cache', 'BYPASS');
    return out;
  }
  const version = await currentDataVersion(c.var.db);
  // The hashed entry and stylesheet names: pages inline the CSS and name both (issue 19 §1).
  const assets = await getPublicAssets(c.env.ASSETS);
  const build = assets.script ? [assets.script, ...assets.styles].join(',') : 'nobuild';
  const bust = c.var.config.isDev ? [DEV_CACHE_BUST_PARAM] : [];
  const known = [...(opts.query ?? []), ...bust];
  const query = opts.effective ? effectiveQuery(c.req.url, opts.effective, bust) : undefined;
  const key = cacheKey(c.req.url, version, c.var.clock.today(), build, known, query);
  const mem = memoryGet(key);
  if (mem) return respond(mem, 'HIT');
  const cache = edgeCache();
  const hit = cache ? await cache.match(new Request(key)).catch(() => undefined) : undefined;
  if (hit) {
    const entry: MemoryEntry = { body: await hit.arrayBuffer(), headers: [...hit.headers.entries()] };
    memoryPut(key, entry);
    return respond(entry, 'HIT');
  }
  const res = await produce();
  if (res.status !== 200 || res.headers.has('set-cookie')) {
    const out = new Response(res.body, res);
    out.headers.set('x-cache', 'MISS');
    return out;
  }
  const body = await res.arrayBuffer();
  const headers = new Headers(res.headers);
  headers.set('etag', await strongEtag(body));
  headers.delete('x-cache');
  const entry: MemoryEntry = { body, headers: [...headers.entries()] };
  memoryPut(key, entry);
  if (cache) {
    const stored = new Headers(headers);
    stored.set('cache-control', EDGE_STORE_CACHE_CONTROL);
    const put = cache.put(new Request(key), new Response(body.slice(0), { status: 200, headers: stored })).catch(() => undefined);
    try {
      c.executionCtx.waitUntil(put);
    } catch {
      await put;
    }
  }
  return respond(entry, 'MISS');
}
