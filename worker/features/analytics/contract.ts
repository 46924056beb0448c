/**
 * Owner analytics, the superadmin overview and the slot calendar (issue 18). zod and plain functions
 * only: shared by the Worker and the owner screens (web/components/analytics).
 */
import * as z from 'zod';
import { ANALYTICS_METRICS, type AnalyticsMetric } from '../../lib/analytics-metrics';
import { lazySchema } from '../../lib/lazy-schema';
import { idField } from '../../lib/zod-text';

export const METRICS = ANALYTICS_METRICS;
export type Metric = AnalyticsMetric;

export const METRIC_LABELS: Record<Metric, string> = {
  impression: 'Visningar i listan',
  detail_open: 'Detaljvisningar',
  venue_view: 'Sidvisningar',
  click_website: 'Klick på webbplats',
  click_phone: 'Klick på telefon',
  click_directions: 'Vägbeskrivningar',
  click_share: 'Delningar',
  calendar_add: 'Tillagda i kalender',
  feed_subscribe: 'Kalenderprenumerationer',
  follow: 'Följare',
  src_affisch: 'Besök via affisch',
  src_bordsskylt: 'Besök via bordsskylt',
  src_instagram: 'Besök via Instagram',
  results_view: 'Visningar av resultat',
};
/** Lower-case plural for the comparison line ("3,1 × fler detaljvisningar"). */
const METRIC_NOUNS: Record<Metric, string> = {
  impression: 'visningar i listan',
  detail_open: 'detaljvisningar',
  venue_view: 'sidvisningar',
  click_website: 'klick på webbplatsen',
  click_phone: 'klick på telefonnumret',
  click_directions: 'vägbeskrivningar',
  click_share: 'delningar',
  calendar_add: 'kalendertillägg',
  feed_subscribe: 'kalenderprenumerationer',
  follow: 'nya följare',
  src_affisch: 'besök via affischen',
  src_bordsskylt: 'besök via bordsskylten',
  src_instagram: 'besök via Instagram',
  results_view: 'visningar av resultatsidan',
};

export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];

const Id = lazySchema(idField);

/** GET /api/analytics and /api/analytics/export.csv */
export const AnalyticsQuerySchema = lazySchema(() =>
  z.object({
    venueId: Id.optional().describe('Verksamhet'),
    days: z
      .enum(['7', '30', '90'], { error: 'Välj 7, 30 eller 90 dagar' })
      .default('30')
      .transform((d) => Number(d) as Period)
      .describe('Period'),
  }),
);
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

/** GET /api/analytics/slots?quizId= */
export const SlotCalendarQuerySchema = lazySchema(() => z.object({ quizId: Id.describe('Quiz') }));

export type Counts = Partial<Record<Metric, number>>;
export type PromotedTier = 'premium' | 'recommended';

export interface AnalyticsDay {
  date: string;
  counts: Counts;
  /** The strongest paid placement the business had that day (any of its quizzes), or null. */
  promoted: PromotedTier | null;
}
export interface AnalyticsRow {
  /** Place id, series id or quiz id; '' for the business as a whole (its venue page). */
  key: string;
  name: string;
  /** The place of a quiz row ('' for place rows). */
  place: string;
  kind: 'venue' | 'place' | 'series' | 'quiz';
  counts: Counts;
}
export interface Comparison {
  tier: PromotedTier;
  metric: Metric;
  factor: number;
  promotedDays: number;
  ordinaryDays: number;
  text: string;
}
export interface AnalyticsResponse {
  venue: { id: string; name: string };
  days: Period;
  from: string;
  to: string;
  totals: Counts;
  daily: AnalyticsDay[];
  places: AnalyticsRow[];
  quizzes: AnalyticsRow[];
  comparisons: Comparison[];
}

export type SlotStatus = 'free' | 'limited' | 'soldout';
/** The same words as the purchase dialogs (promotion AVAILABILITY_LABELS, issue 29.2). */
export const SLOT_STATUS_LABELS: Record<SlotStatus, string> = { free: 'Ledigt', limited: 'Begränsat', soldout: 'Upptaget' };
export interface SlotDay {
  date: string;
  recommended: { taken: number; max: number; status: SlotStatus };
  premium: { taken: number; max: number; status: SlotStatus };
}
/** How many weeks back the superadmin's revenue table reaches. */
export const REVENUE_WEEKS = 12;
/** How many days back the superadmin's most viewed places are counted. */
export const TOP_PLACES_DAYS = 30;

/** GET /api/analytics/slots: the next 4 weeks of the quiz's city. */
export interface SlotCalendarResponse {
  city: string;
  citySlug: string;
  days: SlotDay[];
}
export const SLOT_CALENDAR_DAYS = 28;

/** Free or taken; "limited" only when the last of several slots is left (a one-slot tier never is, issue 29.2). */
export function slotStatus(taken: number, max: number): SlotStatus {
  return taken >= max ? 'soldout' : max > 1 && max - taken === 1 ? 'limited' : 'free';
}

/** GET /api/analytics/overview (superadmin). */
export interface OverviewResponse {
  from: string;
  to: string;
  /** Paid orders of the last REVENUE_WEEKS weeks, per ISO week and city (öre). */
  revenue: Array<{ week: string; citySlug: string; amount: number; orders: number }>;
  /** Slots taken (held or sold) per city and day for the next 4 weeks (only days with any). */
  occupancy: Array<{ citySlug: string; date: string; recommended: number; premium: number }>;
  /** The 10 most viewed places of the last 30 days. */
  topPlaces: Array<{
    venueId: string;
    venueName: string;
    locationId: string;
    placeName: string;
    city: string;
    impression: number;
    detail_open: number;
    venue_view: number;
  }>;
}

/** Days needed on both sides before the comparison line is shown. */
export const MIN_COMPARISON_DAYS = 3;
const TIER_NAMES: Record<PromotedTier, string> = { premium: 'Premium Utvald', recommended: 'Rekommenderat' };

const svNumber = (n: number) => n.toLocaleString('sv-SE', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * The plain comparison line: average per day of `metric` on days with a tier vs days with no paid
 * placement. Null unless both sides have at least MIN_COMPARISON_DAYS days and ordinary days have
 * any count (a factor against zero says nothing).
 */
export function compareDays(daily: readonly AnalyticsDay[], tier: PromotedTier, metric: Metric = 'detail_open'): Comparison | null {
  const promoted = daily.filter((d) => d.promoted === tier);
  const ordinary = daily.filter((d) => d.promoted === null);
  if (promoted.length < MIN_COMPARISON_DAYS || ordinary.length < MIN_COMPARISON_DAYS) return null;
  const avg = (ds: readonly AnalyticsDay[]) => ds.reduce((s, d) => s + (d.counts[metric] ?? 0), 0) / ds.length;
  const base = avg(ordinary);
  if (base <= 0) return null;
  const factor = Math.round((avg(promoted) / base) * 10) / 10;
  const noun = METRIC_NOUNS[metric];
  const text =
    factor >= 1
      ? `Dagar med ${TIER_NAMES[tier]}: ${svNumber(factor)} × fler ${noun} än dina vanliga dagar`
      : `Dagar med ${TIER_NAMES[tier]}: ${svNumber(factor)} × så många ${noun} som dina vanliga dagar`;
  return { tier, metric, factor, promotedDays: promoted.length, ordinaryDays: ordinary.length, text };
}

export const ANALYTICS_CSV_HEADER = ['Typ', 'Namn', 'Plats', ...METRICS.map((m) => METRIC_LABELS[m])];
export const ROW_KIND_LABELS: Record<AnalyticsRow['kind'], string> = { venue: 'Verksamhet', place: 'Plats', series: 'Återkommande quiz', quiz: 'Quiz' };
