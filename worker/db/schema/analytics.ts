/** Owner analytics (issue 18). */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ANALYTICS_METRICS } from '../../lib/analytics-metrics';
import { venues } from './catalogue';

/**
 * What visitors did, counted per Stockholm day (issue 18). Privacy by design: no cookie, IP address,
 * user agent or visitor id is stored — only how many times something happened to a place or quiz on
 * a day. `location_id` and `quiz_id` are '' when the event concerns the whole business (a venue page
 * view); `quiz_id` is the occurrence's id. Written only by the one upsert batch of POST /api/events
 * (`count = count + excluded.count`); cascades with the business.
 */
export { ANALYTICS_METRICS, type AnalyticsMetric } from '../../lib/analytics-metrics';
export const analyticsDaily = sqliteTable(
  'analytics_daily',
  {
    /** YYYY-MM-DD, Stockholm date of the event (received). */
    day: text('day').notNull(),
    venueId: text('venue_id')
      .notNull()
      .references(() => venues.id, { onDelete: 'cascade' }),
    /** '' = the business as a whole. No FK: the '' sentinel; rows go with the business. */
    locationId: text('location_id').notNull().default(''),
    /** '' = not about one quiz occurrence. */
    quizId: text('quiz_id').notNull().default(''),
    metric: text('metric', { enum: ANALYTICS_METRICS }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.venueId, t.day, t.metric, t.locationId, t.quizId] }),
    index('analytics_daily_day_idx').on(t.day, t.metric),
    check('analytics_daily_count_ck', sql`count >= 0`),
  ],
);
export type AnalyticsDailyRow = typeof analyticsDaily.$inferSelect;

/**
 * Issue 26.6, the counting rule (docs/features/analytics-counting.md): at most one event of a metric per client,
 * quiz (or business) and day. `analytics_salts` holds one random salt per Stockholm day;
 * `analytics_seen` holds SHA-256(salt | client | metric | target), truncated — never the address itself.
 * Rows of earlier days (salts and hashes) are deleted on the first event of a new day and by the
 * nightly job, so once a day is over nobody can tell whose a hash was.
 */
export const analyticsSalts = sqliteTable('analytics_salts', {
  /** YYYY-MM-DD, Stockholm. */
  day: text('day').primaryKey(),
  salt: text('salt').notNull(),
});

export const analyticsSeen = sqliteTable(
  'analytics_seen',
  {
    day: text('day').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.hash] })],
);
