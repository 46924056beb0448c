/**
 * SQL of "Vi kommer" (issue 47): every read, and the guarded statements the services compose. Capacity is
 * decided inside one UPDATE that reads `rsvp_counts` (kept by triggers, migration rsvp_counts), never by a
 * read followed by a write.
 */
import { sql, type SQL } from 'drizzle-orm';
import { BATCH_LOOKUPS_MAX, batchAll, batchableRun, type BatchStatement } from '../../db/batch';
import type { Db } from '../../db/client';
import { rsvps } from '../../db/schema';

/** One occurrence as RSVPs need it: its time, place, capacity, counts and its series' settings. */
export interface RsvpQuiz {
  id: string;
  date: string;
  start_time: string | null;
  title: string | null;
  is_cancelled: number;
  capacity_tables: number | null;
  recurrence_id: string | null;
  location_id: string;
  is_public: number;
  owner_id: string;
  place_name: string;
  venue_name: string;
  address: string;
  city: string;
  city_slug: string;
  venue_slug: string;
  rsvp_off: number | null;
  booking_url: string | null;
  booking_phone: string | null;
  teams: number | null;
  seats: number | null;
  held: number | null;
  queued: number | null;
}

const QUIZ_SELECT = sql`
  SELECT q.id, q.date, q.start_time, q.title, q.is_cancelled, q.capacity_tables, q.recurrence_id, q.location_id,
         v.is_public, v.user_id AS owner_id, l.name AS place_name, v.name AS venue_name, l.address, l.city, l.city_slug, v.slug AS venue_slug,
         s.rsvp_off, s.booking_url, s.booking_phone, c.teams, c.seats, c.held, c.queued
  FROM quizzes q
  JOIN locations l ON l.id = q.location_id
  JOIN venues v ON v.id = l.venue_id
  LEFT JOIN rsvp_settings s ON s.series_key = coalesce(q.recurrence_id, q.id)
  LEFT JOIN rsvp_counts c ON c.quiz_id = q.id`;

export async function rsvpQuiz(db: Db, quizId: string): Promise<RsvpQuiz | null> {
  const [row] = await db.all<RsvpQuiz>(sql`${QUIZ_SELECT} WHERE q.id = ${quizId}`);
  return row ?? null;
}

/** A new RSVP (pending, or already confirmed for a signed-in user by the next statement); none when the address already has a live one. */
export function insertRsvpStatement(db: Db, r: { id: string; quizId: string; userId: string | null; email: string; teamSize: number }): BatchStatement {
  return batchableRun(
    db,
    sql`INSERT INTO rsvps (id, quiz_id, user_id, email, team_size, state) VALUES (${r.id}, ${r.quizId}, ${r.userId}, ${r.email}, ${r.teamSize}, 'pending')
      ON CONFLICT DO NOTHING`,
  );
}

/** Whether the RSVP `id` exists now (the condition of its confirmation mail in the same batch). */
export const rsvpExistsSql = (id: string, state?: string): SQL =>
  state ? sql`EXISTS (SELECT 1 FROM rsvps WHERE id = ${id} AND state = ${state})` : sql`EXISTS (SELECT 1 FROM rsvps WHERE id = ${id})`;

/**
 * The guarded confirmation (one statement): a pending RSVP becomes `confirmed` when the occurrence has no capacity,
 * or has a free table and no waitlist; otherwise `queued` (at the end of the waitlist). An offered RSVP whose offer
 * still holds becomes `confirmed` (its table is already held). Concurrent confirmations are serialised by the
 * database, and each one reads the counts the previous ones left (triggers), so no table is given twice.
 */
export function confirmStatement(db: Db, id: string, nowIso: string) {
  const cap = sql`(SELECT q.capacity_tables FROM quizzes q WHERE q.id = rsvps.quiz_id)`;
  const held = sql`coalesce((SELECT c.held FROM rsvp_counts c WHERE c.quiz_id = rsvps.quiz_id), 0)`;
  const queued = sql`coalesce((SELECT c.queued FROM rsvp_counts c WHERE c.quiz_id = rsvps.quiz_id), 0)`;
  const fits = sql`(rsvps.state = 'offered' OR ${cap} IS NULL OR (${held} < ${cap} AND ${queued} = 0))`;
  return db
    .update(rsvps)
    .set({
      state: sql`CASE WHEN ${fits} THEN 'confirmed' ELSE 'queued' END`,
      queuedAt: sql`CASE WHEN ${fits} THEN rsvps.queued_at ELSE ${nowIso} END`,
      confirmedAt: nowIso,
      offerExpiresAt: null,
      updatedAt: nowIso,
    })
    .where(sql`rsvps.id = ${id} AND (rsvps.state = 'pending' OR (rsvps.state = 'offered' AND rsvps.offer_expires_at > ${nowIso}))`)
    .returning({ id: rsvps.id, state: rsvps.state, quizId: rsvps.quizId });
}

/** "Vi kan inte komma": any live state → cancelled (idempotent). Returns the quiz when something changed. */
export function cancelStatement(db: Db, id: string, nowIso: string) {
  return db
    .update(rsvps)
    .set({ state: 'cancelled', cancelledAt: nowIso, offerExpiresAt: null, updatedAt: nowIso })
    .where(sql`rsvps.id = ${id} AND rsvps.state <> 'cancelled'`)
    .returning({ quizId: rsvps.quizId });
}

/** The head of an occurrence's waitlist (earliest queued; within one millisecond, the earlier RSVP), or null. */
export async function headOfQueue(db: Db, quizId: string): Promise<{ id: string; email: string | null; user_id: string | null } | null> {
  const [row] = await db.all<{ id: string; email: string | null; user_id: string | null }>(sql`
    SELECT id, email, user_id FROM rsvps WHERE quiz_id = ${quizId} AND state = 'queued' ORDER BY queued_at, rowid LIMIT 1`);
  return row ?? null;
}

/**
 * Offers a freed table to `id` (guarded: it is still queued, the occurrence is not cancelled and a table is free
 * by the counts at write time). Meant for one batch with the offer mail (condition `offeredSql`).
 */
export function offerStatement(db: Db, id: string, quizId: string, nowIso: string, expiresIso: string): BatchStatement {
  return batchableRun(
    db,
    sql`UPDATE rsvps SET state = 'offered', offered_at = ${nowIso}, offer_expires_at = ${expiresIso}, updated_at = ${nowIso}
      WHERE id = ${id} AND state = 'queued'
        AND coalesce((SELECT c.held FROM rsvp_counts c WHERE c.quiz_id = ${quizId}), 0)
          < (SELECT q.capacity_tables FROM quizzes q WHERE q.id = ${quizId} AND q.is_cancelled = 0)`,
  );
}
export const offeredSql = (id: string, nowIso: string): SQL =>
  sql`EXISTS (SELECT 1 FROM rsvps WHERE id = ${id} AND state = 'offered' AND offered_at = ${nowIso})`;

/** Offers that lapsed by `nowIso` (at most `limit`). */
export async function lapsedOffers(db: Db, nowIso: string, limit: number): Promise<Array<{ id: string; quiz_id: string }>> {
  return db.all(sql`SELECT id, quiz_id FROM rsvps WHERE state = 'offered' AND offer_expires_at <= ${nowIso} ORDER BY offer_expires_at LIMIT ${limit}`);
}

/** A lapsed offer is given up (guarded: only if it is still offered and past its time). */
export async function lapseOffer(db: Db, id: string, nowIso: string): Promise<boolean> {
  const rows = await db.all(sql`
    UPDATE rsvps SET state = 'cancelled', cancelled_at = ${nowIso}, offer_expires_at = NULL, updated_at = ${nowIso}
    WHERE id = ${id} AND state = 'offered' AND offer_expires_at <= ${nowIso}
    RETURNING id`);
  return rows.length > 0;
}

/** Occurrences from `today` on with a waitlist and a free table (after a cancellation, a lapse or more tables). */
export async function quizzesWithFreeTables(db: Db, today: string, limit: number): Promise<string[]> {
  const rows = await db.all<{ id: string }>(sql`
    SELECT q.id FROM rsvp_counts c INDEXED BY rsvp_counts_queued_idx
    JOIN quizzes q ON q.id = c.quiz_id
    WHERE c.queued > 0 AND q.date >= ${today} AND q.is_cancelled = 0 AND q.capacity_tables IS NOT NULL AND c.held < q.capacity_tables
    LIMIT ${limit}`);
  return rows.map((r) => r.id);
}

/** A confirmed RSVP with its night (the reminder sweep). */
export interface ReminderCandidate {
  id: string;
  email: string | null;
  user_id: string | null;
  confirmed_at: string;
  quiz_id: string;
  date: string;
  start_time: string | null;
  title: string | null;
  location_id: string;
  place_name: string;
  venue_name: string;
  address: string;
  city: string;
  city_slug: string;
  venue_slug: string;
}

/** Confirmed RSVPs on `from`..`to` (not cancelled nights) whose reminder of the kind is not yet claimed. */
export async function reminderCandidates(db: Db, kind: 'mail' | 'push', from: string, to: string, limit: number): Promise<ReminderCandidate[]> {
  const unsent = kind === 'mail' ? sql`r.reminder_mail_at IS NULL` : sql`r.reminder_push_at IS NULL`;
  return db.all<ReminderCandidate>(sql`
    SELECT r.id, r.email, r.user_id, r.confirmed_at, q.id AS quiz_id, q.date, q.start_time, q.title, q.location_id,
           l.name AS place_name, v.name AS venue_name, l.address, l.city, l.city_slug, v.slug AS venue_slug
    FROM quizzes q
    JOIN rsvps r ON r.quiz_id = q.id AND r.state = 'confirmed' AND ${unsent}
    JOIN locations l ON l.id = q.location_id
    JOIN venues v ON v.id = l.venue_id
    WHERE q.date BETWEEN ${from} AND ${to} AND q.is_cancelled = 0
    LIMIT ${limit}`);
}

/** Claims one reminder (guarded: still confirmed and unclaimed), for the same batch as its mail. */
export function claimReminderStatement(db: Db, id: string, kind: 'mail' | 'push', nowIso: string): BatchStatement {
  return kind === 'mail'
    ? batchableRun(db, sql`UPDATE rsvps SET reminder_mail_at = ${nowIso} WHERE id = ${id} AND state = 'confirmed' AND reminder_mail_at IS NULL`)
    : batchableRun(db, sql`UPDATE rsvps SET reminder_push_at = ${nowIso} WHERE id = ${id} AND state = 'confirmed' AND reminder_push_at IS NULL`);
}
export const claimedSql = (id: string, kind: 'mail' | 'push', nowIso: string): SQL =>
  kind === 'mail'
    ? sql`EXISTS (SELECT 1 FROM rsvps WHERE id = ${id} AND reminder_mail_at = ${nowIso})`
    : sql`EXISTS (SELECT 1 FROM rsvps WHERE id = ${id} AND reminder_push_at = ${nowIso})`;

/**
 * The push subscriptions of the team (issue 32's "Påminn mig i telefonen"): those of its account's or address's
 * confirmed follow of the night's place. At most five (one follow's limit).
 */
export async function pushTargetsOf(db: Db, r: { user_id: string | null; email: string | null; location_id: string }) {
  return db.all<{ id: string; follow_id: string; endpoint: string; p256dh: string; auth: string }>(sql`
    SELECT p.id, p.follow_id, p.endpoint, p.p256dh, p.auth
    FROM follows f
    LEFT JOIN follow_addresses a ON a.id = f.address_id
    JOIN push_subscriptions p ON p.follow_id = f.id
    WHERE f.location_id = ${r.location_id} AND f.confirmed_at IS NOT NULL
      AND ((${r.user_id} IS NOT NULL AND f.user_id = ${r.user_id}) OR (${r.email} IS NOT NULL AND a.email = ${r.email}))
    LIMIT 5`);
}

/**
 * Figures for a page of occurrences (the listing's `teams` / `tablesLeft`): only `rsvp_counts`, one key read per id in
 * one batch, so an occurrence without RSVPs or a capacity (no row) reads nothing; a list longer than
 * BATCH_LOOKUPS_MAX is one json_each join (which reads every id of the list as well).
 */
export async function countsOf(db: Db, quizIds: readonly string[]) {
  type Row = { id: string; capacity_tables: number | null; teams: number; held: number };
  if (!quizIds.length) return [];
  const cols = sql`c.quiz_id AS id, c.capacity_tables, c.teams, c.held`;
  if (quizIds.length > BATCH_LOOKUPS_MAX)
    return db.all<Row>(sql`SELECT ${cols} FROM json_each(${JSON.stringify(quizIds)}) j CROSS JOIN rsvp_counts c ON c.quiz_id = j.value`);
  return (
    await batchAll<Row>(
      db,
      quizIds.map((id) => sql`SELECT ${cols} FROM rsvp_counts c WHERE c.quiz_id = ${id}`),
    )
  ).flat();
}

/** Every RSVP of one occurrence for its owner's view (newest changes last), at most `limit`. */
export async function rsvpsOfQuiz(db: Db, quizId: string, limit: number) {
  return db.all<{ id: string; state: string; team_size: number; email: string | null; queued_at: string | null; updated_at: string; created_at: string }>(sql`
    SELECT id, state, team_size, email, queued_at, updated_at, created_at FROM rsvps WHERE quiz_id = ${quizId}
    ORDER BY rowid LIMIT ${limit}`);
}

/** One RSVP's night and state. */
export async function rsvpState(db: Db, id: string): Promise<{ quiz_id: string; state: string } | null> {
  const [row] = await db.all<{ quiz_id: string; state: string }>(sql`SELECT quiz_id, state FROM rsvps WHERE id = ${id}`);
  return row ?? null;
}

/** Upserts a series' (or single quiz's) settings, for a batch with the data-version bump. */
export function upsertSettingsStatement(db: Db, key: string, s: { rsvpOff: boolean; bookingUrl: string | null; bookingPhone: string | null }, nowIso: string) {
  return batchableRun(
    db,
    sql`INSERT INTO rsvp_settings (series_key, rsvp_off, booking_url, booking_phone) VALUES (${key}, ${s.rsvpOff ? 1 : 0}, ${s.bookingUrl}, ${s.bookingPhone})
      ON CONFLICT(series_key) DO UPDATE SET rsvp_off = excluded.rsvp_off, booking_url = excluded.booking_url,
        booking_phone = excluded.booking_phone, updated_at = ${nowIso}`,
  );
}

/** Privacy: addresses of RSVPs whose night was before `before` are set to NULL, one page. Returns how many. */
export async function forgetAddresses(db: Db, before: string, limit: number): Promise<number> {
  const rows = await db.all(sql`
    UPDATE rsvps SET email = NULL
    WHERE id IN (
      SELECT r.id FROM rsvps r INDEXED BY rsvps_email_quiz_idx JOIN quizzes q ON q.id = r.quiz_id
      WHERE r.email IS NOT NULL AND q.date < ${before} LIMIT ${limit})
    RETURNING id`);
  return rows.length;
}

/**
 * RSVPs never confirmed within the link's lifetime are deleted (they hold an address and count for nothing). By the
 * database's own time, as `created_at` is written (a pinned application clock must never delete a fresh RSVP).
 */
export async function deleteStalePending(db: Db, hours: number, limit: number): Promise<number> {
  const rows = await db.all(sql`
    DELETE FROM rsvps WHERE id IN (
      SELECT id FROM rsvps WHERE state = 'pending' AND created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${hours} hours`}) LIMIT ${limit})
    RETURNING id`);
  return rows.length;
}
