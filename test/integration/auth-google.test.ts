/** Issue 4: Google sign-in — the port against a strictly faked token endpoint, the service, the routes. */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthAccounts, passwordCredentials, userRoles, users } from '../../worker/db/schema';
import { completeGoogleSignIn } from '../../worker/features/auth/google';
import { createGooglePort, GOOGLE_TOKEN_URL, type GooglePort } from '../../worker/ports/google';
import { call, callJson, createUser, testDb, testDeps, unique } from '../factories';
import { testApp } from '../test-app';

const CLIENT_ID = 'client-123.apps.googleusercontent.com';
const REDIRECT = 'http://localhost/api/auth/google/callback';

function b64url(obj: unknown): string {
  return btoa(JSON.stringify(obj)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function idToken(claims: Record<string, unknown>): string {
  return `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ iss: 'https://accounts.google.com', aud: CLIENT_ID, ...claims })}.c2ln`;
}

/** A fake token endpoint that accepts exactly one code + verifier and checks every parameter. */
function strictGoogle(expect_: { code: string; verifier: string }, claims: Record<string, unknown>, calls: string[]): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push(url);
    if (url !== GOOGLE_TOKEN_URL || init?.method !== 'POST') return new Response('unexpected', { status: 500 });
    const p = new URLSearchParams(String(init.body));
    const ok =
      p.get('grant_type') === 'authorization_code' &&
      p.get('code') === expect_.code &&
      p.get('code_verifier') === expect_.verifier &&
      p.get('redirect_uri') === REDIRECT &&
      p.get('client_id') === CLIENT_ID &&
      p.get('client_secret') === 'secret-xyz';
    if (!ok) return Response.json({ error: 'invalid_grant' }, { status: 400 });
    return Response.json({ access_token: 'at', token_type: 'Bearer', expires_in: 3600, id_token: idToken(claims) });
  }) as typeof fetch;
}

/** The service's deps, as a request builds them (the outbox mailer, real time). */
const deps = () => testDeps({ config: { superadminEmails: ['super@test.local'] } });

describe('Google port', () => {
  it('builds an authorization URL with state and S256 PKCE', () => {
    const port = createGooglePort({ clientId: CLIENT_ID, clientSecret: 'secret-xyz', redirectUri: REDIRECT });
    const url = port.authorizationUrl('state-1', 'verifier-verifier-verifier-verifier-verifier');
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(url.searchParams.get('state')).toBe('state-1');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('scope')).toContain('email');
  });

  it('exchanges the code with the verifier and reads the ID token claims', async () => {
    const calls: string[] = [];
    const port = createGooglePort({
      clientId: CLIENT_ID,
      clientSecret: 'secret-xyz',
      redirectUri: REDIRECT,
      fetcher: strictGoogle({ code: 'c1', verifier: 'v1' }, { sub: 'g-1', email: 'Anna@Example.se', email_verified: true }, calls),
    });
    expect(await port.exchange('c1', 'v1')).toEqual({ sub: 'g-1', email: 'anna@example.se', emailVerified: true });
    expect(calls).toEqual([GOOGLE_TOKEN_URL]);
    await expect(port.exchange('c1', 'wrong-verifier')).rejects.toThrow(/400/);
  });

  it('refuses an ID token issued to another client', async () => {
    const port = createGooglePort({
      clientId: CLIENT_ID,
      clientSecret: 'secret-xyz',
      redirectUri: REDIRECT,
      fetcher: strictGoogle({ code: 'c', verifier: 'v' }, { sub: 'g', email: 'a@b.se', email_verified: true, aud: 'other-client' }, []),
    });
    await expect(port.exchange('c', 'v')).rejects.toThrow(/another client/);
  });
});

describe('completeGoogleSignIn', () => {
  it('creates a verified owner for a new Google account and signs the same one in again', async () => {
    const sub = unique('g');
    const email = `${unique('google')}@test.local`;
    const first = await completeGoogleSignIn(deps(), { sub, email, emailVerified: true });
    expect(first.created).toBe(true);
    const [u] = await testDb().select().from(users).where(eq(users.id, first.userId));
    expect(u!.emailVerifiedAt).not.toBeNull();
    expect((await testDb().select().from(userRoles).where(eq(userRoles.userId, u!.id))).map((r) => r.role)).toEqual(['admin']);
    const again = await completeGoogleSignIn(deps(), { sub, email: 'changed@test.local', emailVerified: false });
    expect(again).toEqual({ userId: first.userId, created: false });
  });

  it('links an existing account only when Google says the e-mail is verified', async () => {
    const existing = await createUser();
    await expect(completeGoogleSignIn(deps(), { sub: unique('g'), email: existing.email, emailVerified: false })).rejects.toThrow();
    expect(await testDb().select().from(oauthAccounts).where(eq(oauthAccounts.userId, existing.id))).toEqual([]);
    const linked = await completeGoogleSignIn(deps(), { sub: unique('g'), email: existing.email, emailVerified: true });
    expect(linked).toEqual({ userId: existing.id, created: false });
    expect(await testDb().select().from(oauthAccounts).where(eq(oauthAccounts.userId, existing.id))).toHaveLength(1);
    // The password keeps working.
    expect((await call('/api/auth/login', { body: { email: existing.email, password: existing.password } })).status).toBe(200);
  });

  it('drops the password of an unconfirmed squatter account when the real owner comes through Google', async () => {
    const squatter = await createUser({ verified: false, roles: [] });
    const r = await completeGoogleSignIn(deps(), { sub: unique('g'), email: squatter.email, emailVerified: true });
    expect(r.userId).toBe(squatter.id);
    expect(await testDb().select().from(passwordCredentials).where(eq(passwordCredentials.userId, squatter.id))).toEqual([]);
    expect((await testDb().select().from(users).where(eq(users.id, squatter.id)))[0]!.emailVerifiedAt).not.toBeNull();
  });
});

describe('Google routes', () => {
  it('without GOOGLE_CLIENT_ID: config says disabled and the start sends back with an error', async () => {
    expect((await callJson('/api/auth/config')).body).toEqual({ googleEnabled: false });
    const res = await call('/api/auth/google?mode=register');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/register?error=google_unavailable');
  });

  it('with a (fake) Google: state + PKCE cookies, callback signs in; a wrong state is refused', async () => {
    const sub = unique('g');
    const email = `${unique('gr')}@test.local`;
    let verifierSeen = '';
    const fake: GooglePort = {
      authorizationUrl: (state, verifier) => {
        verifierSeen = verifier;
        return new URL(`https://accounts.google.com/o/oauth2/v2/auth?state=${state}`);
      },
      exchange: async (code, verifier) => {
        if (code !== 'good-code' || verifier !== verifierSeen) throw new Error('bad exchange');
        return { sub, email, emailVerified: true };
      },
    };
    // The fake goes in through the same door as production's port: the app's port factories.
    const app = testApp({ google: () => fake });
    expect((await callJson('/api/auth/config', { app })).body).toEqual({ googleEnabled: true });
    const start = await call('/api/auth/google?mode=login&redirect=%2Fadmin', { app });
    expect(start.status).toBe(302);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const cookies = start.headers.getSetCookie().map((c) => c.split(';')[0]!);
    expect(cookies.some((c) => c.startsWith('qk_google_state='))).toBe(true);
    expect(start.headers.getSetCookie().every((c) => /HttpOnly/i.test(c))).toBe(true);
    const cookie = cookies.join('; ');

    const forged = await call(`/api/auth/google/callback?code=good-code&state=not-the-state`, { cookie, app });
    expect(forged.headers.get('location')).toBe('/login?error=google_failed');
    expect(await testDb().select().from(users).where(eq(users.email, email))).toEqual([]);

    const ok = await call(`/api/auth/google/callback?code=good-code&state=${state}`, { cookie, app });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/auth-redirect?redirect=%2Fadmin');
    const session = ok.headers
      .getSetCookie()
      .find((c) => c.startsWith('qk_session='))!
      .split(';')[0]!;
    expect((await callJson('/api/auth/session', { cookie: session })).body.user.email).toBe(email);
  });
});
