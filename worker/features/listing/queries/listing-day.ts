/** listing_state: the day the stored listing columns are for, read with a kept count, and the day's advance (issue 30.8). */
import { sql } from 'drizzle-orm';
import { batchableRun, runBatch, type BatchStatement } from '../../../db/batch';
import type { Db } from '../../../db/client';
import { addDays } from '../../../lib/clock';

/** listing_state: the day the stored listing columns are for, and the house account they rank last. */
export interface ListingState {
  today: string;
  houseEmail: string | null;
  houseId: string | null;
}

/**
 * The listing state and the listed count of one scope (listing_counts: city '' = Sweden, wd -1 = every
 * weekday) in one read; without a scope the state alone. `units`/`places` are null when the scope has never
 * had a listed unit.
 */
export async function stateAndCount(
  db: Db,
  scope: { city: string; wd: number } | null,
): Promise<ListingState & { units: number | null; places: number | null }> {
  const [row] = scope
    ? await db.all<ListingState & { units: number | null; places: number | null }>(sql`
        SELECT s.today AS today, s.house_email AS houseEmail, s.house_id AS houseId, c.units AS units, c.places AS places
        FROM listing_state s LEFT JOIN listing_counts c ON c.city = ${scope.city} AND c.wd = ${scope.wd} WHERE s.id = 1`)
    : await db.all<ListingState & { units: null; places: null }>(sql`
        SELECT today, house_email AS houseEmail, house_id AS houseId, NULL AS units, NULL AS places FROM listing_state WHERE id = 1`);
  if (!row) throw new Error('listing_state is missing: apply the migrations (0018)');
  return row;
}

/**
 * Bring the stored listing columns to `today` and `houseEmail` (one batch): the units whose next
 * occurrence has passed, and those with a biweekly date that enters weekday mode's 7-day window, are
 * refreshed (their tier, weekday mask, next occurrence and card; listing_counts follows by trigger); a new house
 * account refreshes the units of the old and the new one. A clock that went back (tests) refreshes every
 * unit. Idempotent: a second run the same day finds nothing to refresh.
 */
export async function advanceListingDay(db: Db, state: ListingState, today: string, houseEmail: string): Promise<void> {
  const statements: BatchStatement[] = [];
  if (state.houseEmail !== houseEmail) {
    statements.push(
      batchableRun(db, sql`UPDATE listing_state SET house_email = ${houseEmail}, house_id = (SELECT id FROM users WHERE email = ${houseEmail}) WHERE id = 1`),
    );
    statements.push(
      batchableRun(
        db,
        sql`UPDATE listing_series SET touch = touch + 1
      WHERE venue_id IN (SELECT id FROM venues WHERE user_id IN (${state.houseId ?? ''}, (SELECT house_id FROM listing_state WHERE id = 1)))`,
      ),
    );
  }
  if (state.today !== today) {
    statements.push(batchableRun(db, sql`UPDATE listing_state SET today = ${today} WHERE id = 1`));
    if (today > state.today) {
      statements.push(batchableRun(db, sql`UPDATE listing_series SET touch = touch + 1 WHERE next_date < ${today}`));
      // Every biweekly date that enters weekday mode's 7-day window — not only a unit's next date: a
      // biweekly series on two weekdays has its second date enter on a later day (quizzes_date_idx range).
      statements.push(
        batchableRun(
          db,
          sql`UPDATE listing_series SET touch = touch + 1
        WHERE key IN (SELECT q.recurrence_id || '@' || q.location_id FROM quizzes q
          WHERE q.date > ${addDays(state.today, 6)} AND q.date <= ${addDays(today, 6)} AND q.recurrence_pattern = 'biweekly')`,
        ),
      );
    } else {
      statements.push(batchableRun(db, sql`UPDATE listing_series SET touch = touch + 1`));
    }
  }
  await runBatch(db, statements);
}
