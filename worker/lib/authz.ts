/**
 * The one authorization helper. Every read or write of an owned object (business, place, quiz)
 * goes through it, so ownership rules live in one place (spec 02 §6):
 *   visitor → nothing owned; owner → only objects of businesses whose user_id is theirs;
 *   superadmin → everything.
 * Missing objects answer 404, someone else's 403.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { locations, quizzes, venues, type LocationRow, type QuizRow, type Role, type VenueRow } from '../db/schema';
import { forbidden, notFound, unauthorized } from './errors';

export type Actor = { id: string; email: string; roles: Role[] } | null;

export const isSuperadmin = (actor: Actor): boolean => !!actor?.roles.includes('superadmin');
export const isAdmin = (actor: Actor): boolean => !!actor && (actor.roles.includes('admin') || isSuperadmin(actor));

/** Throws 401 when no one is signed in; narrows the actor. */
export function requireActor(actor: Actor): asserts actor is NonNullable<Actor> {
  if (!actor) throw unauthorized();
}

/** Throws 401/403 unless the actor is a superadmin (spec 02 §8 texts). */
export function requireSuperadmin(actor: Actor): asserts actor is NonNullable<Actor> {
  if (!actor) throw unauthorized('No valid session found');
  if (!isSuperadmin(actor)) throw forbidden('User is not a superadmin');
}

export function canManageVenue(actor: Actor, venue: Pick<VenueRow, 'userId'>): boolean {
  return !!actor && (venue.userId === actor.id || isSuperadmin(actor));
}

function assertCanManage(actor: Actor, venue: Pick<VenueRow, 'userId'>): void {
  requireActor(actor);
  if (!canManageVenue(actor, venue)) throw forbidden();
}

export async function authorizeVenue(db: Db, actor: Actor, venueId: string): Promise<VenueRow> {
  requireActor(actor);
  const [venue] = await db.select().from(venues).where(eq(venues.id, venueId)).limit(1);
  if (!venue) throw notFound('Verksamheten hittades inte.');
  assertCanManage(actor, venue);
  return venue;
}

export async function authorizeLocation(db: Db, actor: Actor, locationId: string): Promise<{ location: LocationRow; venue: VenueRow }> {
  requireActor(actor);
  const [row] = await db
    .select({ location: locations, venue: venues })
    .from(locations)
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(eq(locations.id, locationId))
    .limit(1);
  if (!row) throw notFound('Platsen hittades inte.');
  assertCanManage(actor, row.venue);
  return row;
}

export async function authorizeQuiz(db: Db, actor: Actor, quizId: string): Promise<{ quiz: QuizRow; location: LocationRow; venue: VenueRow }> {
  requireActor(actor);
  const row = await quizWithPlace(db, quizId);
  assertCanManage(actor, row.venue);
  return row;
}

/** A quiz with its place and business, or 404; no ownership check (callers that grant a right of their own). */
export async function quizWithPlace(db: Db, quizId: string): Promise<{ quiz: QuizRow; location: LocationRow; venue: VenueRow }> {
  const [row] = await db
    .select({ quiz: quizzes, location: locations, venue: venues })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(eq(quizzes.id, quizId))
    .limit(1);
  if (!row) throw notFound('Quizet hittades inte.');
  return row;
}
