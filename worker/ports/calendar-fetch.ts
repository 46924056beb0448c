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

/** IPv4 a.b.c.d in a private, loopback, link-local, CGNAT, "this network" or multicast range. */
function privateV4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    a >= 224
  );
}

/** True for a host name a production Worker must not fetch (literal private IPs, localhost, internal names). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (!host.includes('.') && !host.includes(':')) return true; // "localhost", "intranet", bare numbers
  if (/(^|\.)(localhost|local|internal|intranet|lan|home\.arpa)$/.test(host)) return true;
  if (/^[\d.]+$/.test(host) && !/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(host)) return true; // odd numeric forms
  if (privateV4(host)) return true;
  if (host.includes(':')) {
    if (host === '::' || host === '::1') return true;
    if (/^(fc|fd)/.test(host) || /^fe[89ab]/.test(host) || /^ff/.test(host)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped && privateV4(mapped[1]!)) return true;
    if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(host)) return true; // mapped v4 in hex form: refuse outright
  }
  return false;
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
