/**
 * Human-check port (issue 31.1): public forms ask it whether a visitor's widget token is genuine.
 * Production: Cloudflare Turnstile's siteverify (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/)
 * through an injectable fetcher. Without TURNSTILE_SECRET_KEY outside production the local stand-in
 * answers (no network): it passes any non-empty token except LOCAL_FAIL_TOKEN, so development and tests
 * exercise both paths. Production without a secret refuses every token (the form says so).
 */
export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
/** Turnstile's documented test keys: this sitekey/secret pair always passes. */
export const TURNSTILE_TEST_SITE_KEY = '1x00000000000000000000AA';
export const TURNSTILE_TEST_SECRET = '1x0000000000000000000000000000000AA';
/** The token the local stand-in (and the form without a site key) refuses / accepts. */
export const LOCAL_FAIL_TOKEN = 'local-fail';
export const LOCAL_PASS_TOKEN = 'local-pass';

export interface HumanCheck {
  /** True when `token` proves a human (for this client address). Never throws for a bad token. */
  verify(token: string, remoteIp: string | null): Promise<boolean>;
}

export function createTurnstile(opts: { secret: string; fetcher?: typeof fetch }): HumanCheck {
  return {
    async verify(token, remoteIp) {
      if (!token) return false;
      const body = new FormData();
      body.set('secret', opts.secret);
      body.set('response', token);
      if (remoteIp) body.set('remoteip', remoteIp);
      try {
        const res = await (opts.fetcher ?? fetch)(TURNSTILE_VERIFY_URL, { method: 'POST', body, signal: AbortSignal.timeout(5000) });
        if (!res.ok) return false;
        const data = (await res.json()) as { success?: unknown };
        return data.success === true;
      } catch (err) {
        console.error('turnstile siteverify failed', err);
        return false;
      }
    },
  };
}

/** The local stand-in: no network. */
export function createLocalHumanCheck(): HumanCheck {
  return { verify: async (token) => !!token && token !== LOCAL_FAIL_TOKEN };
}

/** Production without a secret: nothing passes. */
export const refuseAllHumanCheck: HumanCheck = { verify: async () => false };
