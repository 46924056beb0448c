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
import { getPublicAssets } from './assets';
import { currentDataVersion } from './data-version';
import { SESSION_COOKIE } from './session';

/** How long the Cache API keeps an entry (keys change on every write, so this only bounds storage). */
const EDGE_TTL_S = 3600;

/*
 * The browser cache policy has this one home; worker/middleware/http-cache.ts applies it to every public
 * GET (pages, listing, feeds, widgets, cards), and withEdgeCache below only marks personal answers.
 * Browsers and shared caches cannot see the data version, so their freshness is short and they
 * revalidate with the ETag afterwards (an unchanged page then costs a 304 without a body).
 */
/** Browser freshness: a write to public data reaches a returning visitor within this many seconds. */
export const BROWSER_MAX_AGE_S = 60;
/** After max-age, a cache may show the stored copy once while it revalidates in the background. */
export const STALE_WHILE_REVALIDATE_S = 600;
export const PUBLIC_CACHE_CONTROL = `public, max-age=${BROWSER_MAX_AGE_S}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_S}`;
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * The strong validator of a body (SHA-1, RFC 9110 §8.8.3), its one home: computed once when an edge-cache
 * entry is made (and stored with it), or by the middleware for a public response that was not cached.
 */
export async function strongEtag(body: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', body);
  return `"${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}"`;
}
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

/**
 * In development and test (never production) this parameter stays in the key whatever the route knows,
 * so a test or the bench (test/bench/run.ts) can ask for an uncached response with a unique `_b=…`.
 */
export const DEV_CACHE_BUST_PARAM = '_b';

/**
 * The query of a request as its cache key holds it: only the parameters the route names in `known`
 * (anything else — `?x=1`, `utm_source`, `fbclid` — cannot change the response, so it must not make a
 * new key: issue 26.4), empty values dropped (every contract reads them as absent), sorted by name.
 * Also what a response that echoes its own URL (a feed's self link) must use, so the stored body does
 * not carry the first requester's extra parameters.
 */
export function canonicalQuery(url: string, known: readonly string[]): string {
  const keep = new Set(known);
  const params = [...new URL(url).searchParams.entries()].filter(([k, v]) => keep.has(k) && v !== '');
  // By name only (a stable sort): repeated values keep their order, which a handler reading the first sees.
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(params).toString();
}

/**
 * What a lenient route reads from its query (issue 43.8), as the key of its answer: given the first value of
 * each parameter (what `c.req.query()` gives the route), the values it acts on — an invalid value it ignores
 * is left out (or stands as one marker for every invalid value, when the answer names what was ignored).
 */
export type EffectiveQuery = (query: Record<string, string>) => Record<string, string | undefined>;

/**
 * The query of a lenient route's cache key: `read` of the request's query (EffectiveQuery), empty values
 * dropped, sorted by name; `raw` names parameters kept as written (the development cache-bust).
 */
export function effectiveQuery(url: string, read: EffectiveQuery, raw: readonly string[] = []): string {
  const first: Record<string, string> = {};
  for (const [k, v] of new URL(url).searchParams) first[k] ??= v;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(read(first))) if (v !== undefined && v !== '') out[k] = v;
  for (const k of raw) if (first[k]) out[k] = first[k];
  const params = Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(params).toString();
}

/**
 * The versioned cache key of a request: build + data version + Stockholm date + path + the known query
 * parameters (canonicalQuery, or `query` when the route computed it: effectiveQuery). The build (the hashed
 * public entry file) is part of it because cached HTML links hashed assets that a new deployment removes:
 * without it every deploy would serve unstyled pages until the data changed.
 */
export function cacheKey(url: string, version: number, today: string, build = 'dev', known: readonly string[] = [], query?: string): string {
  const u = new URL(url);
  const q = query ?? canonicalQuery(url, known);
  return `https://edge-cache.quizkvall.internal/${encodeURIComponent(build)}/v${version}/${today}${u.pathname}${q ? `?${q}` : ''}`;
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
    stored.set('cache-control', `public, max-age=${EDGE_TTL_S}`);
    const put = cache.put(new Request(key), new Response(body.slice(0), { status: 200, headers: stored })).catch(() => undefined);
    try {
      c.executionCtx.waitUntil(put);
    } catch {
      await put;
    }
  }
  return respond(entry, 'MISS');
}
