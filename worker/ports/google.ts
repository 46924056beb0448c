/**
 * Google sign-in port (OpenID Connect, authorization code + PKCE). The authorization URL is built by
 * arctic; the code exchange is a plain POST to Google's token endpoint through an injectable fetcher,
 * so tests can fake Google strictly. The ID token comes straight from Google over TLS in the code
 * exchange, so its claims are read without a signature check (OIDC Core §3.1.3.7).
 */
import { decodeIdToken, Google } from 'arctic';

export interface GoogleProfile {
  /** Google's stable user id ("sub"). */
  sub: string;
  email: string;
  emailVerified: boolean;
}

export interface GooglePort {
  authorizationUrl(state: string, codeVerifier: string): URL;
  /** Exchanges the callback code; throws when Google refuses it or the answer is malformed. */
  exchange(code: string, codeVerifier: string): Promise<GoogleProfile>;
}

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export function createGooglePort(opts: { clientId: string; clientSecret: string; redirectUri: string; fetcher?: typeof fetch }): GooglePort {
  const arctic = new Google(opts.clientId, opts.clientSecret, opts.redirectUri);
  return {
    authorizationUrl(state, codeVerifier) {
      const url = arctic.createAuthorizationURL(state, codeVerifier, ['openid', 'email', 'profile']);
      url.searchParams.set('prompt', 'select_account');
      return url;
    },
    async exchange(code, codeVerifier) {
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: codeVerifier,
        redirect_uri: opts.redirectUri,
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
      });
      const res = await (opts.fetcher ?? fetch)(GOOGLE_TOKEN_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: body.toString(),
      });
      if (!res.ok) throw new Error(`google token endpoint answered ${res.status}`);
      const data = (await res.json()) as { id_token?: unknown };
      if (typeof data.id_token !== 'string') throw new Error('google answer without id_token');
      const claims = decodeIdToken(data.id_token) as Record<string, unknown>;
      if (claims.aud !== opts.clientId) throw new Error('id_token for another client');
      if (claims.iss !== 'https://accounts.google.com' && claims.iss !== 'accounts.google.com') throw new Error('id_token from another issuer');
      if (typeof claims.sub !== 'string' || typeof claims.email !== 'string') throw new Error('id_token without sub/email');
      return { sub: claims.sub, email: claims.email.trim().toLowerCase(), emailVerified: claims.email_verified === true || claims.email_verified === 'true' };
    },
  };
}
