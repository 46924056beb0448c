/**
 * The authorization table: every route the Hono app registers, classified. authz-matrix.test.ts
 * reads `app.routes` and fails for a route without an entry here (and for an entry whose route no
 * longer exists), so a new route must be classified before it can ship.
 *
 * Each entry says what the route acts on (`object`: whose id goes into the path or body) and the
 * expected status when each actor calls it on OWNER A's object:
 *   visitor     — not signed in
 *   own         — owner A (their own object)
 *   other       — owner B (someone else's object)
 *   superadmin  — the superadmin
 * plus `missing`: a signed-in caller (owner A unless stated) with an id that does not exist.
 * For object 'none' the route acts on the caller alone (own/other are then two ordinary owners).
 * Every refusal (4xx) must leave every guarded table unchanged (snapshot()).
 */
import { TODAY } from './world';
import type { Side, World } from './world';
import { addDays } from '../../../worker/lib/clock';

export type Actor = 'visitor' | 'own' | 'other' | 'superadmin';
export type ObjectKind = 'none' | 'venue' | 'location' | 'quiz' | 'seriesQuiz' | 'series' | 'order' | 'user' | 'feedback' | 'houseVenue';

/** The ids a request is built from: owner A's side, with the object's id possibly replaced by a missing one. */
export interface Target extends Side {
  houseVenueId: string;
  feedbackId: string;
  teamId: string;
  teamSlug: string;
  /** A fresh unique string for bodies that need one (e-mails, names). */
  fresh: string;
}

export interface RouteCase {
  object: ObjectKind;
  /** Builds the concrete path (default: ':id' → the object's id). */
  path?: (t: Target) => string;
  /** A VALID body, so that authorization, not validation, decides the status. */
  body?: (t: Target) => unknown;
  /** Extra request headers (e.g. a webhook signature). */
  headers?: Record<string, string>;
  expect: Record<Actor, number>;
  /** Status for a non-existent object id; `missingActor` defaults to owner A. */
  missing?: number;
  missingActor?: Actor;
  /** Why this route looks the way it does (shown when the test fails). */
  note?: string;
  /** Who the fuzz tests call it as (default: the first actor it allows); for routes whose every cell on A's world is a refusal. */
  fuzzActor?: Actor;
}

const OWNED = (ok: number) => ({ visitor: 401, own: ok, other: 403, superadmin: ok });
const SIGNED_IN = (ok: number) => ({ visitor: 401, own: ok, other: ok, superadmin: ok });
const SUPERADMIN = (ok: number) => ({ visitor: 401, own: 403, other: 403, superadmin: ok });
const PUBLIC = (ok: number) => ({ visitor: ok, own: ok, other: ok, superadmin: ok });
/** A well-formed browser push subscription (issue 32); the keys are RFC 8291's example user agent. */
const PUSH_SUBSCRIPTION = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/sub-abc',
  keys: { p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4', auth: 'BTBZMqHH6r4Tts7J_aSIgg' },
};

const quizFields = { startTime: '20:00', category: 'allmänbildning', quizmaster: 'Kim', teamSize: 4, price: 50, description: 'Välkomna' };
const placeBody = (t: Target) => ({ name: `Plats ${t.fresh}`, address: 'Storgatan 1', city: 'Göteborg' });

/** objectId(kind, world side) — the id the matrix puts into `:id` for each object kind. */
export function objectId(kind: ObjectKind, t: Target): string | null {
  switch (kind) {
    case 'venue':
      return t.venueId;
    case 'location':
      return t.locationId;
    case 'quiz':
      return t.quizId;
    case 'series':
      return t.seriesId;
    case 'seriesQuiz':
      return t.seriesQuizId;
    case 'order':
      return t.orderId;
    case 'user':
      return t.user.id;
    case 'feedback':
      return t.feedbackId;
    case 'houseVenue':
      return t.houseVenueId;
    default:
      return null;
  }
}

/** A target whose object id does not exist. */
export function missingTarget(kind: ObjectKind, t: Target): Target {
  const id = `saknas-${t.fresh}`;
  const over: Partial<Target> = {};
  if (kind === 'venue') over.venueId = id;
  if (kind === 'location') over.locationId = id;
  if (kind === 'quiz') over.quizId = id;
  if (kind === 'series') over.seriesId = id;
  if (kind === 'seriesQuiz') over.seriesQuizId = id;
  if (kind === 'order') Object.assign(over, { orderId: id, stripeSessionId: id });
  if (kind === 'user') over.user = { ...t.user, id };
  if (kind === 'feedback') over.feedbackId = id;
  if (kind === 'houseVenue') over.houseVenueId = id;
  return { ...t, ...over };
}

export function targetFor(world: World, fresh: string): Target {
  return { ...world.a, houseVenueId: world.houseVenueId, feedbackId: world.feedbackId, teamId: world.teamId, teamSlug: world.teamSlug, fresh };
}

export const ROUTES: Record<string, RouteCase> = {
  // ------------------------------------------------------------ health, public reads
  'GET /api/health': { object: 'none', expect: PUBLIC(200) },
  'GET /api/listing': {
    object: 'none',
    path: (t) => `/api/listing?city=${t.citySlug}&price=max50&team=4&category=allmanbildning&time=19-20`,
    expect: PUBLIC(200),
  },
  'GET /api/listing/cities': { object: 'none', expect: PUBLIC(200) },
  'GET /api/listing/map': { object: 'none', path: (t) => `/api/listing/map?city=${t.citySlug}`, expect: PUBLIC(200) },
  'GET /api/listing/card': {
    object: 'none',
    path: () => '/api/listing/card?unit=999999999',
    expect: PUBLIC(404),
    note: "a marker's card under the listing filters: public; a unit outside the results (here: none) is 404 for everyone",
  },
  'GET /api/promotion/pricing': { object: 'none', expect: PUBLIC(200) },

  // ------------------------------------------------------------ calendar downloads and feeds (issue 16): public, anonymous view
  'GET /api/calendar/quiz/:file': { object: 'quiz', path: (t) => `/api/calendar/quiz/${t.quizId}.ics`, expect: PUBLIC(200), missing: 404 },
  'GET /api/calendar/city/:file': { object: 'none', path: (t) => `/api/calendar/city/${t.citySlug}.ics`, expect: PUBLIC(200) },
  'GET /api/calendar/city/:city/:file': { object: 'none', path: (t) => `/api/calendar/city/${t.citySlug}/tisdag.ics`, expect: PUBLIC(200) },
  'GET /api/calendar/venue/:city/:file': { object: 'none', path: (t) => `/api/calendar/venue/${t.citySlug}/${t.venueSlug}.ics`, expect: PUBLIC(200) },
  'GET /api/calendar/listing.ics': {
    object: 'none',
    path: (t) => `/api/calendar/listing.ics?city=${t.citySlug}&price=gratis&category=musik`,
    expect: PUBLIC(200),
  },

  // ------------------------------------------------------------ auth (public by nature)
  'GET /api/auth/session': { object: 'none', expect: PUBLIC(200) },
  'GET /api/auth/config': { object: 'none', expect: PUBLIC(200) },
  'POST /api/auth/login': {
    object: 'none',
    body: (t) => ({ email: t.user.email, password: t.user.password }),
    expect: PUBLIC(200),
    note: "anyone who knows A's password may sign in as A",
  },
  'POST /api/auth/login/totp': {
    object: 'none',
    body: () => ({ code: '123456' }),
    expect: PUBLIC(401),
    note: 'no TOTP step is pending for anyone',
  },
  'POST /api/auth/logout': { object: 'none', expect: PUBLIC(200) },
  'POST /api/auth/register': {
    object: 'none',
    body: (t) => ({ email: `ny-${t.fresh}@test.local`, password: 'hemligt123', confirmPassword: 'hemligt123' }),
    expect: PUBLIC(201),
  },
  'POST /api/auth/resend': { object: 'none', body: (t) => ({ email: t.user.email }), expect: PUBLIC(200) },
  'POST /api/auth/verify': { object: 'none', body: (t) => ({ token: `ogiltig-${t.fresh}` }), expect: PUBLIC(400), note: 'unknown token' },
  'POST /api/auth/forgot': { object: 'none', body: (t) => ({ email: t.user.email }), expect: PUBLIC(200) },
  'POST /api/auth/reset/check': { object: 'none', body: (t) => ({ token: `ogiltig-${t.fresh}` }), expect: PUBLIC(400) },
  'POST /api/auth/reset': {
    object: 'none',
    body: (t) => ({ token: `ogiltig-${t.fresh}`, password: 'nyttlosen1', confirmPassword: 'nyttlosen1' }),
    expect: PUBLIC(400),
  },
  'GET /api/auth/google': { object: 'none', expect: PUBLIC(302), note: 'GOOGLE_CLIENT_ID is empty in tests: redirect back with error=google_unavailable' },
  'GET /api/auth/google/callback': { object: 'none', expect: PUBLIC(302), note: 'no state cookie: redirect back to /login with an error' },

  // ------------------------------------------------------------ own account (acts on the caller)
  'GET /api/account': { object: 'none', expect: SIGNED_IN(200) },
  'DELETE /api/account': { object: 'none', expect: SIGNED_IN(200) },
  'POST /api/account/password': {
    object: 'none',
    body: () => ({ currentPassword: 'hemligt123', password: 'nyttlosen1', confirmPassword: 'nyttlosen1' }),
    expect: SIGNED_IN(200),
  },
  'POST /api/account/email': {
    object: 'none',
    body: (t) => ({ newEmail: `byte-${t.fresh}@test.local`, password: 'hemligt123' }),
    expect: SIGNED_IN(200),
  },
  'POST /api/account/email/confirm': { object: 'none', body: (t) => ({ token: `ogiltig-${t.fresh}` }), expect: PUBLIC(400) },
  'POST /api/account/totp/enroll': { object: 'none', body: () => ({ password: 'hemligt123' }), expect: SIGNED_IN(200) },
  'POST /api/account/totp/confirm': {
    object: 'none',
    body: () => ({ code: '000000' }),
    expect: SIGNED_IN(400),
    note: 'no enrolment started',
  },
  'POST /api/account/totp/remove': { object: 'none', body: () => ({ password: 'hemligt123' }), expect: SIGNED_IN(200) },

  // ------------------------------------------------------------ feedback
  'POST /api/feedback': {
    object: 'none',
    body: () => ({ category: 'bug', title: 'Rubrik', description: 'Beskrivning', senderEmail: '' }),
    expect: PUBLIC(201),
  },

  // ------------------------------------------------------------ "Tipsa om ett quiz" (issue 31.1)
  'GET /api/tips/config': { object: 'none', expect: PUBLIC(200) },
  'POST /api/tips': {
    object: 'none',
    body: (t) => ({
      venueName: `Tipsat ställe ${t.fresh}`,
      address: 'Storgatan 1',
      city: 'Göteborg',
      weekday: 3,
      startTime: '19:00',
      humanToken: 'local-pass',
    }),
    expect: PUBLIC(201),
    note: 'public; rate-limited per client, honeypot and human check (local stand-in in tests)',
  },
  'GET /api/admin/tips': { object: 'none', expect: SUPERADMIN(200) },
  'GET /api/admin/tips/count': { object: 'none', expect: SUPERADMIN(200) },
  'POST /api/admin/tips/:id/approve': { object: 'none', path: () => '/api/admin/tips/no-such-tip/approve', expect: SUPERADMIN(404), fuzzActor: 'superadmin' },
  'POST /api/admin/tips/:id/reject': {
    object: 'none',
    path: () => '/api/admin/tips/no-such-tip/reject',
    body: () => ({ reason: 'Finns redan' }),
    expect: SUPERADMIN(404),
    fuzzActor: 'superadmin',
  },
  'GET /tipsa/visa': { object: 'none', expect: PUBLIC(400), note: "the published mail's signed page link; a 302 with a valid token", fuzzActor: 'visitor' },
  'GET /tipsa/stopp': { object: 'none', expect: PUBLIC(200), note: 'shows the button only; changes nothing', fuzzActor: 'visitor' },
  'POST /tipsa/stopp': {
    object: 'none',
    expect: PUBLIC(400),
    note: 'RFC 8058 one-click, exempt from the CSRF guard; signed link required',
    fuzzActor: 'visitor',
  },

  // ------------------------------------------------------------ teams (issue 46): hide, report, the superadmin
  'POST /api/teams/hide': {
    object: 'none',
    body: (t) => ({ code: 'ZZZZ99', email: `${t.fresh}@test.local` }),
    expect: PUBLIC(202),
    note: 'public, rate-limited; the same 202 whether or not the code is a team’s (a link is mailed only when it is)',
  },
  'POST /api/teams/:slug/report': {
    object: 'none',
    path: (t) => `/api/teams/${t.teamSlug}/report`,
    body: () => ({ reason: 'Stötande namn' }),
    expect: PUBLIC(201),
    note: 'public, rate-limited per client; the report goes to the superadmin’s queue',
  },
  'GET /api/admin/team-reports': { object: 'none', expect: SUPERADMIN(200) },
  'POST /api/admin/team-reports/:id/dismiss': {
    object: 'none',
    path: () => '/api/admin/team-reports/no-such-report/dismiss',
    expect: SUPERADMIN(404),
    fuzzActor: 'superadmin',
  },
  'PATCH /api/admin/teams/:id': {
    object: 'none',
    path: () => '/api/admin/teams/no-such-team',
    body: () => ({ hidden: true }),
    expect: SUPERADMIN(404),
    fuzzActor: 'superadmin',
  },
  'GET /dolj-lag': { object: 'none', expect: PUBLIC(200), note: 'shows the button only; changes nothing', fuzzActor: 'visitor' },
  'POST /dolj-lag': { object: 'none', expect: PUBLIC(400), note: 'the signed link from the hide mail is required', fuzzActor: 'visitor' },

  // ------------------------------------------------------------ counting and owner analytics (issue 18)
  'POST /api/events': {
    object: 'quiz',
    body: (t) => ({ events: [{ t: 'impression', q: t.quizId }] }),
    expect: PUBLIC(204),
    missing: 204,
    note: "anyone may report a view; unknown ids are ignored (204), the owner's own views are not counted",
  },
  'GET /api/analytics': { object: 'venue', path: (t) => `/api/analytics?venueId=${t.venueId}`, expect: OWNED(200), missing: 404 },
  'GET /api/analytics/export.csv': { object: 'venue', path: (t) => `/api/analytics/export.csv?venueId=${t.venueId}&days=7`, expect: OWNED(200), missing: 404 },
  'GET /api/analytics/slots': { object: 'quiz', path: (t) => `/api/analytics/slots?quizId=${t.quizId}`, expect: OWNED(200), missing: 404 },
  'GET /api/analytics/overview': { object: 'none', expect: SUPERADMIN(200) },

  // ------------------------------------------------------------ promotion and payments
  'POST /api/promotion/availability': { object: 'quiz', body: (t) => ({ quizIds: [t.quizId] }), expect: OWNED(200), missing: 404 },
  'POST /api/promotion/marketing-checkout': {
    object: 'seriesQuiz',
    body: (t) => ({ venueId: t.venueId, items: [{ quizId: t.seriesQuizId, tier: 'premium' }] }),
    expect: OWNED(201),
    missing: 404,
  },
  'POST /api/promotion/checkout': {
    object: 'seriesQuiz',
    body: (t) => ({ quizId: t.seriesQuizId, tier: 'premium', weeks: 1 }),
    expect: OWNED(201),
    missing: 404,
  },
  'POST /api/payments/webhook': {
    object: 'none',
    body: () => ({ id: 'evt_x', type: 'checkout.session.completed' }),
    expect: PUBLIC(400),
    note: 'no Stripe-Signature: refused for everyone (signed events are covered by payments-faults.test.ts)',
  },
  'GET /api/payments/support': { object: 'none', expect: PUBLIC(200), note: 'the SUPPORT_EMAIL shown in payment failure dialogs' },
  'GET /api/payments/verify': { object: 'order', path: (t) => `/api/payments/verify?session_id=${t.stripeSessionId}`, expect: OWNED(200), missing: 404 },
  'POST /api/payments/cancel': { object: 'order', body: (t) => ({ orderId: t.orderId }), expect: OWNED(200), missing: 404 },
  'GET /api/payments/refunds': { object: 'none', expect: SUPERADMIN(200), note: "the superadmin's 'Att återbetala' list (issue 13.2)" },
  'POST /api/payments/refunds/:id/refunded': {
    object: 'none',
    path: (t) => `/api/payments/refunds/refund-${t.fresh}/refunded`,
    expect: { visitor: 401, own: 403, other: 403, superadmin: 404 },
    note: 'the world has no refund: the superadmin reaches the lookup (404); marking a real one is in payments-refunds.test.ts',
  },

  // ------------------------------------------------------------ takeover
  'GET /api/takeover/venues/:id': { object: 'houseVenue', expect: PUBLIC(200), missing: 404 },
  'POST /api/takeover': {
    object: 'venue',
    body: (t) => ({ venueId: t.venueId }),
    expect: { visitor: 401, own: 200, other: 409, superadmin: 409 },
    missing: 404,
    note: "A's business is claimed: B and the superadmin get 409, A's own repeat is idempotent",
  },

  // ------------------------------------------------------------ superadmin
  'GET /api/admin/venues': { object: 'none', expect: SUPERADMIN(200) },
  'POST /api/admin/venues': { object: 'none', body: (t) => ({ name: `Adminpuben ${t.fresh}` }), expect: SUPERADMIN(201) },
  'DELETE /api/admin/venues/:id': { object: 'venue', expect: SUPERADMIN(200), missing: 404, missingActor: 'superadmin' },
  'DELETE /api/admin/users/:id': { object: 'user', expect: SUPERADMIN(200), missing: 404, missingActor: 'superadmin' },
  'GET /api/admin/feedback': { object: 'none', expect: SUPERADMIN(200) },
  'PATCH /api/admin/feedback/:id': { object: 'feedback', body: () => ({ handled: true }), expect: SUPERADMIN(200), missing: 404, missingActor: 'superadmin' },
  'GET /api/admin/takeover-issues': { object: 'none', expect: SUPERADMIN(200) },
  'GET /api/admin/jobs': { object: 'none', expect: SUPERADMIN(200) },
  'GET /api/admin/status': {
    object: 'none',
    expect: SUPERADMIN(200),
    note: "the 'Drift' tab: jobs, mail, imports, backup, webhook, 5xx, config checks (issue 30 §4)",
  },
  'POST /api/admin/takeover-issues/fix': { object: 'user', body: (t) => ({ userId: t.user.id }), expect: SUPERADMIN(200) },
  'POST /api/admin/import/preview': {
    object: 'none',
    body: (t) => ({ csv: `name,address,city,weekday\nImportpuben ${t.fresh},Storgatan 1,Uppsala,tisdag\n` }),
    expect: SUPERADMIN(200),
  },
  'POST /api/admin/import': {
    object: 'none',
    body: (t) => ({ csv: `name,address,city,weekday\nImportpuben ${t.fresh},Storgatan 1,Uppsala,tisdag\n` }),
    expect: SUPERADMIN(201),
  },
  // The durable import (issue 21): raw CSV upload, then job routes. Jobs belong to the catalogue, not
  // to an owner: the superadmin's call on a job id that does not exist is 404.
  'POST /api/admin/import/jobs': {
    object: 'none',
    body: (t) => `name,address,city,weekday\nJobbpuben ${t.fresh},Storgatan 1,Uppsala,tisdag\n`,
    headers: { 'content-type': 'text/csv' },
    expect: SUPERADMIN(201),
    note: 'the upload is the raw file (text/csv), not JSON',
  },
  'GET /api/admin/import/jobs': { object: 'none', expect: SUPERADMIN(200) },
  'GET /api/admin/import/jobs/:id': { object: 'none', path: () => '/api/admin/import/jobs/no-such-job', expect: SUPERADMIN(404), fuzzActor: 'superadmin' },
  'POST /api/admin/import/jobs/:id/start': {
    object: 'none',
    path: () => '/api/admin/import/jobs/no-such-job/start',
    expect: SUPERADMIN(404),
    fuzzActor: 'superadmin',
  },
  'POST /api/admin/import/jobs/:id/resume': {
    object: 'none',
    path: () => '/api/admin/import/jobs/no-such-job/resume',
    expect: SUPERADMIN(404),
    fuzzActor: 'superadmin',
  },
  'GET /api/admin/import/jobs/:id/report': {
    object: 'none',
    path: () => '/api/admin/import/jobs/no-such-job/report',
    expect: SUPERADMIN(404),
    fuzzActor: 'superadmin',
  },
  'GET /api/admin/import/jobs/:id/reviews': {
    object: 'none',
    path: () => '/api/admin/import/jobs/no-such-job/reviews',
    expect: SUPERADMIN(404),
    fuzzActor: 'superadmin',
  },
  'POST /api/admin/import/jobs/:id/reviews/:row': {
    object: 'none',
    path: () => '/api/admin/import/jobs/no-such-job/reviews/2',
    body: () => ({ action: 'create' }),
    expect: SUPERADMIN(404),
    fuzzActor: 'superadmin',
  },

  // ------------------------------------------------------------ exports (issue 21)
  'GET /api/exports/me': { object: 'none', expect: SIGNED_IN(200), note: "the caller's own data only" },
  'GET /api/exports/quizzes.csv': { object: 'venue', path: (t) => `/api/exports/quizzes.csv?venueId=${t.venueId}`, expect: OWNED(200), missing: 404 },
  'GET /api/exports/catalogue.csv': { object: 'none', expect: SUPERADMIN(200) },

  // ------------------------------------------------------------ owner: businesses, places, profile
  'GET /api/owner/dashboard': { object: 'venue', path: (t) => `/api/owner/dashboard?venueId=${t.venueId}`, expect: OWNED(200), missing: 404 },
  'POST /api/owner/venues': { object: 'none', body: (t) => ({ name: `Nypuben ${t.fresh}` }), expect: SIGNED_IN(201) },
  'POST /api/owner/venues/register': {
    object: 'none',
    body: (t) => ({ name: `Regpuben ${t.fresh}`, address: 'Storgatan 2', city: 'Lund' }),
    expect: SIGNED_IN(201),
  },
  'PATCH /api/owner/venues/:id': {
    object: 'venue',
    body: (t) => ({ name: `Ändrad ${t.fresh}`, description: 'Ny text', isPublic: true }),
    expect: OWNED(200),
    missing: 404,
  },
  'POST /api/owner/venues/:id/locations': { object: 'venue', body: placeBody, expect: OWNED(201), missing: 404 },
  'PATCH /api/owner/locations/:id': { object: 'location', body: placeBody, expect: OWNED(200), missing: 404 },
  'DELETE /api/owner/locations/:id': { object: 'location', expect: OWNED(200), missing: 404 },
  // Calendar sync (issue 31.2). No network in tests: a private address is refused after authorization (400
  // naming the field, nothing stored), which proves the caller got past it; the world's feed is private too,
  // so its sync records the refusal on the feed (200).
  'GET /api/owner/locations/:id/calendar-feeds': { object: 'location', expect: OWNED(200), missing: 404 },
  'POST /api/owner/locations/:id/calendar-feeds/preview': {
    object: 'location',
    body: () => ({ url: 'https://127.0.0.1/x.ics' }),
    expect: OWNED(400),
    missing: 404,
  },
  'POST /api/owner/locations/:id/calendar-feeds': { object: 'location', body: () => ({ url: 'https://127.0.0.1/ny.ics' }), expect: OWNED(400), missing: 404 },
  'POST /api/owner/locations/:id/calendar-feeds/:feedId/sync': {
    object: 'location',
    path: (t) => `/api/owner/locations/${t.locationId}/calendar-feeds/${t.feedId}/sync`,
    expect: OWNED(200),
    missing: 404,
  },
  'DELETE /api/owner/locations/:id/calendar-feeds/:feedId': {
    object: 'location',
    path: (t) => `/api/owner/locations/${t.locationId}/calendar-feeds/${t.feedId}`,
    expect: OWNED(200),
    missing: 404,
  },
  'GET /api/owner/profile': { object: 'none', expect: SIGNED_IN(200) },
  'PUT /api/owner/profile': { object: 'none', body: () => ({ firstName: 'Kim', lastName: 'Ek', phone: '070-123 45 67' }), expect: SIGNED_IN(200) },

  // ------------------------------------------------------------ owner: quizzes and series
  'GET /api/owner/quiz-places': { object: 'none', expect: SIGNED_IN(200) },
  'GET /api/owner/locations/:id/quizzes': { object: 'location', expect: OWNED(200), missing: 404 },
  'GET /api/owner/quizzes': { object: 'none', expect: SIGNED_IN(200) },
  'POST /api/owner/quizzes': {
    object: 'location',
    body: (t) => ({ locationId: t.locationId, date: addDays(TODAY, 3), recurring: false, ...quizFields }),
    expect: OWNED(201),
    missing: 404,
  },
  'GET /api/owner/quizzes/:id': { object: 'quiz', expect: OWNED(200), missing: 404 },
  'PATCH /api/owner/quizzes/:id': { object: 'quiz', body: () => ({ date: addDays(TODAY, 9), ...quizFields }), expect: OWNED(200), missing: 404 },
  'DELETE /api/owner/quizzes/:id': { object: 'quiz', expect: OWNED(200), missing: 404 },
  'POST /api/owner/quizzes/:id/cancel': { object: 'quiz', body: () => ({ cancelled: true }), expect: OWNED(200), missing: 404 },
  // Results (issue 46). The world's quiz lies ahead, so an allowed post is refused by the window (400) after authorization.
  'GET /api/owner/quizzes/:quizId/results': { object: 'quiz', path: (t) => `/api/owner/quizzes/${t.quizId}/results`, expect: OWNED(200), missing: 404 },
  'PUT /api/owner/quizzes/:quizId/results': {
    object: 'quiz',
    path: (t) => `/api/owner/quizzes/${t.quizId}/results`,
    body: (t) => ({ text: `Lag ${t.fresh};42` }),
    expect: OWNED(400),
    missing: 404,
    note: 'the place owner or the superadmin; the quiz is in the future, so the allowed callers get the window refusal',
  },
  'GET /api/owner/locations/:id/results': { object: 'location', expect: OWNED(200), missing: 404 },
  'GET /api/owner/series/:seriesId/seasons': { object: 'series', path: (t) => `/api/owner/series/${t.seriesId}/seasons`, expect: OWNED(200), missing: 404 },
  'POST /api/owner/series/:seriesId/seasons': {
    object: 'series',
    path: (t) => `/api/owner/series/${t.seriesId}/seasons`,
    body: () => ({ name: 'Vårsäsong', startDate: TODAY, endDate: addDays(TODAY, 90), preset: 'best_n', bestN: 8 }),
    expect: OWNED(201),
    missing: 404,
  },
  // Leagues (issue 46.3). The world has one series per owner (a league needs two) and no league: a league's own
  // 403 and the consent flow are in test/integration/leagues.test.ts.
  'GET /api/owner/leagues': { object: 'none', expect: SIGNED_IN(200) },
  'POST /api/owner/leagues': {
    object: 'series',
    body: (t) => ({ name: `Liga ${t.fresh}`, seriesIds: [t.seriesId, `okand-${t.fresh}`] }),
    expect: { visitor: 401, own: 404, other: 403, superadmin: 404 },
    missing: 404,
    note: "the caller's own series (any for the superadmin); the second series is unknown, so allowed callers get 404 after authorization",
  },
  'POST /api/owner/leagues/:leagueId/series': {
    object: 'none',
    path: () => '/api/owner/leagues/no-such-league/series',
    body: (t) => ({ seriesId: t.seriesId }),
    expect: SIGNED_IN(404),
    fuzzActor: 'own',
  },
  'DELETE /api/owner/leagues/:leagueId/series/:seriesId': {
    object: 'none',
    path: (t) => `/api/owner/leagues/no-such-league/series/${t.seriesId}`,
    expect: SIGNED_IN(404),
    fuzzActor: 'own',
  },
  'POST /api/owner/leagues/:leagueId/series/:seriesId/answer': {
    object: 'none',
    path: (t) => `/api/owner/leagues/no-such-league/series/${t.seriesId}/answer`,
    body: () => ({ accept: true }),
    expect: SIGNED_IN(404),
    fuzzActor: 'own',
    note: "only the series' owner answers a pending invitation; without one it is 404 for everyone (no oracle)",
  },
  'POST /api/owner/leagues/:leagueId/seasons': {
    object: 'none',
    path: () => '/api/owner/leagues/no-such-league/seasons',
    body: () => ({ name: 'Vårsäsong', startDate: TODAY, endDate: addDays(TODAY, 90), preset: 'total' }),
    expect: SIGNED_IN(404),
    fuzzActor: 'own',
  },
  'GET /api/owner/series': { object: 'none', expect: SIGNED_IN(200) },
  'POST /api/owner/series/auto-extend': { object: 'none', expect: SIGNED_IN(200) },
  'GET /api/owner/series/:id': { object: 'series', expect: OWNED(200), missing: 404 },
  'PATCH /api/owner/series/:id': { object: 'series', body: () => quizFields, expect: OWNED(200), missing: 404 },
  'DELETE /api/owner/series/:id': { object: 'series', expect: OWNED(200), missing: 404 },
  'POST /api/owner/series/:id/extend': { object: 'series', expect: OWNED(200), missing: 404 },
  'POST /api/owner/series/:id/pause': {
    object: 'series',
    body: () => ({ from: addDays(TODAY, 7), to: addDays(TODAY, 14) }),
    expect: OWNED(200),
    missing: 404,
  },
  'POST /api/owner/series/:id/resume': {
    object: 'series',
    body: () => ({ from: addDays(TODAY, 7), to: addDays(TODAY, 14) }),
    expect: OWNED(200),
    missing: 404,
  },

  // ------------------------------------------------------------ "Vi kommer" (issue 47; rsvp.test.ts covers the flows)
  'POST /api/quizzes/:quizId/rsvp': {
    object: 'quiz',
    path: (t) => `/api/quizzes/${t.quizId}/rsvp`,
    body: (t) => ({ email: `r-${t.fresh}@test.local`, teamSize: 4 }),
    expect: { visitor: 202, own: 201, other: 201, superadmin: 201 },
    missing: 404,
    note: 'anyone may RSVP to a public future night: a visitor by e-mail (202, double opt-in), a signed-in user with one click (201)',
  },
  'GET /api/quizzes/:quizId/rsvp': {
    object: 'quiz',
    path: (t) => `/api/quizzes/${t.quizId}/rsvp`,
    expect: PUBLIC(200),
    missing: 404,
    note: 'public counts only (teams, seats, tables left, waitlist), never names or addresses; uncached',
  },
  'GET /api/owner/rsvp/quizzes/:quizId': {
    object: 'quiz',
    path: (t) => `/api/owner/rsvp/quizzes/${t.quizId}`,
    expect: OWNED(200),
    missing: 404,
    note: "the place's owner only: team sizes, and addresses of live teams",
  },
  'GET /api/owner/rsvp/quizzes/:quizId/export.csv': {
    object: 'quiz',
    path: (t) => `/api/owner/rsvp/quizzes/${t.quizId}/export.csv`,
    expect: OWNED(200),
    missing: 404,
    note: "the place's owner only",
  },
  'PUT /api/owner/rsvp/quizzes/:quizId/settings': {
    object: 'quiz',
    path: (t) => `/api/owner/rsvp/quizzes/${t.quizId}/settings`,
    body: () => ({ rsvpOff: false, bookingUrl: null, bookingPhone: '08-123 45' }),
    expect: OWNED(200),
    missing: 404,
    note: "the series' (or single quiz's) RSVP switch and external booking",
  },
  'GET /vi-kommer/bekrafta': { object: 'none', expect: PUBLIC(400), note: 'signed single-use link required' },
  'POST /vi-kommer/bekrafta': { object: 'none', expect: PUBLIC(400), note: 'signed single-use link required' },
  'GET /vi-kommer/avboka': { object: 'none', expect: PUBLIC(400), note: 'signed link required' },
  'POST /vi-kommer/avboka': { object: 'none', expect: PUBLIC(400), note: 'one-click "Vi kan inte komma", exempt from the CSRF guard; signed link required' },

  // ------------------------------------------------------------ follows (issue 17)
  'POST /api/follows': {
    object: 'location',
    body: (t) => ({ placeId: t.locationId, email: `f-${t.fresh}@test.local` }),
    expect: { visitor: 202, own: 201, other: 201, superadmin: 201 },
    missing: 400,
    note: 'anyone may follow a public place: a visitor by e-mail (202, double opt-in), a signed-in user at once (201); an unknown place is bad input (400)',
  },
  'GET /api/follows': { object: 'none', expect: SIGNED_IN(200), note: "the caller's own follows" },
  'PATCH /api/follows/:id': {
    object: 'none',
    path: (t) => `/api/follows/follow-${t.fresh}`,
    body: () => ({ reminders: false }),
    expect: { visitor: 401, own: 404, other: 404, superadmin: 404 },
    note: "only one's own follow; someone else's is 404 like a missing one (follows.test.ts)",
  },
  'DELETE /api/follows/:id': {
    object: 'none',
    path: (t) => `/api/follows/follow-${t.fresh}`,
    expect: { visitor: 401, own: 404, other: 404, superadmin: 404 },
    note: "only one's own follow; someone else's is 404 like a missing one (follows.test.ts)",
  },
  // Push reminders (issue 32): follows-push.test.ts covers one's own follow and the queue side.
  'GET /api/follows/push-key': { object: 'none', expect: PUBLIC(200), note: 'the VAPID public key (dev pair in test)' },
  'GET /api/follows/push': { object: 'none', expect: SIGNED_IN(200), note: "which of the caller's own follows remind by push" },
  'PUT /api/follows/:id/push': {
    object: 'none',
    path: (t) => `/api/follows/follow-${t.fresh}/push`,
    body: () => PUSH_SUBSCRIPTION,
    expect: { visitor: 401, own: 404, other: 404, superadmin: 404 },
    note: "only one's own follow; someone else's is 404 like a missing one (follows-push.test.ts)",
  },
  'DELETE /api/follows/:id/push': {
    object: 'none',
    path: (t) => `/api/follows/follow-${t.fresh}/push`,
    expect: { visitor: 401, own: 404, other: 404, superadmin: 404 },
    note: "only one's own follow; someone else's is 404 like a missing one (follows-push.test.ts)",
  },
  'POST /api/follows/:id/push/stop': {
    object: 'none',
    path: (t) => `/api/follows/follow-${t.fresh}/push/stop`,
    body: () => ({ endpoint: PUSH_SUBSCRIPTION.endpoint }),
    expect: PUBLIC(404),
    note: 'the notification\'s "Sluta påminna": no session, the subscription\'s endpoint is the proof; 404 when that endpoint is not on that follow',
  },
  'GET /api/admin/follows/stats': { object: 'none', expect: SUPERADMIN(200), note: 'counts only, never addresses' },
  'GET /api/admin/dead-letters': { object: 'none', expect: SUPERADMIN(200), note: "the mail queue's dead letters" },
  'GET /bevakningar': { object: 'none', expect: PUBLIC(400), note: 'signed link (manage) required; valid links in follows.test.ts' },
  'POST /bevakningar': {
    object: 'none',
    expect: PUBLIC(400),
    note: "signed link (manage) required; its actions pause/resume/remove and (issue 32) push-on/push-off only touch that link's own follows — another address's follow is 404 (follows-push.test.ts)",
  },
  'GET /bevakningar/bekrafta': { object: 'none', expect: PUBLIC(400), note: 'signed single-use link required' },
  'POST /bevakningar/bekrafta': { object: 'none', expect: PUBLIC(400), note: 'signed single-use link required' },
  'GET /bevakningar/avsluta': { object: 'none', expect: PUBLIC(400), note: 'signed link required' },
  'POST /bevakningar/avsluta': { object: 'none', expect: PUBLIC(400), note: 'RFC 8058 one-click, exempt from the CSRF guard; signed link required' },
  'GET /bevakningar/avsluta-alla': { object: 'none', expect: PUBLIC(400), note: 'signed link required' },
  'POST /bevakningar/avsluta-alla': { object: 'none', expect: PUBLIC(400), note: 'signed link required' },
  'POST /api/feedback/report': {
    object: 'quiz',
    body: (t) => ({ quizId: t.quizId, reason: 'fel-tid', text: 'Quizet börjar 20:00' }),
    expect: PUBLIC(201),
    missing: 404,
    note: '"Stämmer inte?" (issue 20): anyone may report a public quiz; nothing personal stored (reports.test.ts)',
  },
  // Swedish holidays in series (issue 20)
  'POST /api/owner/series/holidays/preview': {
    object: 'none',
    body: () => ({ date: addDays(TODAY, 1), pattern: 'weekly', days: ['torsdag'], until: addDays(TODAY, 300) }),
    expect: SIGNED_IN(200),
    note: "the create form's preview: computed from the form's values, no stored object",
  },
  // ------------------------------------------------------------ owner kit (issue 48.7): posters, table tents, Instagram images
  'GET /api/owner/kit': { object: 'venue', path: (t) => `/api/owner/kit?venueId=${t.venueId}`, expect: OWNED(200), missing: 404 },
  'GET /api/owner/kit/series/:id/:file': {
    object: 'series',
    path: (t) => `/api/owner/kit/series/${t.seriesId}/affisch.pdf`,
    expect: OWNED(200),
    missing: 404,
    note: "a series' poster: the owner of its business (or the superadmin) only",
  },
  'GET /api/owner/kit/quiz/:id/:file': {
    object: 'quiz',
    path: (t) => `/api/owner/kit/quiz/${t.quizId}/bordsskylt.pdf`,
    expect: OWNED(200),
    missing: 404,
    note: "a single quiz's table tent: the owner of its business (or the superadmin) only",
  },
  'GET /api/owner/series/:id/holidays': { object: 'series', expect: OWNED(200), missing: 404 },
  'POST /api/owner/series/:id/holidays': {
    object: 'series',
    body: () => ({ decisions: [{ date: addDays(TODAY, 7), skip: true }] }),
    expect: { visitor: 401, own: 400, other: 403, superadmin: 400 },
    missing: 404,
    fuzzActor: 'own',
    note: "the world's series has no holiday: authorization first (401/403/404), then 400 'är ingen helgdag' (skip/restore: holidays.test.ts)",
  },
  // Freshness (issue 20)
  'GET /api/owner/freshness/:id': { object: 'venue', expect: OWNED(200), missing: 404 },
  'POST /api/owner/freshness/:id/confirm': { object: 'venue', expect: OWNED(200), missing: 404 },
  'GET /api/freshness/quiz/:id': { object: 'quiz', expect: PUBLIC(200), missing: 404, note: "the detail dialog's 'Senast bekräftad' line" },
  // Signed links in owner mail: no session; without a valid token every caller gets the 400 page (holidays.test.ts, freshness.test.ts).
  'GET /helgdag': { object: 'none', expect: PUBLIC(400), fuzzActor: 'visitor' },
  'POST /helgdag': { object: 'none', expect: PUBLIC(400), fuzzActor: 'visitor' },
  'GET /bekrafta-quiz': { object: 'none', expect: PUBLIC(400), fuzzActor: 'visitor' },
  'POST /bekrafta-quiz': { object: 'none', expect: PUBLIC(400), fuzzActor: 'visitor' },

  // ------------------------------------------------------------ development-only routes (APP_ENV=test here; 404 in production)
  'GET /dev/mail.json': { object: 'none', expect: PUBLIC(200), note: 'dev/test only; production answers 404 (headers.test.ts)' },
  'GET /dev/mail': { object: 'none', expect: PUBLIC(200), note: 'dev/test only' },
  'GET /dev/checkout/:id': { object: 'order', expect: PUBLIC(200), missing: 404, note: 'local checkout stand-in, dev/test only' },
  'POST /dev/checkout/:id/pay': { object: 'order', expect: PUBLIC(303), missing: 404, note: 'local checkout stand-in, dev/test only' },
  'POST /dev/checkout/:id/cancel': { object: 'order', expect: PUBLIC(303), missing: 404, note: 'local checkout stand-in, dev/test only' },

  // ------------------------------------------------------------ server-rendered public pages
  'GET /': { object: 'none', expect: PUBLIC(200) },
  'GET /legacy': { object: 'none', expect: PUBLIC(200) },
  'GET /annonsera': { object: 'none', expect: PUBLIC(200), note: 'how paid placement and the ranking work (issue 18)' },
  'GET /stad/:city': { object: 'none', path: (t) => `/stad/${t.citySlug}`, expect: PUBLIC(200) },
  'GET /quiz/:slug': { object: 'none', path: (t) => `/quiz/${t.citySlug}`, expect: PUBLIC(200) },
  'GET /quiz/:city/:second': { object: 'none', path: (t) => `/quiz/${t.citySlug}/${t.venueSlug}`, expect: PUBLIC(200) },
  'GET /quiz/:city/:venue/resultat': { object: 'none', path: (t) => `/quiz/${t.citySlug}/${t.venueSlug}/resultat`, expect: PUBLIC(200) },
  'GET /lag/:slug': { object: 'none', path: (t) => `/lag/${t.teamSlug}`, expect: PUBLIC(200) },
  'GET /liga/:slug': {
    object: 'none',
    path: () => '/liga/ingen-sadan-liga',
    expect: PUBLIC(404),
    note: 'the world has no league (leagues.test.ts has the page)',
  },
  'GET /sitemap.xml': { object: 'none', expect: PUBLIC(200), note: 'the sitemap index (issue 19 §4)' },
  'GET /sitemaps/:file': {
    object: 'none',
    path: () => '/sitemaps/stallen-1.xml',
    expect: PUBLIC(200),
    note: 'a child sitemap: sidor-N (cities, weekdays) or stallen-N (venue pages)',
  },
  // embeddable widgets (issue 16): public HTML for other sites' iframes
  'GET /embed/:city': { object: 'none', path: (t) => `/embed/${t.citySlug}`, expect: PUBLIC(200) },
  'GET /embed/:city/:venue': { object: 'none', path: (t) => `/embed/${t.citySlug}/${t.venueSlug}`, expect: PUBLIC(200) },
  // share images (og:image, issue 16): public PNGs
  'GET /og/start.png': { object: 'none', expect: PUBLIC(200) },
  'GET /og/city/:file': { object: 'none', path: (t) => `/og/city/${t.citySlug}.png`, expect: PUBLIC(200) },
  'GET /og/city/:city/:file': { object: 'none', path: (t) => `/og/city/${t.citySlug}/tisdag.png`, expect: PUBLIC(200) },
  'GET /og/weekday/:file': { object: 'none', path: () => '/og/weekday/tisdag.png', expect: PUBLIC(200) },
  'GET /og/venue/:city/:file': { object: 'none', path: (t) => `/og/venue/${t.citySlug}/${t.venueSlug}.png`, expect: PUBLIC(200) },
  'GET /og/resultat/:city/:file': { object: 'none', path: (t) => `/og/resultat/${t.citySlug}/${t.venueSlug}.png`, expect: PUBLIC(200) },
  'GET /og/liga/:file': { object: 'none', path: () => '/og/liga/ingen-sadan-liga.png', expect: PUBLIC(404), note: 'the world has no league' },
  'GET /robots.txt': { object: 'none', expect: PUBLIC(200) },

  // ------------------------------------------------------------ quizmaster profiles (issue 48)
  'GET /quizmaster/:slug': { object: 'none', path: (t) => `/quizmaster/${t.quizmasterSlug}`, expect: PUBLIC(200), note: 'the public profile page' },
  'GET /quizmaster-foto/:slug': {
    object: 'none',
    path: (t) => `/quizmaster-foto/${t.quizmasterSlug}`,
    expect: PUBLIC(404),
    note: "the profile's photo from R2: public; the world's profile has none (404 for everyone)",
  },
  'GET /og/quizmaster/:file': { object: 'none', path: (t) => `/og/quizmaster/${t.quizmasterSlug}.png`, expect: PUBLIC(200) },
  'GET /api/owner/quizmasters': { object: 'none', path: () => '/api/owner/quizmasters?q=kim', expect: SIGNED_IN(200), note: 'typeahead: any signed-in owner' },
  'POST /api/owner/quizmasters': { object: 'none', body: (t) => ({ name: `Quizmaster ${t.fresh}` }), expect: SIGNED_IN(201) },
  'GET /api/owner/quizmaster-suggestions': { object: 'none', expect: SIGNED_IN(200), note: "the caller's own free-text quizmasters only" },
  'GET /api/owner/quizzes/:id/quizmaster': { object: 'seriesQuiz', expect: OWNED(200), missing: 404 },
  'PUT /api/owner/quizzes/:id/quizmaster': { object: 'seriesQuiz', body: (t) => ({ quizmasterId: t.quizmasterId }), expect: OWNED(200), missing: 404 },
  'POST /api/owner/quizzes/:id/quizmaster/invite': {
    object: 'seriesQuiz',
    body: (t) => ({ email: `${t.fresh}@test.local` }),
    expect: OWNED(200),
    missing: 404,
  },
  'DELETE /api/owner/quizzes/:id/quizmaster/assignment': { object: 'seriesQuiz', expect: OWNED(200), missing: 404 },
  'GET /api/quizmaster/me': {
    object: 'none',
    expect: SIGNED_IN(200),
    note: "the caller's own claimed profile, or null (quizmaster-role.test.ts)",
  },
  'PATCH /api/quizmaster/me': {
    object: 'none',
    body: () => ({ bio: 'Hej' }),
    expect: { visitor: 401, own: 403, other: 403, superadmin: 403 },
    note: 'only the claimed quizmaster edits the own bio (quizmaster-role.test.ts)',
    fuzzActor: 'own',
  },
  'PUT /api/quizmaster/me/photo': {
    object: 'none',
    expect: { visitor: 401, own: 403, other: 403, superadmin: 403 },
    note: 'only the claimed quizmaster sets the own photo (quizmasters.test.ts)',
    fuzzActor: 'own',
  },
  'GET /quizmaster-inbjudan': { object: 'none', expect: PUBLIC(400), note: 'the invitation link: signed link required', fuzzActor: 'visitor' },
  'POST /quizmaster-inbjudan': {
    object: 'none',
    expect: { visitor: 401, own: 400, other: 400, superadmin: 400 },
    note: 'claiming needs a session and the signed invitation link',
    fuzzActor: 'own',
  },
  'GET /quizmaster-inbjudan/stopp': { object: 'none', expect: PUBLIC(200), note: 'shows the button only; changes nothing', fuzzActor: 'visitor' },
  'POST /quizmaster-inbjudan/stopp': {
    object: 'none',
    expect: PUBLIC(400),
    note: 'RFC 8058 one-click, exempt from the CSRF guard; signed link required',
    fuzzActor: 'visitor',
  },
};
