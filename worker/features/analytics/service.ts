/**
 * Owner analytics (issue 18): what visitors did with a business's places and quizzes, per day, with
 * the days of paid placement marked; the superadmin overview; the slot calendar of the promotion
 * dialogs. Reads only; counts are written by features/events.
 */
import type { Db } from '../../db/client';
import { authorizeQuiz, authorizeVenue, requireActor, requireSuperadmin, type Actor } from '../../lib/authz';
import { addDays, stockholmDate } from '../../lib/clock';
import { toCsv } from '../../lib/csv';
import { notFound } from '../../lib/errors';
import type { Deps } from '../../ports/deps';

/** What the analytics services need: the database and the clock (today, and the window's end). */
export type AnalyticsDeps = Pick<Deps, 'db' | 'clock'>;
import { isoWeekKey, MAX_SLOTS_PER_DAY } from '../promotion/contract';
import {
  ANALYTICS_CSV_HEADER,
  compareDays,
  METRICS,
  REVENUE_WEEKS,
  ROW_KIND_LABELS,
  SLOT_CALENDAR_DAYS,
  TOP_PLACES_DAYS,
  slotStatus,
  type AnalyticsDay,
  type AnalyticsResponse,
  type AnalyticsRow,
  type Counts,
  type Metric,
  type OverviewResponse,
  type Period,
  type PromotedTier,
  type SlotCalendarResponse,
} from './contract';
import * as q from './queries';

const isMetric = (m: string): m is Metric => (METRICS as readonly string[]).includes(m);
const add = (counts: Counts, metric: string, n: number) => {
  if (isMetric(metric)) counts[metric] = (counts[metric] ?? 0) + Number(n);
};

/** The business to show: `venueId` (own, or any for a superadmin), else the owner's oldest business. */
async function pickVenue(db: Db, actor: Actor, venueId?: string) {
  if (venueId) return authorizeVenue(db, actor, venueId);
  requireActor(actor);
  const own = await q.oldestBusinessOf(db, actor.id);
  if (!own) throw notFound('Du har ingen verksamhet ännu.');
  return own;
}

export async function getAnalytics(deps: AnalyticsDeps, actor: Actor, input: { venueId?: string | undefined; days: Period }): Promise<AnalyticsResponse> {
  const { db } = deps;
  const today = deps.clock.today();
  const venue = await pickVenue(db, actor, input.venueId);
  const to = today;
  const from = addDays(today, -(input.days - 1));
  const [daily, places, quizzes, promos] = await Promise.all([
    q.dailyCounts(db, venue.id, from, to),
    q.placeCounts(db, venue.id, from, to),
    q.quizCounts(db, venue.id, from, to),
    q.promotedRanges(db, venue.id, from, to),
  ]);

  const promotedOn = new Map<string, PromotedTier>();
  for (const p of promos) {
    for (let d = p.start_date < from ? from : p.start_date; d <= p.end_date && d <= to; d = addDays(d, 1)) {
      if (p.tier === 'premium' || !promotedOn.has(d)) promotedOn.set(d, p.tier);
    }
  }
  const days: AnalyticsDay[] = [];
  const byDay = new Map<string, AnalyticsDay>();
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const day: AnalyticsDay = { date: d, counts: {}, promoted: promotedOn.get(d) ?? null };
    days.push(day);
    byDay.set(d, day);
  }
  const totals: Counts = {};
  for (const r of daily) {
    const day = byDay.get(r.day);
    if (day) add(day.counts, r.metric, r.n);
    add(totals, r.metric, r.n);
  }

  const placeRows = new Map<string, AnalyticsRow>();
  for (const r of places) {
    const row =
      placeRows.get(r.location_id) ??
      ({
        key: r.location_id,
        name: r.location_id ? (r.name ?? 'Borttagen plats') : venue.name,
        place: '',
        kind: r.location_id ? 'place' : 'venue',
        counts: {},
      } satisfies AnalyticsRow);
    add(row.counts, r.metric, r.n);
    placeRows.set(r.location_id, row);
  }
  const quizRows = new Map<string, AnalyticsRow>();
  for (const r of quizzes) {
    const series = !!r.is_series;
    const fallback = r.first_date ? (series ? 'Återkommande quiz' : `Quiz ${r.first_date}`) : 'Borttaget quiz';
    const row =
      quizRows.get(r.unit) ??
      ({ key: r.unit, name: r.title || fallback, place: r.place ?? '', kind: series ? 'series' : 'quiz', counts: {} } satisfies AnalyticsRow);
    add(row.counts, r.metric, r.n);
    quizRows.set(r.unit, row);
  }
  const byViews = (a: AnalyticsRow, b: AnalyticsRow) =>
    (b.counts.detail_open ?? 0) - (a.counts.detail_open ?? 0) || (b.counts.impression ?? 0) - (a.counts.impression ?? 0) || a.name.localeCompare(b.name, 'sv');

  return {
    venue: { id: venue.id, name: venue.name },
    days: input.days,
    from,
    to,
    totals,
    daily: days,
    places: [...placeRows.values()].sort(byViews),
    quizzes: [...quizRows.values()].sort(byViews),
    comparisons: [compareDays(days, 'premium'), compareDays(days, 'recommended')].filter((c) => c !== null),
  };
}

/** The table of the analytics screen as CSV (formula-safe cells, BOM, CRLF). */
export function analyticsCsv(data: AnalyticsResponse): string {
  const rows = [...data.places, ...data.quizzes].map((r) => [ROW_KIND_LABELS[r.kind], r.name, r.place, ...METRICS.map((m) => r.counts[m] ?? 0)]);
  return toCsv(ANALYTICS_CSV_HEADER, rows);
}

/** The next 4 weeks of slots in the city of a quiz the actor manages (free / limited / sold out per tier). */
export async function getSlotCalendar(deps: AnalyticsDeps, actor: Actor, input: { quizId: string }): Promise<SlotCalendarResponse> {
  const { db } = deps;
  const today = deps.clock.today();
  const { location } = await authorizeQuiz(db, actor, input.quizId);
  const to = addDays(today, SLOT_CALENDAR_DAYS - 1);
  const taken = new Map<string, number>();
  for (const r of await q.slotCounts(db, location.citySlug, today, to, deps.clock.now().getTime())) taken.set(`${r.date}|${r.tier}`, Number(r.n));
  const days = [];
  for (let d = today; d <= to; d = addDays(d, 1)) {
    const tier = (t: PromotedTier) => {
      const n = taken.get(`${d}|${t}`) ?? 0;
      return { taken: n, max: MAX_SLOTS_PER_DAY[t], status: slotStatus(n, MAX_SLOTS_PER_DAY[t]) };
    };
    days.push({ date: d, recommended: tier('recommended'), premium: tier('premium') });
  }
  return { city: location.city, citySlug: location.citySlug, days };
}

/** Superadmin: revenue per week and city, slot occupancy for 4 weeks, most viewed places (TOP_PLACES_DAYS). */
export async function getOverview(deps: AnalyticsDeps, actor: Actor): Promise<OverviewResponse> {
  const { db } = deps;
  const today = deps.clock.today();
  const now = deps.clock.now();
  requireSuperadmin(actor);
  const since = new Date(now.getTime() - REVENUE_WEEKS * 7 * 86_400_000).toISOString();
  const to = addDays(today, SLOT_CALENDAR_DAYS - 1);
  const [orders, slots, top] = await Promise.all([
    q.paidOrderCities(db, since),
    q.allSlotCounts(db, today, to, deps.clock.now().getTime()),
    q.topPlaces(db, addDays(today, 1 - TOP_PLACES_DAYS), today),
  ]);

  const revenue = new Map<string, { week: string; citySlug: string; amount: number; orders: Set<string> }>();
  for (const o of orders) {
    const week = isoWeekKey(stockholmDate(new Date(o.created_at)));
    const citySlug = o.city_slug ?? '';
    const key = `${week}|${citySlug}`;
    const r = revenue.get(key) ?? { week, citySlug, amount: 0, orders: new Set<string>() };
    r.amount += Number(o.amount) || 0;
    r.orders.add(o.id);
    revenue.set(key, r);
  }
  const occupancy = new Map<string, { citySlug: string; date: string; recommended: number; premium: number }>();
  for (const s of slots) {
    const key = `${s.city_slug}|${s.date}`;
    const r = occupancy.get(key) ?? { citySlug: s.city_slug, date: s.date, recommended: 0, premium: 0 };
    r[s.tier] += Number(s.n);
    occupancy.set(key, r);
  }
  return {
    from: today,
    to,
    revenue: [...revenue.values()]
      .map((r) => ({ week: r.week, citySlug: r.citySlug, amount: r.amount, orders: r.orders.size }))
      .sort((a, b) => b.week.localeCompare(a.week) || a.citySlug.localeCompare(b.citySlug)),
    occupancy: [...occupancy.values()].sort((a, b) => a.citySlug.localeCompare(b.citySlug) || a.date.localeCompare(b.date)),
    topPlaces: top.map((t) => ({
      venueId: t.venue_id,
      venueName: t.venue_name,
      locationId: t.location_id,
      placeName: t.place_name ?? '',
      city: t.city ?? '',
      impression: Number(t.impression),
      detail_open: Number(t.detail_open),
      venue_view: Number(t.venue_view),
    })),
  };
}
