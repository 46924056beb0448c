/**
 * Calendar downloads and feeds (issue 16): which occurrences go into which .ics. No Hono here.
 * Feeds hold the next FEED_DAYS days (today included; past dates dropped), one VEVENT per occurrence,
 * cancelled ones kept (STATUS:CANCELLED), public businesses only.
 */
import { addDays, isoWeekday } from '../../lib/clock';
import { listingContext } from '../../lib/listing-context';
import { matchesQuizFilters } from '../../lib/quiz-filters';
import { findWeekday } from '../../lib/swedish';
import type { Deps } from '../../ports/deps';
import type { ListingQuery } from '../listing/contract';
import { findPublicCity, listPages, resolveFilters } from '../listing/service';
import { feedEnd, feedPaths } from './event';
import { loadCalendarWriter } from '../../lazy';
import type { CalendarRow } from './ics';
export type { CalendarRow };
/** The one URL helper of a quiz's .ics download, for other features (the follow reminder mail). */
export { ICS_CONTENT_TYPE, quizIcsPath } from './event';
import { cityOccurrences, publicQuiz, publicVenueInCity, unitOccurrences, venueOccurrences, type CalendarDbRow } from './queries';

/** What the calendar services need: the database, the clock (today) and the config (APP_URL, house account). */
export type CalendarDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

interface CalendarCtx {
  today: string;
  origin: string;
}

function ctxOf(deps: CalendarDeps): CalendarCtx {
  return { today: deps.clock.today(), origin: deps.config.appUrl };
}

export interface IcsFile {
  body: string;
  /** Suggested file name (Content-Disposition). */
  filename: string;
}

/** Most listing pages (of 12) a search feed reads: 20 pages = 240 series or single quizzes. */
export const SEARCH_FEED_MAX_PAGES = 20;

export function toCalendarRow(r: CalendarDbRow): CalendarRow {
  return {
    id: r.id,
    date: r.date,
    startTime: r.startTime,
    title: r.title,
    description: r.description,
    category: r.category,
    theme: r.theme,
    quizmaster: r.quizmaster,
    teamSize: r.teamSize,
    price: r.price,
    isCancelled: !!r.isCancelled,
    updatedAt: r.updatedAt,
    location: { name: r.lName, address: r.lAddress, city: r.lCity, citySlug: r.lCitySlug, latitude: r.lLat, longitude: r.lLng },
    venue: { name: r.vName, slug: r.vSlug },
  };
}

/** The .ics writer (ical-generator) is a lazy module, loaded on the first download or feed of an isolate. */
async function feed(rows: CalendarDbRow[], name: string, path: string, ctx: CalendarCtx, filename: string): Promise<IcsFile> {
  const { buildIcs } = await loadCalendarWriter();
  return { body: buildIcs(rows.map(toCalendarRow), { origin: ctx.origin, name, url: `${ctx.origin}${path}` }), filename };
}

/** One occurrence as a download (also a past or cancelled one: the link is the visitor's own choice). */
export async function quizIcs(deps: CalendarDeps, input: { id: string }): Promise<IcsFile | null> {
  const { db } = deps;
  const { id } = input;
  const ctx = ctxOf(deps);
  const row = await publicQuiz(db, id);
  if (!row) return null;
  const r = toCalendarRow(row);
  const { buildIcs } = await loadCalendarWriter();
  return { body: buildIcs([r], { origin: ctx.origin, name: `Pubquiz på ${r.venue.name}` }), filename: `quiz-${r.venue.slug}-${r.date}.ics` };
}

/**
 * Display name of a city with a public business, or null (read directly: a 404 must not wait for a
 * version bump). The same name as the city page's (listing service findPublicCity: a bounded read).
 */
export async function cityName(deps: Pick<Deps, 'db'>, input: { citySlug: string }): Promise<string | null> {
  return (await findPublicCity(deps.db, input.citySlug))?.name ?? null;
}

/** A city's feed, or its feed for one weekday; null for an unknown city or weekday. */
export async function cityFeed(deps: CalendarDeps, input: { citySlug: string; weekdaySlug: string | null }): Promise<IcsFile | null> {
  const { db } = deps;
  const { citySlug, weekdaySlug } = input;
  const ctx = ctxOf(deps);
  const weekday = weekdaySlug === null ? null : findWeekday(weekdaySlug);
  if (weekdaySlug !== null && (!weekday || weekday.slug !== weekdaySlug)) return null;
  const name = await cityName(deps, { citySlug });
  if (!name) return null;
  const rows = await cityOccurrences(db, { city: citySlug, weekdayW: weekday ? weekday.iso % 7 : undefined, from: ctx.today, to: feedEnd(ctx.today) });
  if (weekday)
    return feed(
      rows,
      `Quiz på ${weekday.name} i ${name} – Quizkväll`,
      feedPaths.cityWeekday(citySlug, weekday.slug),
      ctx,
      `quiz-${citySlug}-${weekday.slug}.ics`,
    );
  return feed(rows, `Quiz i ${name} – Quizkväll`, feedPaths.city(citySlug), ctx, `quiz-${citySlug}.ics`);
}

export async function venueFeed(deps: CalendarDeps, input: { citySlug: string; venueSlug: string }): Promise<IcsFile | null> {
  const { db } = deps;
  const { citySlug, venueSlug } = input;
  const ctx = ctxOf(deps);
  const venue = await publicVenueInCity(db, citySlug, venueSlug);
  if (!venue) return null;
  const rows = await venueOccurrences(db, venue.id, ctx.today, feedEnd(ctx.today));
  return feed(rows, `${venue.name} – Quizkväll`, feedPaths.venue(citySlug, venue.slug), ctx, `quiz-${venue.slug}.ics`);
}

/**
 * The feed of any listing search: the listing service chooses the series and single quizzes (the same
 * query, visibility and modes as GET /api/listing, passed through whole), the feed then holds each one's
 * dates in the window. In weekday mode the listing is asked without the weekday (it lists a biweekly
 * series only in the week it runs, which would make it blink in and out of a subscription) and the
 * feed keeps that weekday's dates; in date mode the feed holds that date only. The quiz filters (price,
 * team size, category, start time, language) choose the units and are checked again on every date.
 */
export async function listingFeed(deps: CalendarDeps, input: { query: ListingQuery; search: string }): Promise<IcsFile> {
  const { db } = deps;
  const { query, search } = input;
  const ctx = ctxOf(deps);
  const f = resolveFilters(query, ctx.today);
  const asked: ListingQuery = f.mode === 'weekday' ? { ...query, weekday: undefined } : { ...query };
  const lctx = listingContext(deps, { today: ctx.today });
  const ids = (await listPages(db, asked, lctx, SEARCH_FEED_MAX_PAGES)).map((q) => q.id);
  const to = f.mode === 'date' ? f.date! : feedEnd(ctx.today);
  let rows = await unitOccurrences(db, ids, f.mode === 'date' ? f.date! : ctx.today, to);
  if (f.mode === 'weekday') rows = rows.filter((r) => isoWeekday(r.date) === f.weekdayIso);
  // The quiz filters chose the units; each date is checked too (one date of a series may have been edited alone).
  rows = rows.filter((r) => matchesQuizFilters(r, f.quiz));
  return feed(rows, 'Quizkväll – sökning', feedPaths.listing(search), ctx, 'quizkvall.ics');
}

/**
 * A quizmaster's feed (/quizmaster/{slug}.ics, issue 48): the dates in the window of every series and single quiz
 * the profile leads, chosen by the listing's quizmaster filter (the caller has found the profile).
 */
export async function quizmasterFeed(deps: CalendarDeps, profile: { slug: string; name: string }): Promise<IcsFile> {
  const { db } = deps;
  const ctx = ctxOf(deps);
  const lctx = listingContext(deps, { today: ctx.today });
  const ids = (await listPages(db, { quizmaster: profile.slug }, lctx, SEARCH_FEED_MAX_PAGES)).map((q) => q.id);
  const rows = await unitOccurrences(db, ids, ctx.today, feedEnd(ctx.today));
  return feed(rows, `${profile.name} – Quizkväll`, feedPaths.quizmaster(profile.slug), ctx, `quizmaster-${profile.slug}.ics`);
}

/** A public venue's next `n` dates (for its share card), or null for an unknown venue or city. */
export async function upcomingAtVenue(deps: Pick<Deps, 'db' | 'clock'>, input: { citySlug: string; venueSlug: string; n: number }) {
  const { db } = deps;
  const { citySlug, venueSlug, n } = input;
  const today = deps.clock.today();
  const venue = await publicVenueInCity(db, citySlug, venueSlug);
  if (!venue) return null;
  const rows = (await venueOccurrences(db, venue.id, today, '9999-12-31', n)).map(toCalendarRow);
  const town = rows.find((r) => r.location.citySlug === citySlug)?.location.city ?? (await cityName({ db }, { citySlug })) ?? citySlug;
  return { name: venue.name, slug: venue.slug, cityName: town, rows };
}

/** A city's next `n` public dates within two weeks (the city widget), or null for an unknown city. */
export async function upcomingInCity(deps: Pick<Deps, 'db' | 'clock'>, input: { citySlug: string; n: number }) {
  const { db } = deps;
  const { citySlug, n } = input;
  const today = deps.clock.today();
  const name = await cityName({ db }, { citySlug });
  if (!name) return null;
  const rows = (await cityOccurrences(db, { city: citySlug, from: today, to: addDays(today, 13) }, n)).map(toCalendarRow);
  return { name, rows };
}
