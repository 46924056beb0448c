import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { generateCodeVerifier, generateState } from 'arctic';
import type { AppEnv } from '../../context';
import { isSuperadmin } from '../../lib/authz';
import { unauthorized } from '../../lib/errors';
import { createSession, invalidateSession } from '../../lib/session';
import { hashesEqual, hashToken } from '../../lib/tokens';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import type { GoogleProfile } from '../../ports/google';
import { clearSessionCookie, setSessionCookie } from '../../middleware/session';
import {
  EmailOnlySchema,
  GoogleStartSchema,
  LoginSchema,
  ResetCheckSchema,
  ResetPasswordSchema,
  RegisterSchema,
  ResendSchema,
  safeRedirect,
  TotpLoginSchema,
  VerifySchema,
} from './contract';
import { DEVICE_COOKIE, DEVICE_TTL_S, deviceTokensOf } from './device';
import { findUserById, rolesOf } from './queries';
import { completeGoogleSignIn } from './google';
import { deviceCookieAfterSignIn, login, startSession, verifyLoginCode } from './login';
import { register, resendVerification, verifyEmail } from './registration';
import { checkResetToken, requestPasswordReset, resetPassword } from './reset';

const clientKey = (c: Context<AppEnv>) => clientKeyOf(c.req);

async function publicUser(c: Context<AppEnv>, userId: string) {
  const row = await findUserById(c.var.db, userId);
  const roles = await rolesOf(c.var.db, userId);
  return { id: userId, email: row?.email ?? '', roles, isSuperadmin: roles.includes('superadmin') };
}

/** After a completed sign-in: the device cookie (issue 26.5) for this account, only on /api/auth. */
async function setDeviceCookie(c: Context<AppEnv>, userId: string): Promise<void> {
  const value = await deviceCookieAfterSignIn(c.var.deps, { userId, previous: deviceTokensOf(getCookie(c, DEVICE_COOKIE)) });
  if (!value) return;
  setCookie(c, DEVICE_COOKIE, value, {
    httpOnly: true,
    secure: new URL(c.req.url).protocol === 'https:' || !c.var.config.isDev,
    sameSite: 'Strict',
    path: '/api/auth',
    maxAge: DEVICE_TTL_S,
  });
}

async function signIn(c: Context<AppEnv>, userId: string): Promise<{ mfaRequired: boolean }> {
  const { token, session, mfaRequired } = await startSession(c.var.deps, { userId });
  setSessionCookie(c, token, session.expiresAt);
  return { mfaRequired };
}

const OAUTH_COOKIE = { httpOnly: true, sameSite: 'Lax' as const, path: '/api/auth/google', maxAge: 600 };

export const authRoutes = new Hono<AppEnv>()
  .get('/session', async (c) => {
    c.header('cache-control', 'no-store');
    const user = c.var.user;
    return c.json({
      user: user ? { id: user.id, email: user.email, roles: user.roles, isSuperadmin: isSuperadmin(user) } : null,
      expiresAt: user && c.var.session ? c.var.session.expiresAt : null,
      mfaPending: !user && !!c.var.session?.mfaPending,
    });
  })
  .get('/config', (c) => c.json({ googleEnabled: !!c.var.deps.google }))
  .post('/login', validate('json', LoginSchema), async (c) => {
    const result = await login(c.var.deps, { ...c.req.valid('json'), clientKey: clientKey(c), deviceTokens: deviceTokensOf(getCookie(c, DEVICE_COOKIE)) });
    if (c.var.session) await invalidateSession(c.var.db, c.var.session.id);
    const { mfaRequired } = await signIn(c, result.userId);
    if (mfaRequired) return c.json({ mfaRequired: true as const });
    await setDeviceCookie(c, result.userId);
    return c.json({ user: await publicUser(c, result.userId) });
  })
  .post('/login/totp', validate('json', TotpLoginSchema), async (c) => {
    const session = c.var.session;
    if (!session?.mfaPending) throw unauthorized('Ingen inloggning väntar på en kod. Logga in igen.');
    await verifyLoginCode(c.var.deps, { userId: session.userId, pendingSessionId: session.id, code: c.req.valid('json').code });
    const { token, session: full } = await createSession(c.var.db, session.userId, c.var.clock.now());
    setSessionCookie(c, token, full.expiresAt);
    await setDeviceCookie(c, session.userId);
    return c.json({ user: await publicUser(c, session.userId) });
  })
  .post('/logout', async (c) => {
    if (c.var.session) await invalidateSession(c.var.db, c.var.session.id);
    clearSessionCookie(c);
    return c.json({ ok: true });
  })
  .post('/register', validate('json', RegisterSchema), async (c) => {
    const result = await register(c.var.deps, { ...c.req.valid('json'), clientKey: clientKey(c) });
    return c.json(result, 201);
  })
  .post('/resend', validate('json', ResendSchema), async (c) => {
    const { email, takeoverVenue } = c.req.valid('json');
    await resendVerification(c.var.deps, { email, takeoverVenue, clientKey: clientKey(c) });
    return c.json({ ok: true });
  })
  .post('/verify', validate('json', VerifySchema), async (c) => {
    const result = await verifyEmail(c.var.deps, { token: c.req.valid('json').token });
    if (c.var.session) await invalidateSession(c.var.db, c.var.session.id);
    const { mfaRequired } = await signIn(c, result.userId);
    return c.json({ user: mfaRequired ? null : await publicUser(c, result.userId), mfaRequired, takeoverVenue: result.takeoverVenue });
  })
  .post('/forgot', validate('json', EmailOnlySchema), async (c) => {
    await requestPasswordReset(c.var.deps, {
      email: c.req.valid('json').email,
      clientKey: clientKey(c),
      // The reset mail leaves after the answer, so known and unknown addresses answer alike.
      defer: (work) => c.executionCtx.waitUntil(work),
    });
    return c.json({ ok: true });
  })
  .post('/reset/check', validate('json', ResetCheckSchema), async (c) => {
    await checkResetToken(c.var.deps, c.req.valid('json'));
    return c.json({ ok: true });
  })
  .post('/reset', validate('json', ResetPasswordSchema), async (c) => {
    const { token, password } = c.req.valid('json');
    await resetPassword(c.var.deps, { token, password });
    clearSessionCookie(c);
    return c.json({ ok: true });
  })
  .get('/google', validate('query', GoogleStartSchema), async (c) => {
    const q = c.req.valid('query');
    const back = q.mode === 'register' ? '/register' : '/login';
    const google = c.var.deps.google;
    if (!google) return c.redirect(`${back}?error=google_unavailable`);
    const state = generateState();
    const verifier = generateCodeVerifier();
    const secure = new URL(c.req.url).protocol === 'https:' || !c.var.config.isDev;
    setCookie(c, 'qk_google_state', state, { ...OAUTH_COOKIE, secure });
    setCookie(c, 'qk_google_verifier', verifier, { ...OAUTH_COOKIE, secure });
    setCookie(c, 'qk_google_next', JSON.stringify({ mode: q.mode ?? 'login', redirect: safeRedirect(q.redirect), takeoverVenue: q.takeoverVenue ?? null }), {
      ...OAUTH_COOKIE,
      secure,
    });
    return c.redirect(google.authorizationUrl(state, verifier).toString());
  })
  .get('/google/callback', async (c) => {
    const state = getCookie(c, 'qk_google_state');
    const verifier = getCookie(c, 'qk_google_verifier');
    let next: { mode?: string; redirect?: string | null; takeoverVenue?: string | null } = {};
    try {
      next = JSON.parse(getCookie(c, 'qk_google_next') ?? '{}');
    } catch {
      next = {};
    }
    for (const name of ['qk_google_state', 'qk_google_verifier', 'qk_google_next']) deleteCookie(c, name, { path: OAUTH_COOKIE.path });
    const back = next.mode === 'register' ? '/register' : '/login';
    const fail = `${back}?error=${next.mode === 'register' ? 'google_register_failed' : 'google_failed'}`;
    const code = c.req.query('code');
    const returned = c.req.query('state');
    const google = c.var.deps.google;
    if (!google) return c.redirect(`${back}?error=google_unavailable`);
    if (!code || !returned || !state || !verifier || !hashesEqual(hashToken(state), hashToken(returned))) return c.redirect(fail);
    let profile: GoogleProfile;
    try {
      profile = await google.exchange(code, verifier);
    } catch (err) {
      console.error('google exchange failed', (err as Error).message);
      return c.redirect(fail);
    }
    let userId: string;
    try {
      userId = (await completeGoogleSignIn(c.var.deps, profile)).userId;
    } catch {
      return c.redirect(fail);
    }
    if (c.var.session) await invalidateSession(c.var.db, c.var.session.id);
    const { mfaRequired } = await signIn(c, userId);
    if (mfaRequired) return c.redirect(`/login?mfa=1${next.redirect ? `&redirect=${encodeURIComponent(next.redirect)}` : ''}`);
    if (next.takeoverVenue) return c.redirect(`/verify?session=1&takeoverVenue=${encodeURIComponent(next.takeoverVenue)}`);
    return c.redirect(next.redirect ? `/auth-redirect?redirect=${encodeURIComponent(next.redirect)}` : '/auth-redirect');
  });
