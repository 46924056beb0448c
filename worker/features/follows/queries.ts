/**
 * SQL of the follows feature: every read, and the statement builders the services compose (issue 28.6). Raw
 * statements where a condition must live inside one statement.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { batchableRun } from '../../db/batch';
import type { Db } from '../../db/client';
import { deadLetters, followAddresses, follows, pushSubscriptions } from '../../db/schema';
import { readInChunks } from '../../lib/chunks';
import { MAX_FOLLOWS_PER_ADDRESS, type FollowStatsResponse, type SavedSearch } from './contract';

/** Whose follow: an account, or a visitor's address. */
export type FollowOwner = { userId: string } | { addressId: string };

export interface FollowTarget {
  kind: 'place' | 'search';
  locationId: string | null;
  filters: string | null;
  targetKey: string;
}

/** A public place (its business is public), or null. */
export async function findPublicPlace(db: Db, placeId: string) {
  const [row] = await db.all<{ id: string; name: string; city: string; city_slug: string; venue_name: string; venue_slug: string }>(sql`
    SELECT l.id, l.name, l.city, l.city_slug, v.name AS venue_name, v.slug AS venue_slug
    FROM locations l JOIN venues v ON v.id = l.venue_id
    WHERE l.id = ${placeId} AND v.is_public = 1`);
  return row ?? null;
}

/** Upserts the address row; returns its id. */
export async function upsertAddress(db: Db, id: string, email: string, now: Date): Promise<string> {
  const [row] = await db.all<{ id: string }>(sql`
    INSERT INTO follow_addresses (id, email) VALUES (${id}, ${email})
    ON CONFLICT(email) DO UPDATE SET updated_at = ${now.toISOString()}
    RETURNING id`);
  return row!.id;
}

/**
 * Inserts a follow unless the follower already has MAX_FOLLOWS_PER_ADDRESS or already follows the same thing: one
 * statement, so concurrent requests cannot pass the limit together. Returns the new id or null.
 */
export async function insertFollowWithinLimit(
  db: Db,
  f: { id: string; owner: { userId: string } | { addressId: string }; target: FollowTarget; confirmedAt: string | null },
): Promise<string | null> {
  const userId = 'userId' in f.owner ? f.owner.userId : null;
  const addressId = 'addressId' in f.owner ? f.owner.addressId : null;
  const count = userId ? sql`(SELECT count(*) FROM follows WHERE user_id = ${userId})` : sql`(SELECT count(*) FROM follows WHERE address_id = ${addressId})`;
  const rows = await db.all<{ id: string }>(sql`
    INSERT INTO follows (id, user_id, address_id, kind, location_id, filters, target_key, confirmed_at)
    SELECT ${f.id}, ${userId}, ${addressId}, ${f.target.kind}, ${f.target.locationId}, ${f.target.filters}, ${f.target.targetKey}, ${f.confirmedAt}
    WHERE ${count} < ${MAX_FOLLOWS_PER_ADDRESS}
    ON CONFLICT DO NOTHING
    RETURNING id`);
  return rows[0]?.id ?? null;
}

export async function findFollowByTarget(db: Db, owner: { userId: string } | { addressId: string }, targetKey: string) {
  const cond = 'userId' in owner ? sql`user_id = ${owner.userId}` : sql`address_id = ${owner.addressId}`;
  const [row] = await db.all<{ id: string; confirmed_at: string | null }>(
    sql`SELECT id, confirmed_at FROM follows WHERE ${cond} AND target_key = ${targetKey}`,
  );
  return row ?? null;
}

export interface FollowWithRecipient {
  id: string;
  user_id: string | null;
  address_id: string | null;
  kind: 'place' | 'search';
  location_id: string | null;
  filters: string | null;
  reminders: number;
  results: number;
  confirmed_at: string | null;
  created_at: string;
  email: string | null;
  place_name: string | null;
  city: string | null;
  city_slug: string | null;
  venue_slug: string | null;
}

const FOLLOW_SELECT = sql`
  SELECT f.id, f.user_id, f.address_id, f.kind, f.location_id, f.filters, f.reminders, f.results, f.confirmed_at, f.created_at,
         coalesce(u.email, a.email) AS email,
         l.name AS place_name, l.city, l.city_slug, v.slug AS venue_slug
  FROM follows f
  LEFT JOIN users u ON u.id = f.user_id
  LEFT JOIN follow_addresses a ON a.id = f.address_id
  LEFT JOIN locations l ON l.id = f.location_id
  LEFT JOIN venues v ON v.id = l.venue_id`;

export async function followWithRecipient(db: Db, followId: string): Promise<FollowWithRecipient | null> {
  const [row] = await db.all<FollowWithRecipient>(sql`${FOLLOW_SELECT} WHERE f.id = ${followId}`);
  return row ?? null;
}

/** Follows of an address ('a:') or account ('u:'), oldest first. */
export async function followsOf(db: Db, subject: { userId: string } | { addressId: string }): Promise<FollowWithRecipient[]> {
  const cond = 'userId' in subject ? sql`f.user_id = ${subject.userId}` : sql`f.address_id = ${subject.addressId}`;
  return db.all<FollowWithRecipient>(sql`${FOLLOW_SELECT} WHERE ${cond} ORDER BY f.created_at, f.id LIMIT 100`);
}

export interface DueReminder {
  follow_id: string;
  quiz_id: string;
}

/** Confirmed place follows with reminders on × their place's quizzes on `date` (not cancelled, public), keyset-paged. */
export async function dueReminders(db: Db, date: string, after: string, limit: number): Promise<DueReminder[]> {
  return db.all<DueReminder>(sql`
    SELECT f.id AS follow_id, q.id AS quiz_id
    FROM follows f
    JOIN quizzes q ON q.location_id = f.location_id AND q.date = ${date} AND q.is_cancelled = 0
    JOIN locations l ON l.id = f.location_id
    JOIN venues v ON v.id = l.venue_id AND v.is_public = 1
    WHERE f.kind = 'place' AND f.reminders = 1 AND f.confirmed_at IS NOT NULL
      AND (f.id || ':' || q.id) > ${after}
    ORDER BY f.id || ':' || q.id
    LIMIT ${limit}`);
}

/** Confirmed follows (every kind), keyset-paged by id: one digest each. */
export async function confirmedFollowIds(db: Db, after: string, limit: number): Promise<string[]> {
  const rows = await db.all<{ id: string }>(sql`
    SELECT id FROM follows WHERE confirmed_at IS NOT NULL AND id > ${after} ORDER BY id LIMIT ${limit}`);
  return rows.map((r) => r.id);
}

export interface MailQuiz {
  id: string;
  date: string;
  start_time: string | null;
  title: string | null;
  created_at: string;
  place_name: string;
  address: string;
  city: string;
  city_slug: string;
  latitude: number | null;
  longitude: number | null;
  venue_name: string;
  venue_slug: string;
  is_cancelled: number;
  is_public: number;
  /** For the quiz filters of a saved search (matchesQuizFilters on each date). */
  price: number | null;
  team_size: number | null;
  category: string | null;
  theme: string | null;
  language: string;
}

const QUIZ_SELECT = sql`
  SELECT q.id, q.date, q.start_time, q.title, q.created_at, q.is_cancelled, q.price, q.team_size, q.category, q.theme, q.language,
         l.name AS place_name, l.address, l.city, l.city_slug, l.latitude, l.longitude,
         v.name AS venue_name, v.slug AS venue_slug, v.is_public
  FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id`;

export async function mailQuiz(db: Db, quizId: string): Promise<MailQuiz | null> {
  const [row] = await db.all<MailQuiz>(sql`${QUIZ_SELECT} WHERE q.id = ${quizId}`);
  return row ?? null;
}

/** The week's quizzes at a place (not cancelled, public), by date and time. */
export async function weekAtPlace(db: Db, locationId: string, from: string, to: string): Promise<MailQuiz[]> {
  return db.all<MailQuiz>(sql`${QUIZ_SELECT}
    WHERE q.location_id = ${locationId} AND q.date BETWEEN ${from} AND ${to} AND q.is_cancelled = 0 AND v.is_public = 1
    ORDER BY q.date, q.start_time LIMIT 50`);
}

const SQLITE_WEEKDAY: Record<string, number> = { sondag: 0, mandag: 1, tisdag: 2, onsdag: 3, torsdag: 4, fredag: 5, lordag: 6 };

/**
 * The week's quizzes for a saved search without text: city and weekday exactly as the listing filters them
 * (the place's city slug, the occurrence's weekday), not cancelled, public businesses.
 */
export async function weekForCityDay(db: Db, f: Pick<SavedSearch, 'city' | 'weekday'>, from: string, to: string): Promise<MailQuiz[]> {
  const conds = [sql`q.date BETWEEN ${from} AND ${to}`, sql`q.is_cancelled = 0`, sql`v.is_public = 1`];
  if (f.city) conds.push(sql`l.city_slug = ${f.city}`);
  if (f.weekday && SQLITE_WEEKDAY[f.weekday] !== undefined) conds.push(sql`q.weekday = ${SQLITE_WEEKDAY[f.weekday]}`);
  return db.all<MailQuiz>(sql`${QUIZ_SELECT} WHERE ${sql.join(conds, sql` AND `)} ORDER BY q.date, q.start_time LIMIT 50`);
}

/**
 * The week's dates of listed units: `seedIds` are the quiz ids the listing returned (its shown occurrence of
 * a series at one place, or a single quiz); each series contributes its dates at that place in [from, to].
 * Not cancelled, public businesses, optionally one weekday (an ASCII slug), at most 50.
 */
export async function weekOfUnits(db: Db, seedIds: string[], from: string, to: string, weekday?: string): Promise<MailQuiz[]> {
  if (seedIds.length === 0) return [];
  const w = weekday ? SQLITE_WEEKDAY[weekday] : undefined;
  return db.all<MailQuiz>(sql`
    WITH seeds AS MATERIALIZED (
      SELECT s.recurrence_id AS rid, s.location_id AS lid, s.id AS sid
      FROM json_each(${JSON.stringify(seedIds)}) j CROSS JOIN quizzes s ON s.id = j.value),
    picked AS MATERIALIZED (
      SELECT q.id AS qid FROM seeds CROSS JOIN quizzes q ON q.recurrence_id = seeds.rid AND q.location_id = seeds.lid
        WHERE seeds.rid IS NOT NULL AND q.date BETWEEN ${from} AND ${to}
      UNION
      SELECT seeds.sid AS qid FROM seeds WHERE seeds.rid IS NULL)
    ${QUIZ_SELECT}
    WHERE q.id IN (SELECT qid FROM picked) AND q.date BETWEEN ${from} AND ${to} AND q.is_cancelled = 0 AND v.is_public = 1
      ${w === undefined ? sql`` : sql`AND q.weekday = ${w}`}
    ORDER BY q.date, q.start_time LIMIT 50`);
}

/** Confirmed followers per place, for the owner dashboard. */
export async function followerCounts(db: Db, locationIds: string[]): Promise<Map<string, number>> {
  const rows = await readInChunks(locationIds, (chunk) =>
    db.all<{ location_id: string; n: number }>(sql`
      SELECT location_id, count(*) AS n FROM follows
      WHERE location_id IN (${sql.join(
        chunk.map((id) => sql`${id}`),
        sql`, `,
      )}) AND confirmed_at IS NOT NULL
      GROUP BY location_id`),
  );
  return new Map(rows.map((r) => [r.location_id, r.n]));
}

// ---------------------------------------------------------------- follows of one owner

function ownerCondition(owner: FollowOwner) {
  return 'userId' in owner ? eq(follows.userId, owner.userId) : eq(follows.addressId, owner.addressId);
}

/** Confirms a follow and its address (idempotent: the first instant stays); for one batch with the spent link. */
export function confirmFollowStatements(db: Db, followId: string, at: string) {
  return [
    db
      .update(follows)
      .set({ confirmedAt: sql`coalesce(${follows.confirmedAt}, ${at})`, updatedAt: at })
      .where(eq(follows.id, followId))
      .returning({ id: follows.id }),
    db
      .update(followAddresses)
      .set({ confirmedAt: sql`coalesce(${followAddresses.confirmedAt}, ${at})`, updatedAt: at })
      .where(sql`${followAddresses.id} = (SELECT address_id FROM follows WHERE id = ${followId})`),
  ] as const;
}

export function deleteFollow(db: Db, followId: string) {
  return db.delete(follows).where(eq(follows.id, followId));
}

/** Deletes every follow of an account; the ids deleted. */
export function deleteFollowsOfUser(db: Db, userId: string) {
  return db.delete(follows).where(eq(follows.userId, userId)).returning({ id: follows.id });
}

/** Deletes a visitor's address row (its follows go with it: FK cascade). */
export function deleteAddress(db: Db, addressId: string) {
  return db.delete(followAddresses).where(eq(followAddresses.id, addressId));
}

/** Ids of an address's follows (what "avsluta alla" removes with the address row). */
export async function followIdsOfAddress(db: Db, addressId: string): Promise<string[]> {
  const rows = await db.select({ id: follows.id }).from(follows).where(eq(follows.addressId, addressId));
  return rows.map((r) => r.id);
}

/** Sets reminders on one of the owner's follows; the ids changed (none: someone else's or a missing one). */
export function setOwnReminders(
  db: Db,
  owner: FollowOwner,
  followId: string,
  set: { reminders?: boolean | undefined; results?: boolean | undefined },
  at: string,
) {
  return db
    .update(follows)
    .set({
      ...(set.reminders !== undefined ? { reminders: set.reminders } : {}),
      ...(set.results !== undefined ? { results: set.results } : {}),
      updatedAt: at,
    })
    .where(and(eq(follows.id, followId), ownerCondition(owner)))
    .returning({ id: follows.id });
}

/** Deletes one of the owner's follows; the ids deleted. */
export function deleteOwnFollow(db: Db, owner: FollowOwner, followId: string) {
  return db
    .delete(follows)
    .where(and(eq(follows.id, followId), ownerCondition(owner)))
    .returning({ id: follows.id });
}

/** A follow of the owner (id and whether confirmed), or null. */
export async function findOwnFollow(db: Db, owner: FollowOwner, followId: string): Promise<{ id: string; confirmedAt: string | null } | null> {
  const [row] = await db
    .select({ id: follows.id, confirmedAt: follows.confirmedAt })
    .from(follows)
    .where(and(eq(follows.id, followId), ownerCondition(owner)));
  return row ?? null;
}

// ---------------------------------------------------------------- superadmin

/** Counts only, never addresses; mails counted since `since`. */
export async function followStats(db: Db, since: string): Promise<FollowStatsResponse> {
  const [row] = await db.all<FollowStatsResponse>(sql`
    SELECT
      (SELECT count(*) FROM follows WHERE confirmed_at IS NOT NULL) AS confirmed,
      (SELECT count(*) FROM follows WHERE confirmed_at IS NULL) AS pending,
      (SELECT count(*) FROM follows WHERE kind = 'place' AND confirmed_at IS NOT NULL) AS places,
      (SELECT count(*) FROM follows WHERE kind = 'search' AND confirmed_at IS NOT NULL) AS searches,
      (SELECT count(*) FROM follow_addresses WHERE confirmed_at IS NOT NULL) AS confirmedAddresses,
      (SELECT count(DISTINCT user_id) FROM follows WHERE user_id IS NOT NULL) AS accounts,
      (SELECT count(*) FROM mail_outbox WHERE send_key IS NOT NULL AND created_at >= ${since}) AS mailsLast7Days,
      (SELECT count(*) FROM dead_letters) AS deadLetters`);
  return row!;
}

/** The newest parked queue messages. */
export function newestDeadLetters(db: Db, limit: number) {
  return db.select().from(deadLetters).orderBy(desc(deadLetters.createdAt)).limit(limit);
}

/** Parks one queue message (a redelivered one is kept once). */
export function insertDeadLetter(db: Db, row: typeof deadLetters.$inferInsert) {
  return db.insert(deadLetters).values(row).onConflictDoNothing();
}

// ---------------------------------------------------------------- clean-up

/** Follows never confirmed, created before `cutoff`; the ids deleted. */
export function deletePendingFollowsBefore(db: Db, cutoff: string) {
  return db.all<{ id: string }>(sql`DELETE FROM follows WHERE confirmed_at IS NULL AND created_at < ${cutoff} RETURNING id`);
}

/** Addresses unchanged since `cutoff` with no follow left; the ids deleted. */
export function deleteOrphanAddressesBefore(db: Db, cutoff: string) {
  return db.all<{ id: string }>(sql`
    DELETE FROM follow_addresses WHERE updated_at < ${cutoff} AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.address_id = follow_addresses.id) RETURNING id`);
}

/** Push send keys claimed before `before`. */
export function deletePushSendsBefore(db: Db, before: string) {
  return db.run(sql`DELETE FROM push_sends WHERE created_at < ${before}`);
}

// ---------------------------------------------------------------- push subscriptions (issue 32)

/**
 * Stores a browser's subscription for a follow (or renews its keys) and keeps at most `max` per follow: this one
 * and the `max - 1` renewed most recently; the rest go (issue 42.3). One batch: both or neither.
 */
export async function storePushSubscription(
  db: Db,
  s: { id: string; followId: string; endpoint: string; p256dh: string; auth: string; at: string },
  max: number,
): Promise<void> {
  await db.batch([
    batchableRun(
      db,
      sql`
    INSERT INTO push_subscriptions (id, follow_id, endpoint, p256dh, auth, created_at, updated_at)
    VALUES (${s.id}, ${s.followId}, ${s.endpoint}, ${s.p256dh}, ${s.auth}, ${s.at}, ${s.at})
    ON CONFLICT(follow_id, endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth, updated_at = excluded.updated_at`,
    ),
    batchableRun(
      db,
      sql`
    DELETE FROM push_subscriptions WHERE follow_id = ${s.followId} AND endpoint != ${s.endpoint} AND id NOT IN (
      SELECT id FROM push_subscriptions WHERE follow_id = ${s.followId} AND endpoint != ${s.endpoint}
      ORDER BY updated_at DESC, rowid DESC LIMIT ${max - 1})`,
    ),
  ]);
}

/** A follow's subscriptions to push to: the `max` renewed most recently (rows beyond the cap predate it). */
export function pushSubscriptionsOf(db: Db, followId: string, max: number) {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.followId, followId))
    .orderBy(desc(pushSubscriptions.updatedAt), sql`rowid DESC`)
    .limit(max);
}

/** Whether a follow has any push subscription (a mail's push is enqueued only then). */
export async function hasPushSubscription(db: Db, followId: string): Promise<boolean> {
  const rows = await db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.followId, followId)).limit(1);
  return rows.length > 0;
}

/** Which of the owner's follows have a push subscription. */
export async function pushedFollowIds(db: Db, owner: FollowOwner): Promise<string[]> {
  const cond = 'userId' in owner ? sql`f.user_id = ${owner.userId}` : sql`f.address_id = ${owner.addressId}`;
  const rows = await db.all<{ follow_id: string }>(sql`
    SELECT DISTINCT p.follow_id FROM push_subscriptions p JOIN follows f ON f.id = p.follow_id WHERE ${cond}`);
  return rows.map((r) => r.follow_id);
}

/** Claims a push send key; false when it was claimed before (the push was sent). */
export async function claimPushSend(db: Db, sendKey: string): Promise<boolean> {
  const claimed = await db.all<{ send_key: string }>(sql`INSERT INTO push_sends (send_key) VALUES (${sendKey}) ON CONFLICT DO NOTHING RETURNING send_key`);
  return claimed.length > 0;
}

/** Gives a claimed send key back (the send failed; the queue's retry sends it). */
export function releasePushSend(db: Db, sendKey: string) {
  return db.run(sql`DELETE FROM push_sends WHERE send_key = ${sendKey}`);
}

/** Confirmed follows of one quizmaster (saved searches naming its slug), keyset-paged by id (follows_quizmaster_idx). */
export async function quizmasterFollowers(db: Db, slug: string, after: string, limit: number): Promise<Array<{ id: string }>> {
  return db.all<{ id: string }>(sql`
    SELECT id FROM follows
    WHERE (filters ->> '$.quizmaster') = ${slug} AND confirmed_at IS NOT NULL AND id > ${after}
    ORDER BY id LIMIT ${limit}`);
}

export interface QuizmasterNews {
  name: string;
  slug: string;
  place_name: string;
  venue_name: string;
  venue_slug: string;
  city: string;
  city_slug: string;
  is_public: number;
}

/** The profile and the place of a "leder nu quiz på" mail. */
export async function quizmasterNews(db: Db, quizmasterId: string, locationId: string): Promise<QuizmasterNews | null> {
  const [row] = await db.all<QuizmasterNews>(sql`
    SELECT p.name, p.slug, l.name AS place_name, v.name AS venue_name, v.slug AS venue_slug, l.city, l.city_slug, v.is_public
    FROM quizmasters p CROSS JOIN locations l CROSS JOIN venues v ON v.id = l.venue_id
    WHERE p.id = ${quizmasterId} AND l.id = ${locationId}`);
  return row ?? null;
}

/** Confirmed follows of a place with "Veckans resultat" on and a push subscription (issue 46), at most `limit`. */
export async function resultsPushFollowIds(db: Db, locationId: string, limit = 1000): Promise<string[]> {
  const rows = await db.all<{ id: string }>(sql`
    SELECT f.id AS id FROM follows f
    WHERE f.kind = 'place' AND f.location_id = ${locationId} AND f.results = 1 AND f.confirmed_at IS NOT NULL
      AND EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.follow_id = f.id)
    LIMIT ${limit}`);
  return rows.map((r) => r.id);
}

/** "Veckans resultat" in the digest (issue 46): the winners (rank 1, visible teams) of a place's nights between two dates. */
export async function winnersAtPlace(db: Db, locationId: string, from: string, to: string): Promise<Array<{ date: string; team: string }>> {
  return db.all<{ date: string; team: string }>(sql`
    SELECT n.date AS date, t.name AS team
    FROM result_nights n CROSS JOIN results r ON r.quiz_id = n.quiz_id AND r.rank = 1 CROSS JOIN teams t ON t.id = r.team_id
    WHERE n.location_id = ${locationId} AND n.date BETWEEN ${from} AND ${to} AND t.hidden_at IS NULL
    ORDER BY n.date, t.name_key LIMIT 20`);
}
