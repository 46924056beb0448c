import type { Context } from 'hono';
import { generateCookie, getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { countingD1, createDb, newD1Stats, type D1Like, type D1Stats } from '../db/client';
import { parseConfig } from '../env';
import { isSuperadmin } from '../lib/authz';
import { createClock } from '../lib/clock';
import { SESSION_COOKIE } from '../lib/session';
import { createDeps, productionPorts, type PortFactories } from '../ports/deps';

/** The last D1 bookmark a browser has seen (read-your-writes across requests; Sessions API). */
export const D1_BOOKMARK_COOKIE = 'qk_d1';
/** The same bookmark for API clients: sent on a request, answered on every response that has one. */
export const D1_BOOKMARK_HEADER = 'x-d1-bookmark';
export const D1_ROWS_READ_HEADER = 'x-d1-rows-read';
export const D1_ROWS_WRITTEN_HEADER = 'x-d1-rows-written';
export const D1_STATEMENTS_HEADER = 'x-d1-statements';
/** APP_ENV=test only: a request with `x-d1-log: 1` gets each statement's rows read/written and SQL (URI-encoded JSON). */
export const D1_LOG_HEADER = 'x-d1-log';
/** A bookmark outlives the replication lag by far; a day keeps an owner's tab consistent between visits. */
const BOOKMARK_MAX_AGE_S = 24 * 3600;

/**
 * D1 bookmarks are hex fields joined by dashes (`00000085-0000024c-00004c6d-8e61117b…`). Anything
 * else from a cookie or header is ignored rather than handed to D1 (which would fail every query).
 */
export function validBookmark(value: string | undefined | null): string | null {
  const v = value?.trim();
  return v && v.length <= 200 && /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){1,7}$/i.test(v) ? v : null;
}

/**
 * The Sessions API constraint of a request: the bookmark it carries (header first, then cookie), so
 * a reader after a write sees that write on any replica; without one, a write or a signed-in request
 * starts on the primary (an owner always reads their own data), and an anonymous read may start on
 * any replica (`first-unconstrained`: the public pages and listing, cached at the edge anyway).
 */
export function sessionConstraint(opts: { bookmark: string | null; write: boolean; signedIn: boolean }): string {
  if (opts.bookmark) return opts.bookmark;
  return opts.write || opts.signedIn ? 'first-primary' : 'first-unconstrained';
}

/** Sets headers on c.res, rebuilding it when its headers are immutable (a Cache API response). */
function editHeaders(c: Context<AppEnv>, apply: (h: Headers) => void) {
  try {
    apply(c.res.headers);
  } catch {
    const out = new Response(c.res.body, c.res);
    apply(out.headers);
    c.res = undefined;
    c.res = out;
  }
}

/**
 * Per request: parsed config, drizzle db, Stockholm clock, and the deps with the ports (made by
 * `ports`: production's, or a test's fakes through createApp). The one place the database is
 * opened: a D1 session (read replicas; the bookmark round trip above) and, when config.d1Stats is
 * on, the counting wrapper whose totals go out as x-d1-rows-read / x-d1-rows-written / x-d1-statements:
 * to everyone outside production (development, test, the bench), in production (staging's D1_STATS=1) only
 * to a signed-in superadmin — they tell how much a request costs and how busy the database is (issue 43.9).
 */
export const contextMiddleware = (ports: PortFactories = productionPorts) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const config = parseConfig(c.env);
    const write = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    const signedIn = getCookie(c, SESSION_COOKIE) !== undefined;
    const cookieBookmark = validBookmark(getCookie(c, D1_BOOKMARK_COOKIE));
    const incoming = validBookmark(c.req.header(D1_BOOKMARK_HEADER)) ?? cookieBookmark;
    const binding = c.env.DB;
    const session: D1DatabaseSession | null =
      typeof binding.withSession === 'function' ? binding.withSession(sessionConstraint({ bookmark: incoming, write, signedIn })) : null;
    const stats: D1Stats | null = config.d1Stats ? newD1Stats() : null;
    if (stats && config.isTest && c.req.header(D1_LOG_HEADER) === '1') stats.log = [];
    const client: D1Like = session ?? binding;
    const db = createDb(stats ? countingD1(client, stats) : client);
    c.set('config', config);
    c.set('db', db);
    // Tests pin the clock per request; only honoured when APP_ENV=test.
    const headerClock = config.isTest ? c.req.header('x-clock-now') : undefined;
    const clock = createClock(headerClock || config.clockNow);
    c.set('clock', clock);
    c.set('deps', createDeps({ db, config, clock, env: c.env }, ports));
    await next();
    const bookmark = session?.getBookmark() ?? null;
    // The cookie only where a response is personal anyway: after a write, or for a signed-in browser.
    // An anonymous GET never gets a Set-Cookie, so public pages stay shareable by every cache.
    const cookie =
      bookmark && bookmark !== cookieBookmark && (write || signedIn)
        ? generateCookie(D1_BOOKMARK_COOKIE, bookmark, {
            httpOnly: true,
            secure: new URL(c.req.url).protocol === 'https:' || !config.isDev,
            sameSite: 'Lax',
            path: '/',
            maxAge: BOOKMARK_MAX_AGE_S,
          })
        : null;
    // The session middleware runs inside this one: c.var.user is known now (unset when a guard answered first).
    const showStats = stats !== null && (config.isDev || isSuperadmin(c.var.user ?? null));
    if (!bookmark && !showStats) return;
    editHeaders(c, (h) => {
      if (bookmark) h.set(D1_BOOKMARK_HEADER, bookmark);
      if (cookie) h.append('Set-Cookie', cookie);
      if (stats && showStats) {
        h.set(D1_ROWS_READ_HEADER, String(stats.rowsRead));
        h.set(D1_ROWS_WRITTEN_HEADER, String(stats.rowsWritten));
        h.set(D1_STATEMENTS_HEADER, `${stats.statements}${stats.unmeasured ? `; unmeasured=${stats.unmeasured}` : ''}`);
        if (stats.log)
          h.set(D1_LOG_HEADER, encodeURIComponent(JSON.stringify(stats.log.map((l) => [l.rowsRead, l.rowsWritten, l.sql.replace(/\s+/g, ' ').slice(0, 300)]))));
      }
    });
  });
