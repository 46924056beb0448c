/**
 * The Hono app. Reading this file tells every URL family the Worker answers; each feature's routes.ts
 * holds the handlers (thin: validate, call the service, map the result).
 */
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './context';
import { accountRoutes } from './features/accounts/routes';
import { authRoutes } from './features/auth/routes';
import { embedRoutes } from './features/embed/routes';
import { calendarRoutes } from './features/calendar/routes';
import { devRoutes } from './features/dev/routes';
import { eventsRoutes } from './features/events/routes';
import { feedbackRoutes } from './features/feedback/routes';
import { followPages } from './features/follows/pages';
import { followAdminRoutes, followRoutes } from './features/follows/routes';
import { healthRoutes } from './features/health/routes';
import { listingRoutes } from './features/listing/routes';
import { pagesRoutes } from './features/pages/routes';
import { promotionRoutes } from './features/promotion/routes';
import { devCheckoutRoutes } from './features/payments/dev-checkout';
import { paymentsRoutes } from './features/payments/routes';
import { quizRoutes } from './features/quizzes/routes';
import { resultsOwnerRoutes, teamAdminRoutes, teamHidePages, teamPublicRoutes } from './features/results/routes';
import { calendarSyncRoutes } from './features/calendar-sync/routes';
import { kitRoutes } from './features/kit/routes';
import { seriesRoutes } from './features/series/routes';
import { shareRoutes } from './features/share/routes';
import { rasterizeSvg } from './features/share/service';
import { takeoverRoutes } from './features/takeover/routes';
import { quizmasterFileRoutes, quizmasterLinkPages, quizmasterOwnerRoutes, quizmasterSelfRoutes } from './features/quizmasters/routes';
import { tipAdminRoutes, tipLinkPages, tipRoutes, tipShowLink } from './features/tips/routes';
import { adminRoutes } from './features/admin/routes';
import { analyticsRoutes } from './features/analytics/routes';
import { exportRoutes } from './features/exports/routes';
import { venuesRoutes } from './features/venues/routes';
import { freshnessLinkPages, freshnessOwnerRoutes, freshnessPublicRoutes } from './features/freshness/routes';
import { holidayLinkPages } from './features/holidays/pages';
import { holidayRoutes } from './features/holidays/routes';
import { opsAdminRoutes } from './features/ops/routes';
import { rsvpPages } from './features/rsvp/pages';
import { rsvpOwnerRoutes, rsvpRoutes } from './features/rsvp/routes';
import { contextMiddleware } from './middleware/context';
import { csrfGuard } from './middleware/csrf';
import { forgetDataVersionAfterWrites } from './middleware/data-version';
import { drainUnreadBody } from './middleware/drain-body';
import { httpCache } from './middleware/http-cache';
import { onError, onNotFound } from './middleware/errors';
import { requestLog } from './middleware/request-log';
import { sessionMiddleware } from './middleware/session';
import { productionPorts, type PortFactories } from './ports/deps';
import { BOOT_SCRIPT_CSP_HASH } from './lib/boot-script';
import { PUBLIC_FILE_ROUTES, PUBLIC_PAGE_ROUTES } from './lib/public-pages';

const csp = {
  defaultSrc: ["'self'"],
  // The public pages' one inline script (worker/lib/boot-script.ts), allowed by its hash only.
  // Turnstile's widget (the human check of /tipsa) loads its script and frame from challenges.cloudflare.com.
  scriptSrc: ["'self'", BOOT_SCRIPT_CSP_HASH, 'https://challenges.cloudflare.com'],
  // 'self' too: the owner's embed preview frames our own /embed/* widgets.
  frameSrc: ["'self'", 'https://challenges.cloudflare.com'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'", 'https://checkout.stripe.com', 'https://accounts.google.com'],
  frameAncestors: ["'none'"],
};
const headersProd = secureHeaders({ contentSecurityPolicy: csp, referrerPolicy: 'strict-origin-when-cross-origin', xFrameOptions: 'DENY' });
const headersDev = secureHeaders({
  contentSecurityPolicy: csp,
  referrerPolicy: 'strict-origin-when-cross-origin',
  xFrameOptions: 'DENY',
  strictTransportSecurity: false,
});
// /embed/* only (issue 16): other sites may frame the widget; it has no script, no form and loads nothing.
const embedCsp = {
  defaultSrc: ["'none'"],
  styleSrc: ["'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ['*'],
};
const embedHeaders = {
  contentSecurityPolicy: embedCsp,
  referrerPolicy: 'strict-origin-when-cross-origin',
  xFrameOptions: false,
  crossOriginResourcePolicy: 'cross-origin',
} as const;
const headersEmbedProd = secureHeaders(embedHeaders);
const headersEmbedDev = secureHeaders({ ...embedHeaders, strictTransportSecurity: false });
const isEmbed = (path: string) => path.startsWith('/embed/');

/**
 * The app with its ports made by `ports` (worker/ports/deps.ts): production's factories by default; a
 * test builds its own app with fakes (e.g. a fake Google) — the same door, no module-level override.
 */
export function createApp(ports: PortFactories = productionPorts) {
  const app = new Hono<AppEnv>();

  app.use(requestId());
  // A body the handler left unread is read before the answer, or workerd drops the keep-alive connection.
  app.use(drainUnreadBody);
  // One JSON log line per request (route pattern, status, duration, D1 rows, cache); outside the context
  // middleware so it sees the D1 counts that middleware adds to the response (middleware/request-log.ts).
  app.use(requestLog);
  // Writes: forget the memoized public-data version once the request is done (middleware/data-version.ts).
  app.use(forgetDataVersionAfterWrites);
  app.use(contextMiddleware(ports));
  // HSTS only in production: local http://localhost must stay reachable.
  // Every page DENY framing except the embeddable widget (/embed/*).
  app.use((c, next) =>
    isEmbed(c.req.path)
      ? c.var.config.isDev
        ? headersEmbedDev(c, next)
        : headersEmbedProd(c, next)
      : c.var.config.isDev
        ? headersDev(c, next)
        : headersProd(c, next),
  );
  app.use(csrfGuard);
  app.use(sessionMiddleware);

  app.route('/api/health', healthRoutes);
  app.route('/api/auth', authRoutes);
  app.route('/api/account', accountRoutes);
  app.route('/api/feedback', feedbackRoutes);
  // "Tipsa om ett quiz" (issue 31.1): the public form's API; the form itself is the SPA screen /tipsa.
  app.route('/api/tips', tipRoutes);
  app.route('/api/events', eventsRoutes);
  // Teams (issue 46): hide with the team code and a mailed link; report an offensive name.
  app.route('/api/teams', teamPublicRoutes);
  app.route('/api/promotion', promotionRoutes);
  app.route('/api/payments', paymentsRoutes);
  // Public listing reads get the same HTTP caching as the pages (middleware/http-cache.ts).
  app.use('/api/listing', httpCache);
  app.use('/api/listing/*', httpCache);
  app.route('/api/listing', listingRoutes);
  // Calendar downloads and feeds (.ics): public, edge- and HTTP-cached like the listing.
  app.use('/api/calendar/*', httpCache);
  app.route('/api/calendar', calendarRoutes);
  app.route('/api/takeover', takeoverRoutes);
  app.route('/api/follows', followRoutes);
  // "Vi kommer" (issue 47): RSVP and the uncached counts; the owner's view per date.
  app.route('/api/quizzes', rsvpRoutes);
  app.route('/api/owner/rsvp', rsvpOwnerRoutes);
  // Superadmin: follow counts and the mail queue's dead letters (before adminRoutes, same guard inside).
  app.route('/api/admin', followAdminRoutes);
  // Superadmin: the "Drift" tab (jobs, mail, imports, backup, webhook, 5xx, config checks, incidents).
  app.route('/api/admin', opsAdminRoutes);
  // Superadmin: the tips queue (same guard inside).
  app.route('/api/admin', tipAdminRoutes);
  // Superadmin: team-name reports (the same queue), rename and hide (same guard inside).
  app.route('/api/admin', teamAdminRoutes);
  app.route('/api/admin', adminRoutes);
  app.route('/api/exports', exportRoutes);
  app.route('/api/analytics', analyticsRoutes);
  app.route('/api/owner/kit', kitRoutes);
  app.route('/api/owner', venuesRoutes);
  app.route('/api/owner/series', holidayRoutes);
  app.route('/api/owner/series', seriesRoutes);
  app.route('/api/owner/freshness', freshnessOwnerRoutes);
  app.route('/api/freshness', freshnessPublicRoutes);
  app.route('/api/owner', quizRoutes);
  // Results of a night and a place's recent nights (issue 46).
  app.route('/api/owner', resultsOwnerRoutes);
  app.route('/api/owner', calendarSyncRoutes);
  // Quizmaster profiles (issue 48): owners link and invite; a claimed quizmaster edits their own bio and photo.
  app.route('/api/owner', quizmasterOwnerRoutes);
  app.route('/api/quizmaster', quizmasterSelfRoutes(rasterizeSvg));
  app.route('/quizmaster-inbjudan', quizmasterLinkPages);
  // Signed links in owner mail (issue 20): act without a session; GET shows, the page's button POSTs.
  app.route('/helgdag', holidayLinkPages);
  app.route('/bekrafta-quiz', freshnessLinkPages);
  app.route('/tipsa/stopp', tipLinkPages);
  app.route('/tipsa/visa', tipShowLink);
  app.route('/dolj-lag', teamHidePages);
  app.use('/dev/*', async (c, next) => (c.var.config.isDev ? next() : onNotFound(c)));
  app.route('/dev', devRoutes);
  // The local checkout (used when STRIPE_SECRET_KEY is empty).
  app.route('/dev/checkout', devCheckoutRoutes);
  // Pages behind the signed links in follow mail (confirm, unsubscribe, "Mina bevakningar"); never cached.
  app.route('/bevakningar', followPages);
  // Pages behind the signed links in "Vi kommer" mail (confirm, cancel); never cached.
  app.route('/vi-kommer', rsvpPages);
  // HTTP caching (Cache-Control + ETag + 304) for the public pages and files; never for requests with the session cookie.
  // Its pages are the ones the service worker keeps for offline use (worker/lib/public-pages.ts).
  for (const path of [...PUBLIC_PAGE_ROUTES, ...PUBLIC_FILE_ROUTES]) app.use(path, httpCache);
  // Embeddable widgets for other sites' iframes (framing allowed above), edge- and HTTP-cached.
  app.use('/embed/*', httpCache);
  app.route('/embed', embedRoutes);
  // Share images (og:image) of the public pages: PNG, edge- and HTTP-cached.
  app.use('/og/*', httpCache);
  app.route('/og', shareRoutes);
  // Server-rendered public pages: /, /stad/*, /quiz/*, /legacy, /annonsera, /sitemap.xml (an index of /sitemaps/*), /robots.txt.
  app.route('/quizmaster-foto', quizmasterFileRoutes);
  app.route('/', pagesRoutes);

  app.notFound(onNotFound);
  app.onError(onError);
  return app;
}

export const app = createApp();
