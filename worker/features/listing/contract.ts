import * as z from 'zod';
import { findWeekday } from '../../lib/swedish';
import { lineText } from '../../lib/zod-text';
import {
  ALL_FILTER,
  LANGUAGE_FILTERS,
  PRICE_FILTERS,
  TEAM_FILTER_MAX,
  TEAM_FILTER_MIN,
  TIME_FILTERS,
  TOPIC_FILTERS,
  type LanguageFilter,
  type PriceFilter,
  type QuizLanguage,
  type TimeFilter,
  type TopicFilter,
} from '../../lib/quiz-filters';
import { lazySchema } from '../../lib/lazy-schema';

/**
 * GET /api/listing (spec 01 §4 "Listing filters"). Shared by the worker validator and the public pages.
 * Precedence of the selection modes: search term → selected date → specific weekday → 'all'.
 */
export const LISTING_PAGE_SIZE = 12;
export const LISTING_SEARCH_MAX = 100;
export const LISTING_MAX_PAGE = 500;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Near mode (issue 15): radius in whole km. */
export const NEAR_RADIUS_MIN = 1;
export const NEAR_RADIUS_MAX = 100;
export const NEAR_RADIUS_DEFAULT = 10;
/** Decimals of a position the web app puts into URLs (≈ 110 m): shareable, and no finer than needed. */
export const NEAR_DECIMALS = 3;

const NEAR_RE = /^(-?\d{1,3}(?:\.\d{1,8})?)\s*,\s*(-?\d{1,3}(?:\.\d{1,8})?)$/;

/** `near=LAT,LNG` (decimal point, e.g. 57.708,11.974) → { lat, lng }. */
export const NearSchema = lazySchema(() =>
  z
    .string()
    .trim()
    .transform((v, ctx) => {
      const m = NEAR_RE.exec(v);
      const lat = m ? Number(m[1]) : NaN;
      const lng = m ? Number(m[2]) : NaN;
      if (!m) {
        ctx.addIssue({ code: 'custom', message: 'Ange positionen som LAT,LNG med decimalpunkt, t.ex. 57.708,11.974' });
        return z.NEVER;
      }
      if (lat < -90 || lat > 90) {
        ctx.addIssue({ code: 'custom', message: 'Latituden måste vara mellan -90 och 90' });
        return z.NEVER;
      }
      if (lng < -180 || lng > 180) {
        ctx.addIssue({ code: 'custom', message: 'Longituden måste vara mellan -180 och 180' });
        return z.NEVER;
      }
      return { lat, lng };
    }),
);

/** One of `values` (case-insensitive), or 'alla'/empty = no filter (undefined). */
function choice<T extends string>(values: readonly { value: T; label: string }[], message: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' || v.trim().toLowerCase() === ALL_FILTER ? undefined : v.trim().toLowerCase()) : v),
    z
      .string()
      .refine((v): v is T => values.some((o) => o.value === v), message)
      .transform((v) => v as T)
      .optional(),
  );
}

/** The quiz filters (issue 20); shared by GET /api/listing, the pages (leniently) and the listing feed. */
export const QuizFilterShape = {
  price: choice<PriceFilter>(PRICE_FILTERS, `Ogiltigt pris (välj ${PRICE_FILTERS.map((o) => o.value).join(', ')} eller ${ALL_FILTER})`).describe('Pris'),
  team: z
    .preprocess(
      (v) => (typeof v === 'string' && (v.trim() === '' || v.trim().toLowerCase() === ALL_FILTER) ? undefined : v),
      z.coerce
        .number({ error: `Ange lagstorleken som ett antal personer (${TEAM_FILTER_MIN}–${TEAM_FILTER_MAX})` })
        .int(`Ange lagstorleken som ett antal personer (${TEAM_FILTER_MIN}–${TEAM_FILTER_MAX})`)
        .min(TEAM_FILTER_MIN, `Lagstorleken måste vara ${TEAM_FILTER_MIN}–${TEAM_FILTER_MAX}`)
        .max(TEAM_FILTER_MAX, `Lagstorleken måste vara ${TEAM_FILTER_MIN}–${TEAM_FILTER_MAX}`)
        .optional(),
    )
    .describe('Lagstorlek'),
  category: choice<TopicFilter>(TOPIC_FILTERS, `Ogiltig kategori (välj ${TOPIC_FILTERS.map((o) => o.value).join(', ')} eller ${ALL_FILTER})`).describe(
    'Kategori',
  ),
  time: choice<TimeFilter>(TIME_FILTERS, `Ogiltig starttid (välj ${TIME_FILTERS.map((o) => o.value).join(', ')} eller ${ALL_FILTER})`).describe('Starttid'),
  /** Issue 31.3: the quiz's language; a quiz in both languages matches either. */
  sprak: choice<LanguageFilter>(LANGUAGE_FILTERS, `Ogiltigt språk (välj ${LANGUAGE_FILTERS.map((o) => o.value).join(', ')} eller ${ALL_FILTER})`).describe(
    'Språk',
  ),
  /** Issue 48: one quizmaster's profile slug (/quizmaster/{slug}). */
  quizmaster: z
    .preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9-]{1,120}$/, 'Ogiltig quizmaster')
        .optional(),
    )
    .describe('Quizmaster'),
};

export const ListingQuerySchema = lazySchema(() =>
  z.object({
    city: z
      .preprocess(
        emptyToUndefined,
        z
          .string()
          .trim()
          .toLowerCase()
          .max(80, 'Staden är för lång')
          .regex(/^[a-z0-9-]+$/, 'Ogiltig stad')
          .optional(),
      )
      .describe('Stad'),
    weekday: z
      .preprocess(
        emptyToUndefined,
        z
          .string()
          .trim()
          .toLowerCase()
          .refine((v) => v === 'all' || v === 'alla' || findWeekday(v) !== undefined, 'Ogiltig veckodag')
          .optional(),
      )
      .describe('Veckodag'),
    date: z
      .preprocess(
        emptyToUndefined,
        z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'Ogiltigt datum (ÅÅÅÅ-MM-DD)')
          .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Ogiltigt datum')
          .optional(),
      )
      .describe('Datum'),
    search: z
      .preprocess(emptyToUndefined, lineText().trim().max(LISTING_SEARCH_MAX, `Söktexten får vara högst ${LISTING_SEARCH_MAX} tecken`).optional())
      .describe('Sök'),
    near: z.preprocess(emptyToUndefined, NearSchema.optional()).describe('Position (near)'),
    radius: z
      .preprocess(
        emptyToUndefined,
        z.coerce
          .number({ error: `Ange radien i hela km (${NEAR_RADIUS_MIN}–${NEAR_RADIUS_MAX})` })
          .int(`Ange radien i hela km (${NEAR_RADIUS_MIN}–${NEAR_RADIUS_MAX})`)
          .min(NEAR_RADIUS_MIN, `Radien måste vara ${NEAR_RADIUS_MIN}–${NEAR_RADIUS_MAX} km`)
          .max(NEAR_RADIUS_MAX, `Radien måste vara ${NEAR_RADIUS_MIN}–${NEAR_RADIUS_MAX} km`)
          .optional(),
      )
      .describe('Radie (km)'),
    ...QuizFilterShape,
    page: z
      .preprocess(
        emptyToUndefined,
        z.coerce.number({ error: 'Ogiltig sida' }).int('Ogiltig sida').min(1, 'Sidan måste vara minst 1').max(LISTING_MAX_PAGE, 'Ogiltig sida').default(1),
      )
      .describe('Sida'),
  }),
);
export type ListingQuery = z.infer<typeof ListingQuerySchema>;
/** The parameters GET /api/listing reads: the only ones in its edge-cache key (worker/lib/cache.ts). */
export const LISTING_QUERY_KEYS: readonly string[] = Object.keys(ListingQuerySchema.shape);

export type ListingTier = 'premium' | 'recommended' | 'standard';
export type ListingMode = 'search' | 'date' | 'weekday' | 'all';

/** One listed occurrence: everything a card, the detail dialog and the JSON-LD Event need. */
export interface ListingQuiz {
  id: string;
  date: string;
  /** HH:MM:SS or null (shown as 19:00). */
  startTime: string | null;
  title: string | null;
  description: string | null;
  category: string | null;
  /** The category badge; null when the category is unknown (issue 44.3: no badge). */
  categoryLabel: string | null;
  theme: string | null;
  quizmaster: string | null;
  /** The quizmaster's profile (issue 48), resolved at read time; absent when the quiz links none. */
  quizmasterProfile?: { name: string; slug: string };
  teamSize: number | null;
  /** Whole SEK, 0 = free ('Gratis'); null = unknown ('Pris ej angivet', in no price filter; issue 44.3). */
  price: number | null;
  isRecurring: boolean;
  recurrencePattern: 'weekly' | 'biweekly' | null;
  isCancelled: boolean;
  /** The language the quiz is held in (issue 31.3): the badge and the JSON-LD `inLanguage`. */
  language: QuizLanguage;
  tier: ListingTier;
  /** Belongs to the house account: an unclaimed business that can be taken over. */
  unclaimed: boolean;
  location: {
    id: string;
    name: string;
    address: string;
    city: string;
    citySlug: string;
    phone: string | null;
    website: string | null;
    latitude: number | null;
    longitude: number | null;
  };
  venue: { id: string; name: string; slug: string; description: string | null; website: string | null };
  /** Where the map shows it: the place's own coordinates, else its town's centre; absent when neither is known. */
  position?: { lat: number; lng: number };
  /**
   * "Vi kommer" (issue 47): confirmed teams and tables left (null without a capacity), added at read time by
   * GET /api/listing from one bounded read keyed by the page's ids (never part of the stored card).
   */
  teams?: number;
  tablesLeft?: number | null;
  /** Near mode only: great-circle distance from the asked position (km) and as shown ("1,2 km"). */
  distanceKm?: number;
  distance?: string;
}

export interface ListingResponse {
  items: ListingQuiz[];
  total: number;
  page: number;
  pageSize: number;
  hasMore: boolean;
  mode: ListingMode;
  /**
   * Places with a listed quiz in the city (× weekday), without the quiz filters (listing_counts; the combined page's
   * intro card shows it); null without a city, in date mode, and for free text (then counted with it).
   */
  venueCount: number | null;
  /** Stockholm date the answer was computed for. */
  today: string;
  /** Near mode: the position and radius asked for (the city filter does not apply then); else absent. */
  near?: { lat: number; lng: number; radiusKm: number };
  /**
   * Near mode only: `total` is a lower bound (the units seen within the radius). Near mode reads
   * outwards from the position only as far as the page needs, so in a dense area it does not count
   * every unit of a large radius; `hasMore` is then true.
   */
  totalAtLeast?: true;
}

export interface CityOption {
  slug: string;
  name: string;
}

/**
 * The map of the current results (issue 15): GET /api/listing/map takes the listing's filters (no page)
 * and answers up to MAP_POINTS_MAX units with a position — in the listing's order, or nearest first in
 * near mode — so the map shows the results, not only the cards loaded so far. A marker's card comes from
 * GET /api/listing/map/:unit with the same filters.
 */
export const MAP_POINTS_MAX = 200;
export const ListingMapQuerySchema = lazySchema(() => ListingQuerySchema.omit({ page: true }));
export type ListingMapQuery = z.infer<typeof ListingMapQuerySchema>;
/** The parameters GET /api/listing/map reads (its edge-cache key). */
export const LISTING_MAP_QUERY_KEYS: readonly string[] = Object.keys(ListingMapQuerySchema.shape);
export const MapUnitParamSchema = lazySchema(() =>
  z.object({
    unit: z.coerce
      .number({ error: 'Ogiltigt quiz' })
      .int('Ogiltigt quiz')
      .min(1, 'Ogiltigt quiz')
      .max(Number.MAX_SAFE_INTEGER, 'Ogiltigt quiz')
      .describe('Quiz'),
  }),
);

export interface ListingMapPoint {
  /** listing_series id: the key of GET /api/listing/map/:unit. */
  unit: number;
  /** Business, and the place when it is named differently. */
  name: string;
  lat: number;
  lng: number;
}

export interface ListingMapResponse {
  points: ListingMapPoint[];
  /** Units matching the filters (a lower bound when `totalAtLeast`, as in the near-mode listing). */
  total: number;
  totalAtLeast?: true;
  /** Matching units that have no position (neither their own nor their town's): not on the map. */
  withoutPosition: number;
}
