/** Reads and raw SQL of the tips feature (issue 31.1). */
import { and, asc, count, desc, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locations, tips, venues, type TipStatus } from '../../db/schema';

/** Tips per page of the superadmin's queue. */
export const TIP_LIST_LIMIT = 100;

export async function countTips(db: Db, status: TipStatus): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tips).where(eq(tips.status, status));
  return row?.n ?? 0;
}

/** Tips with the created business's slug and city (approved tips). */
function tipsWithBusiness(db: Db) {
  return db
    .select({
      tip: tips,
      venueSlug: venues.slug,
      venueCitySlug: sql<string | null>`(SELECT ${locations.citySlug} FROM ${locations} WHERE ${locations.venueId} = ${tips.venueId} LIMIT 1)`,
    })
    .from(tips)
    .leftJoin(venues, eq(venues.id, tips.venueId));
}

/**
 * One page (TIP_LIST_LIMIT + 1 rows: the extra one says there is a next page) in (created_at, id) order, after
 * the cursor's row; the created business's slug and city for approved tips.
 */
export function tipPage(db: Db, status: TipStatus, order: 'oldest' | 'newest', after: { createdAt: string; id: string } | null) {
  const past = order === 'oldest' ? gt : lt;
  const by = order === 'oldest' ? asc : desc;
  const from = after ? or(past(tips.createdAt, after.createdAt), and(eq(tips.createdAt, after.createdAt), past(tips.id, after.id))) : undefined;
  return tipsWithBusiness(db)
    .where(and(eq(tips.status, status), from))
    .orderBy(by(tips.createdAt), by(tips.id))
    .limit(TIP_LIST_LIMIT + 1);
}

/** A new tip, or — when a pending tip has its dedup key — that tip seen once more (the unique index over pending rows). */
export function insertOrFoldTip(db: Db, row: typeof tips.$inferInsert) {
  return db
    .insert(tips)
    .values(row)
    .onConflictDoUpdate({
      target: tips.dedupKey,
      targetWhere: sql`status = 'pending'`,
      set: { seenCount: sql`${tips.seenCount} + 1`, lastSeenAt: sql`excluded.created_at` },
    });
}

/** One tip as tipPage shows it, by id (an answer's reply: never looked up in a page of the queue). */
export async function tipWithBusinessById(db: Db, id: string) {
  const [row] = await tipsWithBusiness(db).where(eq(tips.id, id));
  return row;
}

export async function tipById(db: Db, id: string) {
  const [row] = await db.select().from(tips).where(eq(tips.id, id));
  return row;
}

/** Businesses with a place in this town: the near-duplicate candidates of a tip. */
export function placesInCity(db: Db, citySlug: string) {
  return db
    .select({ venueId: venues.id, name: venues.name, address: locations.address })
    .from(locations)
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(eq(locations.citySlug, citySlug))
    .limit(2000);
}

/** The claim of an answer: moves a pending tip on; changes no row when it was answered already. */
export function claimTip(db: Db, id: string, set: Partial<typeof tips.$inferInsert>) {
  return db
    .update(tips)
    .set(set)
    .where(and(eq(tips.id, id), eq(tips.status, 'pending')));
}

export function forgetEmail(db: Db, id: string) {
  return db.update(tips).set({ email: null }).where(eq(tips.id, id));
}
