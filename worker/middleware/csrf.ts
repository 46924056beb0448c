import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { forbidden } from '../lib/errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Routes called by other servers, verified by their own signature instead: the Stripe webhook, and the
 * RFC 8058 one-click unsubscribe that mail providers POST without Origin (its signed link is the check;
 * it only ever ends one follow, forgets one tipster's address, cancels one RSVP or stops quizmaster invitations to one
 * address).
 */
const EXEMPT = new Set(['/api/payments/webhook', '/bevakningar/avsluta', '/tipsa/stopp', '/vi-kommer/avboka', '/quizmaster-inbjudan/stopp']);

/**
 * Refuses cross-site state changes on every non-GET route (ARCHITECTURE.md "Auth"): the request must
 * say it is same-origin through Sec-Fetch-Site, or carry an Origin equal to ours. Hono's csrf() is not
 * used because it skips JSON bodies.
 */
export const csrfGuard = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE.has(c.req.method) || EXEMPT.has(c.req.path)) return next();
  const site = c.req.header('sec-fetch-site');
  const origin = c.req.header('origin');
  const own = new URL(c.req.url).origin;
  const allowed = site === 'same-origin' || (!site && !!origin && (origin === own || origin === c.var.config.appUrl));
  if (!allowed || (origin && origin !== own && origin !== c.var.config.appUrl)) {
    throw forbidden('Förfrågan kom från en annan webbplats och avvisades.');
  }
  return next();
});
