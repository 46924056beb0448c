/** The catalogue: businesses (venues), their places (locations) and quizzes (single or a series' occurrences). */
import { sql } from 'drizzle-orm';
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { QUIZ_LANGUAGES } from '../../lib/quiz-filters';
import { timestamps } from './common';
import { users } from './accounts';

export const venues = sqliteTable(
  'venues',
  {
    id: text('id').primaryKey(),
    /** Owner. Unclaimed businesses belong to the house account (HOUSE_ACCOUNT_EMAIL). */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** URL slug of the name, unique within the catalogue (public venue page /quiz/{city}/{venue}). */
    slug: text('slug').notNull(),
    description: text('description'),
    address: text('address'),
    city: text('city'),
    phone: text('phone'),
    website: text('website'),
    isPublic: integer('is_public', { mode: 'boolean' }).notNull().default(true),
    /**
     * Freshness (issue 20): when the owner last confirmed the business's quizzes (any owner edit of a
     * quiz or series, or the one-click link in the monthly mail). null = never: counts from created_at.
     */
    confirmedAt: text('confirmed_at'),
    /** How many 30-day freshness steps have been acted on (1 mail, 2 warning, ≥3 hidden + monthly mail). */
    freshnessStage: integer('freshness_stage').notNull().default(0),
    /**
     * Set when the freshness job hid the business (is_public 1 → 0) after 90 days unconfirmed; a
     * confirmation makes it public again only when this is set (an owner's own 'not public' stays).
     */
    staleHiddenAt: text('stale_hidden_at'),
    /**
     * Swedish sort and search key of the name (SQLite has no sv collation): ASCII lower-cased, å/ä/ö
     * mapped to the three characters after 'z' ('{', '|', '}') so they sort after z in that order,
     * é → e, ü → y. Mirrored by swedishSortKey() in worker/features/admin/contract.ts for searches.
     */
    nameSort: text('name_sort').generatedAlwaysAs(
      sql`replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(trim("name")), 'å', '{'), 'Å', '{'), 'ä', '|'), 'Ä', '|'), 'æ', '|'), 'Æ', '|'), 'ö', '}'), 'Ö', '}'), 'ø', '}'), 'Ø', '}'), 'é', 'e'), 'É', 'e'), 'ü', 'y'), 'Ü', 'y')`,
      { mode: 'virtual' },
    ),
    ...timestamps,
  },
  (t) => [
    index('venues_user_idx').on(t.userId),
    index('venues_name_idx').on(t.name),
    index('venues_name_sort_idx').on(t.nameSort, t.id),
    uniqueIndex('venues_slug_idx').on(t.slug),
  ],
);
export type VenueRow = typeof venues.$inferSelect;

export const locations = sqliteTable(
  'locations',
  {
    id: text('id').primaryKey(),
    venueId: text('venue_id')
      .notNull()
      .references(() => venues.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    address: text('address').notNull(),
    /** Display name of the city as the owner wrote it ("Göteborg"). */
    city: text('city').notNull(),
    /** ASCII slug of the city ("goteborg"), what filters and URLs use (worker/lib/slug.ts). */
    citySlug: text('city_slug').notNull(),
    phone: text('phone'),
    website: text('website'),
    latitude: real('latitude'),
    longitude: real('longitude'),
    ...timestamps,
  },
  (t) => [
    index('locations_venue_idx').on(t.venueId),
    // (city_slug, city, venue_id), migration 0016: a city's spellings in name order, each with its places'
    // businesses, read from the index alone (the city list and a city's display name never read a place row).
    index('locations_city_name_idx').on(t.citySlug, t.city, t.venueId),
  ],
);
export type LocationRow = typeof locations.$inferSelect;

export const QUIZ_CATEGORIES = ['allmänbildning', 'tema'] as const;
export const RECURRENCE_PATTERNS = ['weekly', 'biweekly'] as const;
export type RecurrencePattern = (typeof RECURRENCE_PATTERNS)[number];

export const quizzes = sqliteTable(
  'quizzes',
  {
    id: text('id').primaryKey(),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    /** YYYY-MM-DD, Stockholm local date. */
    date: text('date').notNull(),
    /** 0 = Sunday … 6 = Saturday (SQLite %w), derived from `date`; indexed for weekday filters. */
    weekday: integer('weekday').generatedAlwaysAs(sql`CAST(strftime('%w', "date") AS INTEGER)`, { mode: 'virtual' }),
    /** HH:MM:SS, Stockholm local time; null shows as 19:00. */
    startTime: text('start_time'),
    title: text('title'),
    description: text('description'),
    /** allmänbildning | tema from the forms; older stored values are displayed too (spec 01 §3); null = not given (no badge). */
    category: text('category'),
    theme: text('theme'),
    quizmaster: text('quizmaster'),
    teamSize: integer('team_size'),
    /** Entry fee in whole SEK, 0 = free ('Gratis'); null = not given ('Pris ej angivet', issue 44.3). */
    price: integer('price'),
    isRecurring: integer('is_recurring', { mode: 'boolean' }).notNull().default(false),
    /** Shared by every occurrence of a series; null for single quizzes. */
    recurrenceId: text('recurrence_id'),
    recurrencePattern: text('recurrence_pattern', { enum: RECURRENCE_PATTERNS }),
    /** JSON array of Swedish weekday slugs, e.g. ["tisdag","torsdag"]. */
    recurrenceDays: text('recurrence_days'),
    /** YYYY-MM-DD; null = open-ended (extended nightly by the cron). */
    recurrenceUntil: text('recurrence_until'),
    /** One occurrence cancelled by the owner: still listed, shown as 'Inställt'. */
    isCancelled: integer('is_cancelled', { mode: 'boolean' }).notNull().default(false),
    /** The language the quiz is held in (issue 31.3): sv | en | both (worker/lib/quiz-filters.ts QUIZ_LANGUAGES); a series shares it like its other fields. */
    language: text('language', { enum: QUIZ_LANGUAGES }).notNull().default('sv'),
    /** "Vi kommer" (issue 47): tables for teams on this date; null = no limit. A series edit sets every future date. */
    capacityTables: integer('capacity_tables'),
    ...timestamps,
  },
  (t) => [
    index('quizzes_location_date_idx').on(t.locationId, t.date),
    index('quizzes_date_idx').on(t.date),
    index('quizzes_weekday_date_idx').on(t.weekday, t.date),
    // City + weekday listing: locations(city_slug) → quizzes by (location, weekday, date) range (issue 8 query plans).
    index('quizzes_location_weekday_date_idx').on(t.locationId, t.weekday, t.date),
    index('quizzes_recurrence_idx').on(t.recurrenceId, t.date),
    // The listing's per-unit checks and lookups (one series at one place, on a weekday, from a date): one seek, index only.
    index('quizzes_unit_weekday_date_idx').on(t.recurrenceId, t.locationId, t.weekday, t.date),
    // One occurrence per series and date: makes series creation and cron extension idempotent.
    uniqueIndex('quizzes_series_date_uq').on(t.recurrenceId, t.date).where(sql`recurrence_id IS NOT NULL`),
    check('quizzes_team_size_ck', sql`team_size IS NULL OR team_size IN (2,3,4,5,6,8)`),
    check('quizzes_price_ck', sql`price IS NULL OR price >= 0`),
    // language IN ('sv','en','both'): checked by the triggers quizzes_language_ck_ai/_au of the quiz-language
    // migration (scripts/listing-series-triggers.mjs `language`). A table CHECK here would make drizzle-kit
    // rebuild quizzes (CREATE __new_quizzes … DROP TABLE quizzes), which drops its triggers and, on D1, cascades.
  ],
);
export type QuizRow = typeof quizzes.$inferSelect;
