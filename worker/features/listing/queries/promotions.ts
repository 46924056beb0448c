/** The active promotions the listing ranks first (spec 01 §4 tiers 1–2; spec 02 §4.1). */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { seriesWhere, UNIT_COLUMNS, type SeriesFilter, type UnitRow } from './where';

export interface ActivePromotionRow {
  quizId: string;
  rid: string | null;
  productType: 'recommended' | 'premium';
  startDate: string;
  endDate: string;
}

/** Promotions that count (spec 02 §4.1): status active and end_date not before today. */
export async function activePromotions(db: Db, today: string): Promise<ActivePromotionRow[]> {
  return db.all<ActivePromotionRow>(sql`
    SELECT p.quiz_id AS quizId, pq.recurrence_id AS rid, p.product_type AS productType,
           p.start_date AS startDate, p.end_date AS endDate
    FROM promotions p CROSS JOIN quizzes pq ON pq.id = p.quiz_id
    WHERE p.status = 'active' AND p.end_date >= ${today}`);
}

/**
 * The active promotions (spec 02 §4.1: status active, end date not past) with the units they point at
 * under the listing's filters, in one read: a promotion of a series covers its series at every place, a
 * promotion of a single quiz that quiz's unit. One row per (promotion, unit); the unit columns are null
 * when none of its units matches. Without a promotion it reads the promotions index and nothing else.
 */
export async function promotionsWithUnits(db: Db, f: SeriesFilter): Promise<Array<ActivePromotionRow & { [K in keyof UnitRow]: UnitRow[K] | null }>> {
  return db.all(sql`
    SELECT p.quiz_id AS quizId, pq.recurrence_id AS rid, p.product_type AS productType, p.start_date AS startDate, p.end_date AS endDate, ${UNIT_COLUMNS}
    FROM promotions p CROSS JOIN quizzes pq ON pq.id = p.quiz_id
      LEFT JOIN listing_series e ON ((pq.recurrence_id IS NOT NULL AND e.recurrence_id = pq.recurrence_id) OR (pq.recurrence_id IS NULL AND e.key = pq.id))
        AND ${seriesWhere(f)}
    WHERE p.status = 'active' AND p.end_date >= ${f.today}`);
}
