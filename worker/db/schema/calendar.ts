/** Calendar sync (issue 31.2). */
import { index, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './common';
import { locations, quizzes } from './catalogue';

export const CALENDAR_SYNC_STATUSES = ['ok', 'partial', 'failed'] as const;
/**
 * An owner's public calendar address (ICS) synced into one place's quizzes (worker/features/calendar-sync).
 * The last sync's outcome is kept on the row: `last_result` (JSON: counts and the changes skipped because
 * of an order), `last_error` (Swedish, shown on the place). At most MAX_CALENDAR_FEEDS_PER_BUSINESS per business.
 */
export const calendarFeeds = sqliteTable(
  'calendar_feeds',
  {
    id: text('id').primaryKey(),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    lastSyncedAt: text('last_synced_at'),
    lastStatus: text('last_status', { enum: CALENDAR_SYNC_STATUSES }),
    lastError: text('last_error'),
    lastResult: text('last_result'),
    /**
     * When a sync of the feed last started (issue 42.2): written before the fetch, so a sync the runtime kills
     * still counts as an attempt and the feed goes to the back of the nightly line (queries.ts feedsToSync).
     */
    attemptedAt: text('attempted_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('calendar_feeds_location_url_uq').on(t.locationId, t.url)],
);
export type CalendarFeedRow = typeof calendarFeeds.$inferSelect;

/**
 * One synced occurrence: the calendar's event UID + original date (`key`) → the quiz it became, and a
 * fingerprint of what the sync last wrote to that quiz. A quiz whose fingerprint no longer matches was
 * edited by its owner and is left alone; a quiz the owner deleted (quiz_id set to NULL) is not recreated.
 */
export const calendarSyncItems = sqliteTable(
  'calendar_sync_items',
  {
    feedId: text('feed_id')
      .notNull()
      .references(() => calendarFeeds.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    quizId: text('quiz_id').references(() => quizzes.id, { onDelete: 'set null' }),
    syncedHash: text('synced_hash').notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.feedId, t.key] }), index('calendar_sync_items_quiz_idx').on(t.quizId)],
);
export type CalendarSyncItemRow = typeof calendarSyncItems.$inferSelect;
