/**
 * Exports (issue 21): an owner's own data as JSON (GDPR art. 20), an owner's quizzes as CSV, and the
 * superadmin's whole catalogue as CSV in the import's own format (export → import reproduces it).
 * Every CSV cell goes through csvCell (formula injection neutralised). No Hono here.
 */
import type { Actor } from '../../lib/authz';
import { authorizeVenue } from '../../lib/authz';
import { notFound } from '../../lib/errors';
import { toCsv } from '../../lib/csv';
import { findWeekday, weekdayOfSunday0 } from '../../lib/swedish';
import type { Deps } from '../../ports/deps';
import * as q from './queries';

export interface OwnDataExport {
  format: 'quizkvall-export';
  version: 1;
  exportedAt: string;
  account: { id: string; email: string; emailVerifiedAt: string | null; createdAt: string; roles: string[] };
  profile: Record<string, unknown> | null;
  businesses: Array<Record<string, unknown>>;
  places: Array<Record<string, unknown>>;
  quizzes: Array<Record<string, unknown>>;
  promotions: Array<Record<string, unknown>>;
  orders: Array<Record<string, unknown>>;
  follows?: Array<Record<string, unknown>>;
}

/** Everything stored about the signed-in user and what they own. Secrets (password hash, TOTP, sessions, tokens) are left out. */
export async function exportOwnData(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string }): Promise<OwnDataExport> {
  const { db } = deps;
  const { userId } = input;
  const nowIso = deps.clock.now().toISOString();
  const user = await q.userById(db, userId);
  if (!user) throw notFound('Kontot finns inte');
  const roles = await q.rolesOf(db, userId);
  const profile = await q.profileOf(db, userId);
  const businesses = await q.businessesOf(db, userId);
  const places = await q.placesOf(
    db,
    businesses.map((b) => b.id),
  );
  const quizRows = await q.quizzesOfPlaces(
    db,
    places.map((p) => p.id),
  );
  const promos = await q.promotionsOfQuizzes(
    db,
    quizRows.map((r) => r.id),
  );
  const orders = (await q.ordersOf(db, userId)).map((o) => ({ ...o, items: safeJson(o.items) }));
  const out: OwnDataExport = {
    format: 'quizkvall-export',
    version: 1,
    exportedAt: nowIso,
    account: { id: user.id, email: user.email, emailVerifiedAt: user.emailVerifiedAt, createdAt: user.createdAt, roles },
    profile: profile ?? null,
    businesses,
    places,
    quizzes: quizRows.map(({ weekday: _w, ...row }) => row),
    promotions: promos,
    orders,
  };
  const follows = await q.followsOfUser(db, userId);
  if (follows) out.follows = follows;
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

export const QUIZ_CSV_HEADER = [
  'datum',
  'veckodag',
  'starttid',
  'verksamhet',
  'plats',
  'adress',
  'stad',
  'kategori',
  'tema',
  'quizledare',
  'pris',
  'titel',
  'serie',
  'mönster',
  'inställt',
];

/**
 * The quizzes of the caller's businesses (or of one business, `venueId`, through authorizeVenue:
 * someone else's → 403, missing → 404), every date, as CSV.
 */
export async function exportQuizzesCsv(deps: Pick<Deps, 'db'>, actor: NonNullable<Actor>, input: { venueId?: string | undefined } = {}): Promise<string> {
  const { db } = deps;
  const { venueId } = input;
  const venueIds = venueId ? [(await authorizeVenue(db, actor, venueId)).id] : await q.businessIdsOf(db, actor.id);
  const rows = await q.quizCsvRows(db, venueIds);
  rows.sort((a, b) => (a.date === b.date ? (a.startTime ?? '').localeCompare(b.startTime ?? '') : a.date < b.date ? -1 : 1));
  return toCsv(
    QUIZ_CSV_HEADER,
    rows.map((r) => [
      r.date,
      weekdayOfSunday0(r.weekday ?? 0).name,
      (r.startTime ?? '19:00:00').slice(0, 5),
      r.business,
      r.place,
      r.address,
      r.city,
      r.category ?? '',
      r.theme ?? '',
      r.quizmaster ?? '',
      r.price ?? '',
      r.title ?? '',
      r.recurrenceId ?? '',
      r.pattern ?? '',
      r.cancelled ? 'ja' : 'nej',
    ]),
  );
}

/** The import's columns, in the sample file's order. */
export const CATALOGUE_HEADER = [
  'name',
  'address',
  'city',
  'phone',
  'website',
  'weekday',
  'start_time',
  'pattern',
  'category',
  'theme',
  'quizmaster',
  'price',
  'lat',
  'lng',
];

/**
 * The whole catalogue in the import format: one line per series at a place and weekday (an import
 * line is a business + place + weekly/biweekly series). The series' latest occurrence carries its
 * time, category, theme, quizmaster and price. Single (non-recurring) quizzes have no import form and
 * are left out. Ordered by business, town, address, weekday.
 */
export async function exportCatalogueCsv(deps: Pick<Deps, 'db'>): Promise<string> {
  const { db } = deps;
  const units = await q.catalogueUnits(db);
  const lines: Array<{ key: string; cells: unknown[] }> = [];
  for (const u of units) {
    const parsed = u.days ? safeJson(u.days) : null;
    const days = Array.isArray(parsed) && parsed.length ? (parsed as string[]) : [weekdayOfSunday0(u.weekday).name];
    for (const day of days) {
      const cells = [
        u.name,
        u.address,
        u.city,
        u.phone ?? '',
        u.website ?? '',
        day,
        (u.start_time ?? '19:00:00').slice(0, 5),
        u.pattern ?? 'weekly',
        u.category ?? '',
        u.theme ?? '',
        u.quizmaster ?? '',
        u.price ?? '',
        u.lat ?? '',
        u.lng ?? '',
      ];
      lines.push({ key: `${u.name_sort}\u0000${u.city}\u0000${u.address}\u0000${(findWeekday(day)?.iso ?? -1) % 7}\u0000${cells.join('\u0001')}`, cells });
    }
  }
  lines.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return toCsv(
    CATALOGUE_HEADER,
    lines.map((l) => l.cells),
  );
}
