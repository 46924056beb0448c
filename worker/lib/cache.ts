/**
 * The cache rules every layer shares (issue 45.2: pure, no request context): the browser cache policy, the ETag,
 * and the edge cache's key (canonicalQuery, effectiveQuery, cacheKey). The edge cache itself, which reads the
 * request's context, is worker/middleware/edge-cache.ts.
 */
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

/** How long the Cache API keeps an edge-cache entry (keys change on every write, so this only bounds storage). */
const EDGE_TTL_S = 3600;
/** The Cache-Control an edge-cache entry is stored under (worker/middleware/edge-cache.ts; never sent to a browser). */
export const EDGE_STORE_CACHE_CONTROL = `public, max-age=${EDGE_TTL_S}`;

/**
 * The strong validator of a body (SHA-1, RFC 9110 §8.8.3), its one home: computed once when an edge-cache
 * entry is made (and stored with it), or by the middleware for a public response that was not cached.
 */
export async function strongEtag(body: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', body);
  return `"${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}"`;
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
