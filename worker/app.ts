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
import { devRoutes } from './features/dev/routes';
import { feedbackRoutes } from './features/feedback/routes';
import { healthRoutes } from './features/health/routes';
import { listingRoutes } from './features/listing/routes';
import { pagesRoutes } from './features/pages/routes';
import { promotionRoutes } from './features/promotion/routes';
import { devCheckoutRoutes } from './features/payments/dev-checkout';
import { paymentsRoutes } from './features/payments/routes';
import { quizRoutes } from './features/quizzes/routes';
import { seriesRoutes } from './features/series/routes';
import { takeoverRoutes } from './features/takeover/routes';
import { adminRoutes } from './features/admin/routes';
import { exportRoutes } from './features/exports/routes';
import { venuesRoutes } from './features/venues/routes';
import { freshnessLinkPages, freshnessOwnerRoutes, freshnessPublicRoutes } from './features/freshness/routes';
import { holidayLinkPages } from './features/holidays/pages';
import { holidayRoutes } from './features/holidays/routes';
import { contextMiddleware } from './middleware/context';
import { csrfGuard } from './middleware/csrf';
import { forgetDataVersionAfterWrites } from './middleware/data-version';
import { httpCache } from './middleware/http-cache';
import { onError, onNotFound } from './middleware/errors';
import { sessionMiddleware } from './middleware/session';

const csp = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
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
const headersDev = secureHeaders({ contentSecurityPolicy: csp, referrerPolicy: 'strict-origin-when-cross-origin', xFrameOptions: 'DENY', strictTransportSecurity: false });

export const app = new Hono<AppEnv>();

app.use(requestId());
// Writes: forget the memoized public-data version once the request is done (middleware/data-version.ts).
app.use(forgetDataVersionAfterWrites);
app.use(contextMiddleware);
// HSTS only in production: local http://localhost must stay reachable.
app.use((c, next) => (c.var.config.isDev ? headersDev(c, next) : headersProd(c, next)));
app.use(csrfGuard);
app.use(sessionMiddleware);

app.route('/api/health', healthRoutes);
app.route('/api/auth', authRoutes);
app.route('/api/account', accountRoutes);
app.route('/api/feedback', feedbackRoutes);
app.route('/api/promotion', promotionRoutes);
app.route('/api/payments', paymentsRoutes);
// Public listing reads get the same HTTP caching as the pages (middleware/http-cache.ts).
app.use('/api/listing', httpCache);
app.use('/api/listing/*', httpCache);
app.route('/api/listing', listingRoutes);
app.route('/api/takeover', takeoverRoutes);
app.route('/api/admin', adminRoutes);
app.route('/api/exports', exportRoutes);
app.route('/api/owner', venuesRoutes);
app.route('/api/owner/series', holidayRoutes);
app.route('/api/owner/series', seriesRoutes);
app.route('/api/owner/freshness', freshnessOwnerRoutes);
app.route('/api/freshness', freshnessPublicRoutes);
app.route('/api/owner', quizRoutes);
// Signed links in owner mail (issue 20): act without a session; GET shows, the page's button POSTs.
app.route('/helgdag', holidayLinkPages);
app.route('/bekrafta-quiz', freshnessLinkPages);
app.use('/dev/*', async (c, next) => (c.var.config.isDev ? next() : onNotFound(c)));
app.route('/dev', devRoutes);
// The local checkout (used when STRIPE_SECRET_KEY is empty).
app.route('/dev/checkout', devCheckoutRoutes);
// HTTP caching (Cache-Control + ETag + 304) for public pages; never for requests with the session cookie.
for (const path of ['/', '/stad/*', '/quiz/*', '/legacy', '/sitemap.xml', '/robots.txt']) app.use(path, httpCache);
// Server-rendered public pages: /, /stad/*, /quiz/*, /legacy, /sitemap.xml, /robots.txt.
app.route('/', pagesRoutes);

app.notFound(onNotFound);
app.onError(onError);

