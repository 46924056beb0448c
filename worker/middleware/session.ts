import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { SESSION_COOKIE, validateSessionToken } from '../lib/session';

/** Loads the session from the cookie into c.var.user / c.var.session (both null for visitors). */
export const sessionMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  c.set('user', null);
  c.set('session', null);
  const token = getCookie(c, SESSION_COOKIE);
  if (token) {
    const result = await validateSessionToken(c.var.db, token, c.var.clock.now());
    if (!result) {
      clearSessionCookie(c);
    } else {
      c.set('session', result.session);
      if (!result.session.mfaPending) c.set('user', result.user);
      if (result.renewed) setSessionCookie(c, token, result.session.expiresAt);
    }
  }
  await next();
});

/** HttpOnly, Secure (except on plain-http localhost), SameSite=Lax. */
export function setSessionCookie(c: Context<AppEnv>, token: string, expiresAtMs: number): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: new URL(c.req.url).protocol === 'https:' || !c.var.config.isDev,
    sameSite: 'Lax',
    path: '/',
    // Max-Age relative to the request clock (a pinned clock may be far from the wall clock; Hono
    // refuses an Expires more than 400 days after the wall clock).
    maxAge: Math.min(400 * 24 * 3600, Math.max(0, Math.floor((expiresAtMs - c.var.clock.now().getTime()) / 1000))),
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
}
