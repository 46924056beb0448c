/**
 * What each public page's share card says (issue 16): the page's Swedish title, its next date(s) and
 * the brand. Reads through the listing and calendar services (anonymous view: public businesses only).
 */
import type { Deps } from '../../ports/deps';
import { listingContext } from '../../lib/listing-context';
import { displayTime, findWeekday } from '../../lib/swedish';
import { cityName, upcomingAtVenue } from '../calendar/service';
import type { ListingQuiz } from '../listing/contract';
import { findPublicVenueWithPlaces, listQuizzes } from '../listing/service';
import { profilePage } from '../quizmasters/service';
import { leagueCardLines, resultsCardLines } from '../results/service';
import type { CardData } from './card';

/** The share engines for other features' images (the owner kit's Instagram images, issue 48.7): see render.ts. */
export { INTER_FONTS, rasterizeSvg, renderCard } from './render';

/** The card kinds, one per public page kind; paths mirror the pages' own. */
export type CardRef =
  | { kind: 'start' }
  | { kind: 'city'; city: string }
  | { kind: 'weekday'; weekday: string }
  | { kind: 'combined'; city: string; weekday: string }
  | { kind: 'venue'; city: string; venue: string }
  | { kind: 'quizmaster'; slug: string }
  | { kind: 'results'; city: string; venue: string }
  | { kind: 'league'; slug: string };

/** Path of a page's share image (og:image). */
export function ogImagePath(ref: CardRef): string {
  const e = encodeURIComponent;
  switch (ref.kind) {
    case 'start':
      return '/og/start.png';
    case 'city':
      return `/og/city/${e(ref.city)}.png`;
    case 'weekday':
      return `/og/weekday/${e(ref.weekday)}.png`;
    case 'combined':
      return `/og/city/${e(ref.city)}/${e(ref.weekday)}.png`;
    case 'venue':
      return `/og/venue/${e(ref.city)}/${e(ref.venue)}.png`;
    case 'quizmaster':
      return `/og/quizmaster/${e(ref.slug)}.png`;
    case 'results':
      return `/og/resultat/${e(ref.city)}/${e(ref.venue)}.png`;
    case 'league':
      return `/og/liga/${e(ref.slug)}.png`;
  }
}

const shortDate = new Intl.DateTimeFormat('sv-SE', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** "tis 24 nov 19:00" */
export function whenText(date: string, startTime: string | null): string {
  return `${shortDate.format(new Date(`${date}T00:00:00Z`)).replace(/\./g, '')} ${displayTime(startTime)}`;
}

function soonest(items: ListingQuiz[], withCity: boolean): string[] {
  return [...items]
    .sort((a, b) => (a.date + (a.startTime ?? '19:00:00') < b.date + (b.startTime ?? '19:00:00') ? -1 : 1))
    .slice(0, 3)
    .map((q) => `${whenText(q.date, q.startTime)} · ${q.venue.name}${withCity ? `, ${q.location.city}` : ''}${q.isCancelled ? ' (inställt)' : ''}`);
}

/** The card of a page, or null when the page does not exist (unknown city, weekday or venue). */
export async function cardData(deps: Pick<Deps, 'db' | 'clock' | 'config'>, ref: CardRef): Promise<CardData | null> {
  const { db } = deps;
  const lctx = listingContext(deps);
  switch (ref.kind) {
    case 'start': {
      const r = await listQuizzes(db, { page: 1 }, lctx);
      return { kicker: 'Pubquiz och quizkvällar i hela Sverige', title: 'Hitta kvällens quiz', lines: soonest(r.items, true) };
    }
    case 'city': {
      const name = await cityName(deps, { citySlug: ref.city });
      if (!name) return null;
      const r = await listQuizzes(db, { city: ref.city, page: 1 }, lctx);
      return { kicker: 'Pubquiz och quizkvällar', title: `Quiz i ${name}`, lines: soonest(r.items, false) };
    }
    case 'weekday': {
      const w = findWeekday(ref.weekday);
      if (!w || w.slug !== ref.weekday) return null;
      const r = await listQuizzes(db, { weekday: w.slug, page: 1 }, lctx);
      return { kicker: 'Pubquiz i hela Sverige', title: `Quiz på ${w.name}`, lines: soonest(r.items, true) };
    }
    case 'combined': {
      const w = findWeekday(ref.weekday);
      if (!w || w.slug !== ref.weekday) return null;
      const name = await cityName(deps, { citySlug: ref.city });
      if (!name) return null;
      const r = await listQuizzes(db, { city: ref.city, weekday: w.slug, page: 1 }, lctx);
      return { kicker: `Pubquiz ${w.name}skväll`, title: `Quiz på ${w.name} i ${name}`, lines: soonest(r.items, false) };
    }
    case 'venue': {
      const v = await upcomingAtVenue(deps, { citySlug: ref.city, venueSlug: ref.venue, n: 3 });
      if (!v) return null;
      return {
        kicker: `Quiz i ${v.cityName}`,
        title: v.name,
        lines: v.rows.map((q) => `${whenText(q.date, q.startTime)}${q.title ? ` · ${q.title}` : ''}${q.isCancelled ? ' (inställt)' : ''}`),
        empty: 'Inga inplanerade quiz just nu',
      };
    }
    case 'quizmaster': {
      const p = await profilePage(db, ref.slug, lctx.today, lctx.houseEmail);
      if (!p) return null;
      return {
        kicker: 'Quizmaster',
        title: p.profile.name,
        lines: p.upcoming.slice(0, 3).map((q) => `${whenText(q.date, q.startTime)} · ${q.venue.name}, ${q.location.city}${q.isCancelled ? ' (inställt)' : ''}`),
        empty: 'Inga inplanerade quiz just nu',
      };
    }
    case 'results': {
      // The season table's top three (or the last night's), as on /quiz/{city}/{venue}/resultat.
      const found = await findPublicVenueWithPlaces(db, ref.venue, deps.config.houseAccountEmail);
      const here = found?.places.find((p) => p.citySlug === ref.city);
      if (!found || !here) return null;
      const r = await resultsCardLines(deps, { venueId: found.venue.id, today: deps.clock.today() });
      return { kicker: `Resultat · ${here.city}`, title: found.venue.name, lines: r.lines, empty: 'Inga resultat ännu' };
    }
    case 'league': {
      // The current season's top three, as on /liga/{slug}.
      const r = await leagueCardLines(deps, { slug: ref.slug, today: deps.clock.today() });
      if (!r) return null;
      return { kicker: 'Liga', title: r.name, lines: r.lines, empty: 'Ingen pågående säsong' };
    }
  }
}
