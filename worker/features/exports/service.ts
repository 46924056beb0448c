/**
 * Exports (issue 21): an owner's own data as JSON (GDPR art. 20), an owner's quizzes as CSV, and the
 * superadmin's whole catalogue as CSV in the import's own format (export → import reproduces it).
 * Every CSV cell goes through csvCell (formula injection neutralised). No Hono here.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkoutOrders, locations, profiles, promotions, quizzes, userRoles, users, venues } from '../../db/schema';
import type { Actor } from '../../lib/authz';
import { authorizeVenue } from '../../lib/authz';
import { readInChunks } from '../../lib/chunks';
import { notFound } from '../../lib/errors';
import { toCsv } from '../../lib/csv';
import { findWeekday, weekdayOfSunday0 } from '../../lib/swedish';
import type { Deps } from '../../ports/deps';

/** Does this optional table exist (e.g. follows, added by another feature)? */
async function hasTable(db: Db, name: string): Promise<boolean> {
  const rows = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${name}`);
  return (rows[0]?.n ?? 0) > 0;
}

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
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound('Kontot finns inte');
  const roles = (await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId))).map((r) => r.role);
  const [profile] = await db.select().from(profiles).where(eq(profiles.userId, userId));
  const businesses = await db.select().from(venues).where(eq(venues.userId, userId)).orderBy(asc(venues.createdAt), asc(venues.id));
  const places = await readInChunks(businesses.map((b) => b.id), (ids) => db.select().from(locations).where(inArray(locations.venueId, ids)).orderBy(asc(locations.createdAt), asc(locations.id)));
  const quizRows = await readInChunks(places.map((p) => p.id), (ids) => db.select().from(quizzes).where(inArray(quizzes.locationId, ids)).orderBy(asc(quizzes.date), asc(quizzes.id)));
  const promos = await readInChunks(quizRows.map((q) => q.id), (ids) => db.select().from(promotions).where(inArray(promotions.quizId, ids)));
  const orders = (await db.select().from(checkoutOrders).where(eq(checkoutOrders.userId, userId)).orderBy(asc(checkoutOrders.createdAt))).map((o) => ({ ...o, items: safeJson(o.items) }));
  const out: OwnDataExport = {
    format: 'quizkvall-export',
    version: 1,
    exportedAt: nowIso,
    account: { id: user.id, email: user.email, emailVerifiedAt: user.emailVerifiedAt, createdAt: user.createdAt, roles },
    profile: profile ?? null,
    businesses,
    places,
    quizzes: quizRows.map(({ weekday: _w, ...q }) => q),
    promotions: promos,
    orders,
  };
  if (await hasTable(db, 'follows')) {
    const cols = await db.all<{ name: string }>(sql`SELECT name FROM pragma_table_info('follows')`);
    if (cols.some((c) => c.name === 'user_id')) out.follows = await db.all<Record<string, unknown>>(sql`SELECT * FROM follows WHERE user_id = ${userId}`);
  }
  return out;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

export const QUIZ_CSV_HEADER = ['datum', 'veckodag', 'starttid', 'verksamhet', 'plats', 'adress', 'stad', 'kategori', 'tema', 'quizledare', 'pris', 'titel', 'serie', 'mönster', 'inställt'];

/**
 * The quizzes of the caller's businesses (or of one business, `venueId`, through authorizeVenue:
 * someone else's → 403, missing → 404), every date, as CSV.
 */
export async function exportQuizzesCsv(deps: Pick<Deps, 'db'>, actor: NonNullable<Actor>, input: { venueId?: string | undefined } = {}): Promise<string> {
  const { db } = deps;
  const { venueId } = input;
  const venueIds = venueId ? [(await authorizeVenue(db, actor, venueId)).id] : (await db.select({ id: venues.id }).from(venues).where(eq(venues.userId, actor.id))).map((v) => v.id);
  const rows = await readInChunks(venueIds, (ids) =>
    db
      .select({
        date: quizzes.date, weekday: quizzes.weekday, startTime: quizzes.startTime, business: venues.name, place: locations.name, address: locations.address, city: locations.city,
        category: quizzes.category, theme: quizzes.theme, quizmaster: quizzes.quizmaster, price: quizzes.price, title: quizzes.title, recurrenceId: quizzes.recurrenceId,
        pattern: quizzes.recurrencePattern, cancelled: quizzes.isCancelled,
      })
      .from(quizzes)
      .innerJoin(locations, eq(locations.id, quizzes.locationId))
      .innerJoin(venues, eq(venues.id, locations.venueId))
      .where(inArray(venues.id, ids)),
  );
  rows.sort((a, b) => (a.date === b.date ? (a.startTime ?? '').localeCompare(b.startTime ?? '') : a.date < b.date ? -1 : 1));
  return toCsv(
    QUIZ_CSV_HEADER,
    rows.map((r) => [
      r.date, weekdayOfSunday0(r.weekday ?? 0).name, (r.startTime ?? '19:00:00').slice(0, 5), r.business, r.place, r.address, r.city, r.category ?? '', r.theme ?? '', r.quizmaster ?? '',
      r.price ?? '', r.title ?? '', r.recurrenceId ?? '', r.pattern ?? '', r.cancelled ? 'ja' : 'nej',
    ]),
  );
}

/** The import's columns, in the sample file's order. */
export const CATALOGUE_HEADER = ['name', 'address', 'city', 'phone', 'website', 'weekday', 'start_time', 'pattern', 'category', 'theme', 'quizmaster', 'price', 'lat', 'lng'];

/**
 * The whole catalogue in the import format: one line per series at a place and weekday (an import
 * line is a business + place + weekly/biweekly series). The series' latest occurrence carries its
 * time, category, theme, quizmaster and price. Single (non-recurring) quizzes have no import form and
 * are left out. Ordered by business, town, address, weekday.
 */
export async function exportCatalogueCsv(deps: Pick<Deps, 'db'>): Promise<string> {
  const { db } = deps;
  const units = await db.all<{
    name: string; address: string; city: string; phone: string | null; website: string | null; lat: number | null; lng: number | null; pattern: string | null; days: string | null;
    weekday: number; start_time: string | null; category: string | null; theme: string | null; quizmaster: string | null; price: number | null; name_sort: string;
  }>(sql`
    SELECT v.name, l.address, l.city, coalesce(l.phone, v.phone) AS phone, coalesce(l.website, v.website) AS website, l.latitude AS lat, l.longitude AS lng,
           q.recurrence_pattern AS pattern, q.recurrence_days AS days, q.weekday, q.start_time, q.category, q.theme, q.quizmaster, q.price, v.name_sort,
           MAX(q.date) AS last_date
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id IS NOT NULL
    GROUP BY q.recurrence_id, q.location_id`);
  const lines: Array<{ key: string; cells: unknown[] }> = [];
  for (const u of units) {
    const parsed = u.days ? safeJson(u.days) : null;
    const days = Array.isArray(parsed) && parsed.length ? (parsed as string[]) : [weekdayOfSunday0(u.weekday).name];
    for (const day of days) {
      const cells = [u.name, u.address, u.city, u.phone ?? '', u.website ?? '', day, (u.start_time ?? '19:00:00').slice(0, 5), u.pattern ?? 'weekly', u.category ?? 'allmänbildning', u.theme ?? '', u.quizmaster ?? '', u.price ?? '', u.lat ?? '', u.lng ?? ''];
      lines.push({ key: `${u.name_sort}\u0000${u.city}\u0000${u.address}\u0000${(findWeekday(day)?.iso ?? -1) % 7}\u0000${cells.join('\u0001')}`, cells });
    }
  }
  lines.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return toCsv(CATALOGUE_HEADER, lines.map((l) => l.cells));
}
