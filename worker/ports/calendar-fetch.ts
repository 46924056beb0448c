/**
 * Outbound fetching of owners' calendar addresses (issue 31.2, ARCHITECTURE "Wave 3": one guarded
 * helper). The fetch function is injected: `globalThis.fetch` in production, a fake in tests (no network).
 *
 * Guards, checked for the address and again for every redirect (followed by hand, at most
 * MAX_REDIRECTS): https only, no private, loopback, link-local or internal host names (both allowed when
 * `allowPrivate`, i.e. APP_ENV=development, so a local test server can be synced); the whole download
 * within `timeoutMs`; the body read as a stream and cut off (an error) past `maxBytes`.
 * Workers cannot resolve DNS before fetching, so a public name pointing at a private address is not
 * caught here; Cloudflare's own egress does not reach private networks.
 */
import ipaddr from 'ipaddr.js';
import { FEED_TIMEOUT_MS, MAX_FEED_BYTES } from '../lib/calendar-limits';

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

export type FeedFetchFailure = 'not_https' | 'private' | 'too_large' | 'timeout' | 'http' | 'network' | 'redirects';

/**
 * A refusal or failure of the fetch, by its code (and the HTTP status for `http`). The port holds no texts: the
 * calendar-sync feature words each code for the owner in Swedish (its CALENDAR_MESSAGES).
 */
export class FeedFetchError extends Error {
  constructor(
    readonly code: FeedFetchFailure,
    readonly status?: number,
  ) {
    super(`calendar fetch failed: ${code}${status ? ` ${status}` : ''}`);
    this.name = 'FeedFetchError';
  }
}

export interface CalendarFetcher {
  /** The calendar's text; throws FeedFetchError. */
  fetchText(url: string): Promise<string>;
}

export const MAX_REDIRECTS = 3;

export interface CalendarFetchOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * Last labels of special-use domain names (RFC 6761 and IANA's registry: localhost, local, home.arpa, test …) and
 * of the names clusters, companies and home routers answer for (svc, cluster.local, internal, lan …): a name
 * ending in one is never fetched.
 */
const INTERNAL_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'svc',
  'arpa',
  'test',
  'invalid',
  'example',
  'onion',
  'alt',
];

/**
 * True for an IP literal (without brackets) that is not global unicast, judged by ipaddr.js's ranges from IANA's
 * special-purpose registries: an IPv4 address must be in none of them (private, loopback, link-local, CGNAT,
 * "this network", IETF protocol 192.0.0/24, documentation, benchmarking 198.18/15, AS112, AMT, 6to4 relay,
 * multicast, reserved, broadcast). An IPv6 address must lie in 2000::/3 and in none of them either, so every form
 * that embeds an IPv4 address (::a.b.c.d, ::ffff:…, ::ffff:0:…, 64:ff9b::/96 and /48, 2002::/16, Teredo
 * 2001::/32) is refused outright, as are site-local fec0::/10, discard 100::/64, ULA, link-local and multicast.
 * Null when `host` is no IP literal.
 */
export function isSpecialAddress(host: string): boolean | null {
  if (!ipaddr.isValid(host)) return null;
  const addr = ipaddr.parse(host);
  if (addr.kind() === 'ipv4') return addr.range() !== 'unicast';
  const v6 = addr as ipaddr.IPv6;
  return !v6.match(GLOBAL_UNICAST_V6) || v6.range() !== 'unicast';
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * True for a host name a production Worker must not fetch: an IP literal outside global unicast (any notation
 * the URL parser or ipaddr.js reads: decimal, octal and hex IPv4 too), a name with an empty label
 * (`localhost..`), a single-label name, a special-use or cluster name (`*.localhost`, `*.local`, `*.internal`,
 * `*.svc`, `*.cluster.local` …), and a name whose last label is numeric (the URL standard reads it as IPv4).
 */
export function isPrivateHost(hostname: string): boolean {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) return isSpecialAddress(host.slice(1, -1)) !== false;
  if (host.includes(':')) return isSpecialAddress(host) !== false; // IPv6 without brackets (URL.hostname always has them)
  const literal = isSpecialAddress(host);
  if (literal !== null) return literal;
  if (host.endsWith('.')) host = host.slice(0, -1); // one trailing dot: the root; a second leaves an empty label
  const labels = host.split('.');
  if (labels.length < 2 || labels.some((l) => l === '')) return true;
  const last = labels[labels.length - 1]!;
  if (/^(\d+|0x[0-9a-f]*)$/.test(last)) return true; // numeric last label: an IPv4 form, or nothing the URL parser takes
  return INTERNAL_SUFFIXES.includes(last);
}

function checkUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FeedFetchError('network');
  }
  const httpOk = allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpOk) throw new FeedFetchError('not_https');
  if (url.username || url.password) throw new FeedFetchError('network');
  if (!allowPrivate && isPrivateHost(url.hostname)) throw new FeedFetchError('private');
  return url;
}

async function readCapped(res: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new FeedFetchError('too_large');
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new FeedFetchError('timeout'));
    signal.addEventListener('abort', () => reject(new FeedFetchError('timeout')), { once: true });
  });
  aborted.catch(() => {});
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw new FeedFetchError('too_large');
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    throw err;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder('utf-8').decode(all);
}

export function createCalendarFetcher(fetchFn: FetchFn, opts: CalendarFetchOptions): CalendarFetcher {
  const timeoutMs = opts.timeoutMs ?? FEED_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? MAX_FEED_BYTES;
  return {
    async fetchText(raw) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      const timedOut = new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(new FeedFetchError('timeout')), { once: true }),
      );
      timedOut.catch(() => {});
      try {
        let url = checkUrl(raw, opts.allowPrivate);
        for (let hop = 0; ; hop++) {
          let res: Response;
          try {
            res = await Promise.race([
              fetchFn(url.toString(), { method: 'GET', redirect: 'manual', signal: controller.signal, headers: { accept: 'text/calendar, text/plain;q=0.5' } }),
              timedOut,
            ]);
          } catch (err) {
            if (err instanceof FeedFetchError) throw err;
            if (controller.signal.aborted) throw new FeedFetchError('timeout');
            throw new FeedFetchError('network');
          }
          if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
            await res.body?.cancel().catch(() => {});
            if (hop >= MAX_REDIRECTS) throw new FeedFetchError('redirects');
            url = checkUrl(new URL(res.headers.get('location')!, url).toString(), opts.allowPrivate);
            continue;
          }
          if (!res.ok) {
            await res.body?.cancel().catch(() => {});
            throw new FeedFetchError('http', res.status);
          }
          return await readCapped(res, maxBytes, controller.signal);
        }
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The production fetcher: the Worker's own fetch; private addresses only in development. */
export function createProductionCalendarFetcher(config: { appEnv: string }): CalendarFetcher {
  return createCalendarFetcher((input, init) => fetch(input, init), { allowPrivate: config.appEnv === 'development' });
}
