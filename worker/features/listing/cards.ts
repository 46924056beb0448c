/**
 * The cards of listed units: a unit's stored card when it is the occurrence this listing shows, else
 * that occurrence read and put with the stored place and business (cardsOf); the promoted units' cards;
 * and a card as the API answers it (toListingQuiz).
 */
import type { Db } from '../../db/client';
import { isoWeekday } from '../../lib/clock';
import { isQuizLanguage } from '../../lib/quiz-filters';
import { categoryBadge } from '../../lib/swedish';
import type { ListingQuiz, ListingTier } from './contract';
import { occurrenceQuizzes, quizzesById, type DetailRow, type ListedRow, type OccurrenceRow } from './queries/cards';
import { promotionsWithUnits, type ActivePromotionRow } from './queries/promotions';
import type { SeriesFilter, UnitRow } from './queries/where';

/** A listed occurrence as the API answers it (a card), with its promotion tier. */
export function toListingQuiz(d: DetailRow & { unitLat?: number | null; unitLng?: number | null }, tier: ListingTier): ListingQuiz {
  const lat = d.unitLat ?? d.lLat;
  const lng = d.unitLng ?? d.lLng;
  return {
    ...(lat != null && lng != null ? { position: { lat, lng } } : {}),
    id: d.id,
    date: d.date,
    startTime: d.startTime,
    title: d.title,
    description: d.description,
    category: d.category,
    categoryLabel: categoryBadge(d.category, d.theme),
    theme: d.theme,
    quizmaster: d.quizmaster,
    teamSize: d.teamSize,
    price: d.price,
    isRecurring: !!d.isRecurring,
    recurrencePattern: d.recurrencePattern,
    isCancelled: !!d.isCancelled,
    language: isQuizLanguage(d.language) ? d.language : 'sv',
    tier,
    unclaimed: !!d.house,
    location: {
      id: d.lId,
      name: d.lName,
      address: d.lAddress,
      city: d.lCity,
      citySlug: d.lCitySlug,
      phone: d.lPhone,
      website: d.lWebsite,
      latitude: d.lLat,
      longitude: d.lLng,
    },
    venue: { id: d.vId, name: d.vName, slug: d.vSlug, description: d.vDescription, website: d.vWebsite },
  };
}

/**
 * The stored card of a unit when it is the occurrence this listing shows — the next one; in weekday
 * mode only if it falls on that weekday, in date mode only on that date — else null (read it instead).
 */
export function storedCard(row: Pick<UnitRow, 'card' | 'nextDate'>, f: Pick<SeriesFilter, 'today' | 'date' | 'weekdayW'>): DetailRow | null {
  return row.card && storedCardFits(row, f) ? (JSON.parse(row.card) as DetailRow) : null;
}

/** Whether a unit's stored next occurrence is the one this listing shows (storedCard). */
function storedCardFits(row: Pick<UnitRow, 'nextDate'>, f: Pick<SeriesFilter, 'today' | 'date' | 'weekdayW'>): boolean {
  if (!row.nextDate || row.nextDate < f.today) return false;
  if (f.date !== undefined && row.nextDate !== f.date) return false;
  return f.weekdayW === undefined || isoWeekday(row.nextDate) % 7 === f.weekdayW;
}

/**
 * The cards of some units in their order. A stored card that is the occurrence to show is used as it is;
 * otherwise only that occurrence's quiz row is read (occurrenceQuizzes) and put with the place and
 * business of the stored card. (Every unit a listing can show has a card: the refresh trigger writes one
 * whenever the unit has a date ahead.)
 */
export async function cardsOf(db: Db, f: SeriesFilter, rows: UnitRow[]): Promise<ListedRow[]> {
  const shown = rows.flatMap((r) => (r.card ? [{ r, card: JSON.parse(r.card) as DetailRow, fits: storedCardFits(r, f) }] : []));
  const other = shown.filter((c) => !c.fits);
  // Date mode's walk knows the quiz of that date (listing_dates.qid): read it by key; else find it.
  const known = other.filter(({ r }) => r.qid);
  const unitOfQuiz = new Map(known.map(({ r }) => [r.qid!, r.unitId]));
  const [byId, found] = await Promise.all([
    quizzesById(db, [...unitOfQuiz.keys()]),
    occurrenceQuizzes(
      db,
      f,
      other.filter(({ r }) => !r.qid).map(({ r }) => ({ unitId: r.unitId, key: r.key, rid: r.rid, lid: r.lid, pattern: r.pattern })),
    ),
  ]);
  const occurrenceOf = new Map<number, OccurrenceRow>([
    ...found.map((o): [number, OccurrenceRow] => [Number(o.unitId), o]),
    ...byId.map((q): [number, OccurrenceRow] => {
      const unitId = unitOfQuiz.get(q.id)!;
      return [unitId, { ...q, unitId }];
    }),
  ]);
  return shown.flatMap(({ r, card, fits }): ListedRow[] => {
    const unit = { unitId: r.unitId, key: r.key, rid: r.rid, shuffle: r.shuffle, unitLat: r.unitLat, unitLng: r.unitLng };
    if (fits) return [{ ...card, ...unit }];
    const o = occurrenceOf.get(r.unitId);
    if (!o) return [];
    const { unitId: _u, locationId: _l, ...quiz } = o;
    return [{ ...card, ...quiz, ...unit }];
  });
}

/**
 * The active promotions and the cards of the units they point at under the listing's filters (one read:
 * promotionsWithUnits), for rankPromoted.
 */
export async function promotionsAndUnits(db: Db, f: SeriesFilter): Promise<{ promos: ActivePromotionRow[]; units: ListedRow[] }> {
  const rows = await promotionsWithUnits(db, f);
  const promos = new Map<string, ActivePromotionRow>();
  const units = new Map<number, UnitRow>();
  for (const r of rows) {
    promos.set(`${r.quizId}|${r.productType}|${r.startDate}|${r.endDate}`, {
      quizId: r.quizId,
      rid: r.rid,
      productType: r.productType,
      startDate: r.startDate,
      endDate: r.endDate,
    });
    if (r.unitId !== null) units.set(r.unitId, r as UnitRow);
  }
  return { promos: [...promos.values()], units: await cardsOf(db, f, [...units.values()]) };
}
