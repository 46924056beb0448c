/**
 * A small, fresh "world" for the security tests: owner A and owner B, each with a business, a place,
 * a single quiz, a weekly series, an open checkout order; a superadmin; a business of the house
 * account (unclaimed) and a feedback row. Every id is new, so no test depends on another's data.
 *
 * All sessions are created at the pinned instant CLOCK, and every request is sent with that clock,
 * so "today" is fixed (a Monday in Stockholm) and nothing depends on the wall clock.
 */
import { eq } from 'drizzle-orm';
import { calendarFeeds, checkoutOrders, feedback, locations, quizmasterLinks, quizmasters, quizzes, teams, users, venues } from '../../../worker/db/schema';
import { teamNameKey } from '../../../worker/features/results/contract';
import { newTeamCode } from '../../../worker/features/results/rules';
import { slugify } from '../../../worker/lib/slug';
import { addDays } from '../../../worker/lib/clock';
import { newId } from '../../../worker/lib/ids';
import { createUser, locationValues, testDb, unique, venueValues, type TestUser, uniqueTown } from '../../factories';

/** Monday 2030-03-04 11:00 in Stockholm. */
export const CLOCK = '2030-03-04T10:00:00Z';
export const TODAY = '2030-03-04';
export const CLOCK_DATE = new Date(CLOCK);

/** The house account e-mail of the integration config (vitest.config.ts HOUSE_ACCOUNT_EMAIL). */
export const HOUSE_EMAIL = 'house@test.local';

export interface Side {
  user: TestUser;
  venueId: string;
  venueSlug: string;
  locationId: string;
  city: string;
  citySlug: string;
  /** A single (non-recurring) quiz next week. */
  quizId: string;
  /** recurrence_id of a weekly series with three future occurrences. */
  seriesId: string;
  seriesQuizId: string;
  /** An open checkout order (one held Rekommenderat slot for quizId). */
  orderId: string;
  stripeSessionId: string;
  /** A calendar address synced to locationId (issue 31.2); private, so a sync in tests never reaches the network. */
  feedId: string;
  /** A quizmaster profile (issue 48), unclaimed, linked to the series. */
  quizmasterId: string;
  quizmasterSlug: string;
}

export interface World {
  a: Side;
  b: Side;
  superadmin: TestUser;
  houseVenueId: string;
  feedbackId: string;
  /** A team (issue 46) with a public page /lag/{teamSlug}. */
  teamId: string;
  teamSlug: string;
}

async function houseUserId(): Promise<string> {
  const db = testDb();
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, HOUSE_EMAIL)).limit(1);
  if (row) return row.id;
  const id = newId();
  await db.insert(users).values({ id, email: HOUSE_EMAIL, emailVerifiedAt: CLOCK }).onConflictDoNothing();
  const [again] = await db.select({ id: users.id }).from(users).where(eq(users.email, HOUSE_EMAIL)).limit(1);
  return again!.id;
}

/** One side's rows in ONE batch (fast: the matrix builds a few hundred worlds). */
export async function createSide(opts: { city?: string } = {}): Promise<Side> {
  const user = await createUser({ now: CLOCK_DATE });
  const db = testDb();
  const venue = venueValues(user.id);
  const location = locationValues(venue.id, { city: opts.city ?? uniqueTown() });
  const [venueId, venueSlug, locationId, city, citySlug] = [venue.id, venue.slug, location.id, location.city, location.citySlug];
  const quizId = newId();
  const quizDate = addDays(TODAY, 8);
  const seriesId = newId();
  const seriesIds = [newId(), newId(), newId()];
  const orderId = newId();
  const stripeSessionId = `cs_test_${unique('s')}`;
  const feedId = newId();
  const quizmasterId = newId();
  const quizmasterSlug = `qm-${unique('q').toLowerCase()}`;
  const base = { locationId, startTime: '19:00:00', category: 'allmänbildning' };
  await db.batch([
    db.insert(venues).values(venue),
    db.insert(locations).values(location),
    db.insert(quizzes).values([
      { id: quizId, date: quizDate, ...base },
      ...seriesIds.map((id, i) => ({
        id,
        date: addDays(TODAY, 7 * (i + 1)),
        ...base,
        isRecurring: true,
        recurrenceId: seriesId,
        recurrencePattern: 'weekly' as const,
        recurrenceDays: JSON.stringify(['måndag']),
      })),
    ]),
    db.insert(checkoutOrders).values({
      id: orderId,
      userId: user.id,
      venueId,
      kind: 'promotion',
      status: 'open',
      stripeSessionId,
      amountTotal: 4900,
      items: JSON.stringify([{ quizId, tier: 'recommended', date: quizDate, citySlug, weeks: 1, amount: 4900 }]),
      expiresAt: CLOCK_DATE.getTime() + 30 * 60_000,
    }),
    db.insert(calendarFeeds).values({ id: feedId, locationId, url: 'https://127.0.0.1/kalender.ics' }),
    db.insert(quizmasters).values({ id: quizmasterId, name: 'Kim Quiz', nameKey: 'kim quiz', slug: quizmasterSlug, createdBy: user.id }),
    db.insert(quizmasterLinks).values({ unitKey: seriesId, quizmasterId, locationId, venueId }),
  ]);
  return {
    user,
    venueId,
    venueSlug,
    locationId,
    city,
    citySlug,
    quizId,
    seriesId,
    seriesQuizId: seriesIds[0]!,
    orderId,
    stripeSessionId,
    feedId,
    quizmasterId,
    quizmasterSlug,
  };
}

export async function createWorld(): Promise<World> {
  const [a, b, superadmin, houseId] = await Promise.all([
    createSide(),
    createSide(),
    createUser({ roles: ['admin', 'superadmin'], now: CLOCK_DATE }),
    houseUserId(),
  ]);
  // The house account's business with a place in A's city, and a feedback row: one batch.
  const db = testDb();
  const house = venueValues(houseId);
  const feedbackId = newId();
  const teamId = newId();
  const teamName = `Säkerlaget ${unique('t')}`;
  const teamSlug = slugify(teamName);
  await db.batch([
    db.insert(teams).values({ id: teamId, name: teamName, nameKey: teamNameKey(teamName), slug: teamSlug, code: newTeamCode() }),
    db.insert(venues).values(house),
    db.insert(locations).values(locationValues(house.id, { city: a.city })),
    db.insert(feedback).values({ id: feedbackId, category: 'bug', title: 'Trasig knapp', description: 'Knappen gör inget' }),
  ]);
  return { a, b, superadmin, houseVenueId: house.id, feedbackId, teamId, teamSlug };
}

/** Every table a refused request must leave untouched. */
export const GUARDED_TABLES = [
  'quizmasters',
  'quizmaster_links',
  'quizmaster_assignments',
  'quizmaster_invitations',
  'users',
  'password_credentials',
  'oauth_accounts',
  'sessions',
  'email_tokens',
  'totp_factors',
  'user_roles',
  'profiles',
  'venues',
  'locations',
  'quizzes',
  'checkout_orders',
  'promotion_slot_claims',
  'promotions',
  'payment_events',
  'feedback',
  'analytics_daily',
  'tips',
  'rsvps',
  'rsvp_counts',
  'rsvp_settings',
  'teams',
  'result_nights',
  'results',
  'result_changes',
  'seasons',
  'season_standings',
  'team_reports',
];
