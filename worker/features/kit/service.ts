/**
 * The owner kit's rules (issue 48.7): who may download, and what each item says. A series shows its rhythm
 * ("Varje tisdag 19:00") and its next dates; a single quiz its date. Dates are the stored Stockholm calendar days
 * from the clock's Stockholm today, in Swedish words.
 */
import type { Deps } from '../../ports/deps';
import { type Actor, authorizeQuiz, authorizeVenue, requireActor } from '../../lib/authz';
import { notFound } from '../../lib/errors';
import type { QuizLanguage } from '../../lib/quiz-filters';
import { namesOf, parseRecurrenceDays } from '../../lib/recurrence';
import { isoWeekday } from '../../lib/clock';
import { displayDate, displayPrice, displayTime } from '../../lib/swedish';
import type { QuizRow } from '../../db/schema';
import type { KitListResponse, KitSource, KitUnitKind } from './contract';
import type { KitData, KitNight } from './data';
import { lastNightTop, unitsWithResults } from '../results/service';
import { latestOccurrence, nextOccurrences, upcomingUnits } from './queries';

type KitDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

/** How many next dates the items list (the A4 poster shows all, the others fewer). */
export const KIT_DATES = 6;
/** At most this many units in the dashboard's list. */
export const KIT_LIST_LIMIT = 50;

const LANGUAGE_TEXT: Record<QuizLanguage, string> = { sv: 'Svenska', en: 'Engelska', both: 'Svenska och engelska' };

/** "tisdag", "tisdag och torsdag", "måndag, onsdag och fredag" */
function dayList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} och ${names[names.length - 1]}`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The headline: "Varje tisdag 19:00", "Varannan tisdag 19:00"; a single quiz: "Tisdag 1 december 19:00". */
export function whenText(q: Pick<QuizRow, 'date' | 'startTime' | 'recurrenceId' | 'recurrencePattern' | 'recurrenceDays'>, unit: KitUnitKind): string {
  const time = displayTime(q.startTime);
  if (unit === 'quiz' || !q.recurrenceId) return `${capital(displayDate(q.date))} ${time}`;
  const days = namesOf(parseRecurrenceDays(q.recurrenceDays) ?? [isoWeekday(q.date)]);
  return `${q.recurrencePattern === 'biweekly' ? 'Varannan' : 'Varje'} ${dayList(days)} ${time}`;
}

/** The venue page tagged with an item's source. */
export function taggedVenueUrl(appUrl: string, citySlug: string, venueSlug: string, src: KitSource): string {
  return `${appUrl.replace(/\/+$/, '')}/quiz/${encodeURIComponent(citySlug)}/${encodeURIComponent(venueSlug)}?src=${src}`;
}

/** A unit's kit data without its source tag, after the ownership check (401 anonymous, 404 missing, 403 someone else's). */
export async function kitBase(deps: KitDeps, actor: Actor, unit: KitUnitKind, id: string) {
  requireActor(actor);
  const { db } = deps;
  const today = deps.clock.today();
  let anchor: QuizRow;
  let dates: string[] = [];
  if (unit === 'series') {
    const latest = await latestOccurrence(db, id);
    if (!latest) throw notFound('Quiz-serien hittades inte.');
    const next = await nextOccurrences(db, id, today, KIT_DATES);
    anchor = next[0] ?? latest;
    dates = next.map((q) => displayDate(q.date));
  } else {
    anchor = (await authorizeQuiz(db, actor, id)).quiz;
  }
  const { location, venue } = await authorizeQuiz(db, actor, anchor.id);
  return {
    citySlug: location.citySlug,
    venueSlug: venue.slug,
    data: {
      when: whenText(anchor, unit),
      title: anchor.title?.trim() || null,
      venueName: venue.name || location.name,
      place: [location.name !== venue.name ? location.name : null, location.address, location.city].filter(Boolean).join(', '),
      price: displayPrice(anchor.price),
      teamSize: anchor.teamSize ? `Max ${anchor.teamSize} per lag` : null,
      language: LANGUAGE_TEXT[anchor.language] ?? 'Svenska',
      dates,
    } satisfies Omit<KitData, 'url' | 'urlText'>,
  };
}

/** What one item draws: the base with the venue link tagged by the item's source (and, for "top 3", the night). */
export function kitData(appUrl: string, base: Awaited<ReturnType<typeof kitBase>>, src: KitSource, night?: KitNight): KitData {
  const url = taggedVenueUrl(appUrl, base.citySlug, base.venueSlug, src);
  return { ...base.data, url, urlText: url.replace(/^https?:\/\//, ''), ...(night ? { night } : {}) };
}

/** "42 p", "30,5 p" */
const points = (n: number) => `${String(n).replace('.', ',')} p`;

/**
 * The "top 3" items' night: the unit's latest posted night (a series: its latest; a quiz id: that occurrence) with
 * its visible rows ranked 1–3, by the results' public read (hidden teams never shown). Call after kitBase (the
 * ownership check). No results: 404.
 */
export async function kitNight(deps: KitDeps, unit: KitUnitKind, id: string): Promise<KitNight> {
  const top = await lastNightTop(deps, { unit: unit === 'series' ? { seriesId: id } : { quizId: id }, today: deps.clock.today() });
  if (!top) throw notFound('Det finns inga resultat ännu. Lägg in kvällens resultat först, sedan kan du ladda ner topp 3-bilden.');
  return { date: displayDate(top.date), rows: top.rows.map((r) => ({ rank: r.rank, team: r.team, score: points(r.score) })) };
}

/** The dashboard's list: the business's series and single quizzes with something coming. */
export async function listKitUnits(deps: KitDeps, actor: Actor, venueId: string): Promise<KitListResponse> {
  await authorizeVenue(deps.db, actor, venueId);
  const rows = await upcomingUnits(deps.db, venueId, deps.clock.today(), KIT_LIST_LIMIT);
  const withResults = await unitsWithResults(deps, {
    seriesIds: rows.flatMap((r) => (r.recurrenceId ? [r.recurrenceId] : [])),
    quizIds: rows.flatMap((r) => (r.recurrenceId ? [] : [r.quizId])),
  });
  return {
    units: rows.map((r) => {
      const unit: KitUnitKind = r.recurrenceId ? 'series' : 'quiz';
      const id = r.recurrenceId ?? r.quizId;
      const when = whenText({ date: r.next, startTime: r.startTime, recurrenceId: r.recurrenceId, recurrencePattern: r.pattern, recurrenceDays: r.days }, unit);
      return {
        unit,
        id,
        label: `${when} · ${r.place}${r.title ? ` · ${r.title}` : ''}`,
        next: r.next,
        results: withResults.has(id),
      };
    }),
  };
}
