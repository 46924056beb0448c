/**
 * The listing filtered by a quizmaster's profile (`?quizmaster={slug}`, issue 48): the next occurrence of each series
 * and single quiz the profile leads that passes the other filters (city, day, text, quiz filters), in date order.
 * Near mode's position is not applied here (a quizmaster's handful of quizzes is listed by date).
 */
import type { Db } from '../../db/client';
import { addDays, isoWeekday } from '../../lib/clock';
import type { ListingContext } from '../../lib/listing-context';
import { matchesQuizFilters } from '../../lib/quiz-filters';
import { toListingQuiz } from './cards';
import type { ListingQuery, ListingQuiz, ListingResponse } from './contract';
import { resolveFilters } from './filters';
import { quizmasterOccurrences, type QuizmasterOccurrenceRow } from './queries/quizmaster';

/** Lower case, æ/ø as ä/ö (the search's Nordic folding), one space between words. */
const fold = (s: string) => s.normalize('NFC').toLowerCase().replace(/æ/g, 'ä').replace(/ø/g, 'ö').replace(/\s+/g, ' ');

/** How far ahead a series' dates are read: covers weekly and biweekly series and a paused week or two. */
export const QUIZMASTER_WINDOW_DAYS = 35;

/** The profile's occurrences that pass the other filters: the next one of each series and single quiz, by date. */
export async function quizmasterPicks(db: Db, query: Omit<ListingQuery, 'page'> & { quizmaster: string }, ctx: ListingContext) {
  const f = resolveFilters({ ...query, near: undefined }, ctx.today);
  const from = f.date ?? ctx.today;
  const to = f.date ?? addDays(ctx.today, QUIZMASTER_WINDOW_DAYS);
  const key = (r: { date: string; startTime: string | null; id: string }) => `${r.date} ${r.startTime ?? '19:00:00'} ${r.id}`;
  const rows = (await quizmasterOccurrences(db, query.quizmaster, from, to, ctx.houseEmail)).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const words = f.search ? fold(f.search).split(/\s+/).filter(Boolean) : [];
  const seen = new Set<string>();
  const picked = rows.filter((r) => {
    if (seen.has(r.unitKey)) return false;
    if (f.city && r.lCitySlug !== f.city) return false;
    if (f.date && r.date !== f.date) return false;
    if (f.weekdayIso !== undefined && isoWeekday(r.date) !== f.weekdayIso) return false;
    if (!matchesQuizFilters(r, f.quiz)) return false;
    if (words.length) {
      const text = fold([r.vName, r.lName, r.lCity, r.title, r.description, r.theme, r.quizmaster, r.profileName].filter(Boolean).join(' '));
      if (!words.every((w) => text.includes(w))) return false;
    }
    seen.add(r.unitKey);
    return true;
  });
  return { f, picked };
}

/** The listing unit key of a picked occurrence: its series at its place (`rid@location`), or the single quiz's id. */
export const listingKeyOf = (r: QuizmasterOccurrenceRow): string => (r.unitKey === r.id ? r.id : `${r.unitKey}@${r.locationId}`);

/** A picked occurrence's card, with its quizmaster's profile. */
export const quizmasterCard = (r: QuizmasterOccurrenceRow): ListingQuiz => ({
  ...toListingQuiz(r, 'standard'),
  quizmasterProfile: { name: r.profileName, slug: r.profileSlug },
});

export async function listByQuizmaster(db: Db, query: ListingQuery & { quizmaster: string }, ctx: ListingContext, pageSize: number): Promise<ListingResponse> {
  const { f, picked } = await quizmasterPicks(db, query, ctx);
  const page = query.page ?? 1;
  const slice = picked.slice((page - 1) * pageSize, page * pageSize);
  return {
    items: slice.map(quizmasterCard),
    total: picked.length,
    page,
    pageSize,
    hasMore: page * pageSize < picked.length,
    mode: f.mode,
    today: ctx.today,
    venueCount: null,
  };
}
