/** Every read and raw statement of the quizmaster profiles (issue 48). */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  quizmasterAnnouncements,
  quizmasterAssignments,
  quizmasterInvitations,
  quizmasterInviteStops,
  quizmasterLinks,
  quizmasters,
  type QuizmasterRow,
} from '../../db/schema';
import { TYPEAHEAD_MAX } from './contract';

export async function profileBySlug(db: Db, slug: string): Promise<QuizmasterRow | null> {
  const [row] = await db.select().from(quizmasters).where(eq(quizmasters.slug, slug)).limit(1);
  return row ?? null;
}

export async function profileById(db: Db, id: string): Promise<QuizmasterRow | null> {
  const [row] = await db.select().from(quizmasters).where(eq(quizmasters.id, id)).limit(1);
  return row ?? null;
}

export async function profileOfUser(db: Db, userId: string): Promise<QuizmasterRow | null> {
  const [row] = await db.select().from(quizmasters).where(eq(quizmasters.userId, userId)).limit(1);
  return row ?? null;
}

/** Profiles whose normalised name starts with `prefix` (a range of quizmasters_name_key_idx), at most TYPEAHEAD_MAX. */
export function profilesByPrefix(db: Db, prefix: string): Promise<QuizmasterRow[]> {
  return db.all<QuizmasterRow>(sql`
    SELECT id, name, name_key AS nameKey, slug, bio, photo_key AS photoKey, user_id AS userId, created_by AS createdBy,
      created_at AS createdAt, updated_at AS updatedAt
    FROM quizmasters WHERE name_key >= ${prefix} AND name_key < ${`${prefix}\uffff`} ORDER BY name_key LIMIT ${TYPEAHEAD_MAX}`);
}

/** Profiles by normalised names (the free-text suggestions). */
export function profilesByNameKeys(db: Db, keys: string[]): Promise<QuizmasterRow[]> {
  if (!keys.length) return Promise.resolve([]);
  return db.all<QuizmasterRow>(sql`
    SELECT p.id, p.name, p.name_key AS nameKey, p.slug, p.bio, p.photo_key AS photoKey, p.user_id AS userId, p.created_by AS createdBy,
      p.created_at AS createdAt, p.updated_at AS updatedAt
    FROM json_each(${JSON.stringify([...new Set(keys)])}) j CROSS JOIN quizmasters p ON p.name_key = j.value`);
}

/** The owner's series and single quizzes that have a free-text quizmaster and no profile link: one row per unit. */
export function unlinkedFreeText(db: Db, userId: string): Promise<Array<{ quizId: string; unitKey: string; text: string }>> {
  return db.all(sql`
    SELECT min(q.id) AS quizId, coalesce(q.recurrence_id, q.id) AS unitKey, q.quizmaster AS text
    FROM venues v CROSS JOIN locations l ON l.venue_id = v.id CROSS JOIN quizzes q ON q.location_id = l.id
    WHERE v.user_id = ${userId} AND q.quizmaster IS NOT NULL AND q.quizmaster != ''
      AND NOT EXISTS (SELECT 1 FROM quizmaster_links k WHERE k.unit_key = coalesce(q.recurrence_id, q.id))
    GROUP BY coalesce(q.recurrence_id, q.id), q.quizmaster
    LIMIT 200`);
}

export interface UpcomingRow {
  id: string;
  date: string;
  startTime: string | null;
  title: string | null;
  description: string | null;
  category: string | null;
  theme: string | null;
  quizmaster: string | null;
  teamSize: number | null;
  price: number | null;
  isRecurring: number;
  recurrencePattern: 'weekly' | 'biweekly' | null;
  isCancelled: number;
  language: 'sv' | 'en' | 'both';
  lId: string;
  lName: string;
  lAddress: string;
  lCity: string;
  lCitySlug: string;
  lPhone: string | null;
  lWebsite: string | null;
  lLat: number | null;
  lLng: number | null;
  vId: string;
  vName: string;
  vSlug: string;
  vDescription: string | null;
  vWebsite: string | null;
  house: number;
}

/**
 * The next occurrence of each series and each single quiz linked to the profile, at public businesses, from
 * `today`: per link one seek (quizzes_recurrence_idx for a series, the primary key for a single quiz) and its
 * place and business by key. At most `limit` links are read.
 */
export function upcomingOfProfile(db: Db, quizmasterId: string, today: string, houseEmail: string, limit: number): Promise<UpcomingRow[]> {
  return db.all<UpcomingRow>(sql`
    SELECT q.id AS id, q.date AS date, q.start_time AS startTime, q.title AS title, q.description AS description,
      q.category AS category, q.theme AS theme, q.quizmaster AS quizmaster, q.team_size AS teamSize, q.price AS price,
      q.is_recurring AS isRecurring, q.recurrence_pattern AS recurrencePattern, q.is_cancelled AS isCancelled, q.language AS language,
      l.id AS lId, l.name AS lName, l.address AS lAddress, l.city AS lCity, l.city_slug AS lCitySlug, l.phone AS lPhone,
      l.website AS lWebsite, l.latitude AS lLat, l.longitude AS lLng,
      v.id AS vId, v.name AS vName, v.slug AS vSlug, v.description AS vDescription, v.website AS vWebsite,
      (v.user_id = (SELECT id FROM users WHERE email = ${houseEmail})) AS house
    FROM (SELECT unit_key, location_id, venue_id FROM quizmaster_links WHERE quizmaster_id = ${quizmasterId} LIMIT ${limit}) k
      CROSS JOIN quizzes q ON q.id = coalesce(
        (SELECT q2.id FROM quizzes q2 WHERE q2.recurrence_id = k.unit_key AND q2.date >= ${today} ORDER BY q2.date LIMIT 1), k.unit_key)
      CROSS JOIN locations l ON l.id = q.location_id
      CROSS JOIN venues v ON v.id = l.venue_id
    WHERE q.date >= ${today} AND v.is_public = 1
    ORDER BY q.date, q.start_time, q.id`);
}

/** Links a series (or single quiz) to a profile, replacing its earlier one; a changed profile drops the old assignments. */
export function linkStatements(db: Db, link: { unitKey: string; quizmasterId: string; locationId: string; venueId: string }, nowIso: string) {
  return [
    db
      .insert(quizmasterLinks)
      .values({ ...link, createdAt: nowIso, updatedAt: nowIso })
      .onConflictDoUpdate({
        target: quizmasterLinks.unitKey,
        set: { quizmasterId: link.quizmasterId, locationId: link.locationId, venueId: link.venueId, updatedAt: nowIso },
      }),
    db
      .delete(quizmasterAssignments)
      .where(and(eq(quizmasterAssignments.unitKey, link.unitKey), sql`${quizmasterAssignments.quizmasterId} != ${link.quizmasterId}`)),
  ];
}

/** Removes a unit's link and with it every assignment for the unit. */
export function unlinkStatements(db: Db, unitKey: string) {
  return [
    db.delete(quizmasterLinks).where(eq(quizmasterLinks.unitKey, unitKey)),
    db.delete(quizmasterAssignments).where(eq(quizmasterAssignments.unitKey, unitKey)),
  ];
}

export async function linkOf(db: Db, unitKey: string) {
  const [row] = await db.select().from(quizmasterLinks).where(eq(quizmasterLinks.unitKey, unitKey)).limit(1);
  return row ?? null;
}

export async function invitationById(db: Db, id: string) {
  const [row] = await db.select().from(quizmasterInvitations).where(eq(quizmasterInvitations.id, id)).limit(1);
  return row ?? null;
}

export async function assignmentsOfUnit(db: Db, unitKey: string) {
  return db.select().from(quizmasterAssignments).where(eq(quizmasterAssignments.unitKey, unitKey));
}

export async function inviteStopped(db: Db, email: string): Promise<boolean> {
  const rows = await db.select({ email: quizmasterInviteStops.email }).from(quizmasterInviteStops).where(eq(quizmasterInviteStops.email, email)).limit(1);
  return rows.length > 0;
}

export async function venueNameOf(db: Db, venueId: string): Promise<{ name: string } | null> {
  const [row] = await db.all<{ name: string }>(sql`SELECT name FROM venues WHERE id = ${venueId}`);
  return row ?? null;
}

/** Sets the profile's account, only while it is unclaimed or already this account's (the claim of claim()). */
export function claimProfileStatement(db: Db, quizmasterId: string, userId: string, nowIso: string) {
  return db
    .update(quizmasters)
    .set({ userId, updatedAt: nowIso })
    .where(and(eq(quizmasters.id, quizmasterId), sql`(${quizmasters.userId} IS NULL OR ${quizmasters.userId} = ${userId})`));
}

/** Claims the announcement of a profile at a place: changes a row only the first time (then mail the followers). */
export function claimAnnouncement(db: Db, quizmasterId: string, locationId: string) {
  return db.insert(quizmasterAnnouncements).values({ quizmasterId, locationId }).onConflictDoNothing();
}

/** The highest rowid of quizmasters (the sitemap's number of children). */
export async function profileRowidCeiling(db: Db): Promise<number> {
  const [row] = await db.all<{ n: number | null }>(sql`SELECT MAX(rowid) AS n FROM quizmasters`);
  return row?.n ?? 0;
}

/** Profiles with rowid in [from, to] that lead at least one series or quiz (a primary-key range; one link probe each). */
export function profileRange(db: Db, from: number, to: number): Promise<Array<{ slug: string; updatedAt: string }>> {
  return db.all(sql`
    SELECT p.slug AS slug, p.updated_at AS updatedAt FROM quizmasters p
    WHERE p.rowid BETWEEN ${from} AND ${to} AND EXISTS (SELECT 1 FROM quizmaster_links k WHERE k.quizmaster_id = p.id)
    ORDER BY p.rowid`);
}

/** A quiz id for `id`: the quiz itself, or one occurrence of the series with that recurrence_id (two indexed probes). */
export async function quizIdOf(db: Db, id: string): Promise<string | null> {
  const [row] = await db.all<{ id: string }>(sql`
    SELECT id FROM quizzes WHERE id = ${id}
    UNION ALL SELECT * FROM (SELECT id FROM quizzes WHERE recurrence_id = ${id} LIMIT 1)
    LIMIT 1`);
  return row?.id ?? null;
}
