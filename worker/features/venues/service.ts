/**
 * Businesses, places and the owner's contact profile (spec 02 §2.1–2.5, §5, §6). Every owned object
 * goes through worker/lib/authz.ts; a superadmin may act on any business. Writes that change public
 * data bump the public-data version in the same batch.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locations, profiles, userRoles, venues, type VenueRow } from '../../db/schema';
import { authorizeLocation, authorizeVenue, isSuperadmin, requireActor, type Actor } from '../../lib/authz';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, foundOr404, unauthorized } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { onUniqueRace } from '../../lib/unique-race';
import { slugify } from '../../lib/slug';
import type { Deps } from '../../ports/deps';
import {
  MAX_PLACES_PER_VENUE,
  type DashboardResponse,
  type LocationData,
  type OwnerVenue,
  type ProfileResponse,
  type RegisterVenueData,
  type UpdateVenueData,
} from './contract';
import { deleteGuarded, purchaseGuarded } from '../promotion/service';
import { followerCountsByPlace } from '../follows/service';
import { countQuizzesAt, insertPlaceWithRoom, placesWithCounts, profileOf, slugsLike, venuesOfUser } from './queries';

/** What the business/place/profile services need: the database and the clock (today, and the instant stamped on writes). */
export type VenueDeps = Pick<Deps, 'db' | 'clock'>;

export const NOT_SIGNED_IN_CREATE = 'Du måste vara inloggad för att skapa en verksamhet';

export function toOwnerVenue(v: VenueRow): OwnerVenue {
  return {
    id: v.id,
    userId: v.userId,
    name: v.name,
    slug: v.slug,
    description: v.description,
    address: v.address,
    city: v.city,
    phone: v.phone,
    website: v.website,
    isPublic: v.isPublic,
    createdAt: v.createdAt,
  };
}

// ---------------------------------------------------------------- slugs

/** True when `slug` is `base` or `base-N`, i.e. still derived from the same name. */
function slugMatchesBase(slug: string, base: string): boolean {
  return slug === base || new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`).test(slug);
}

/** A free slug for a business name: `base`, else `base-2`, `base-3`, … */
export async function uniqueVenueSlug(db: Db, name: string): Promise<string> {
  const base = slugify(name) || 'verksamhet';
  const taken = new Set(await slugsLike(db, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Runs a write that uses a fresh slug. Two requests can pick the same free slug at once; the unique
 * index then fails one batch as a whole, and it is retried once with a random suffix (issue 43.2).
 */
async function withFreshSlug<T>(db: Db, name: string, write: (slug: string) => Promise<T>): Promise<T> {
  const slug = await uniqueVenueSlug(db, name);
  return onUniqueRace(
    () => write(slug),
    ['venues.slug'],
    () => write(`${slug}-${newId().slice(0, 6)}`),
  );
}

/** The 404 texts of authz.ts, for a row deleted between the check and the write. */
const VENUE_GONE = 'Verksamheten hittades inte.';
const LOCATION_GONE = 'Platsen hittades inte.';
const PLACES_FULL = `En verksamhet kan ha högst ${MAX_PLACES_PER_VENUE} platser.`;

/** Owners get the admin role with their first business (new accounts may not have it yet). */
function grantAdmin(db: Db, actor: NonNullable<Actor>) {
  return db.insert(userRoles).values({ userId: actor.id, role: 'admin' }).onConflictDoNothing();
}

// ---------------------------------------------------------------- dashboard

/**
 * The owner dashboard: the requested business (by id; owner or superadmin) or the signed-in user's
 * first business, its places with quiz counts, and whether any quiz exists.
 */
export async function getDashboard(deps: VenueDeps, actor: Actor, input: { venueId?: string } = {}): Promise<DashboardResponse> {
  const { db } = deps;
  const { venueId } = input;
  const today = deps.clock.today();
  requireActor(actor);
  const own = await venuesOfUser(db, actor.id);
  const venue = venueId ? await authorizeVenue(db, actor, venueId) : (own[0] ?? null);
  const counted = venue ? await placesWithCounts(db, venue.id, today) : [];
  const followers = await followerCountsByPlace(deps, { locationIds: counted.map((p) => p.id) });
  const places = counted.map((p) => ({ ...p, followers: followers.get(p.id) ?? 0 }));
  return {
    venue: venue ? toOwnerVenue(venue) : null,
    places,
    hasQuizzes: places.some((p) => p.totalQuizzes > 0),
    ownVenues: own.map((v) => ({ id: v.id, name: v.name })),
    viewingAsSuperadmin: !!venue && venue.userId !== actor.id && isSuperadmin(actor),
  };
}

// ---------------------------------------------------------------- businesses

/** The dashboard's create-business dialog: name only; address and city stay null (spec 02 §3). */
export async function createVenue(deps: Pick<Deps, 'db'>, actor: Actor, input: { name: string }): Promise<OwnerVenue> {
  const { db } = deps;
  if (!actor) throw unauthorized(NOT_SIGNED_IN_CREATE);
  const id = newId();
  // The row is read back in the same batch (issue 27.4: a second read could find it deleted).
  const [inserted] = await withFreshSlug(db, input.name, (slug) =>
    db.batch([
      db.insert(venues).values({ id, userId: actor.id, name: input.name, slug, isPublic: true }).returning(),
      grantAdmin(db, actor),
      bumpDataVersion(db),
    ]),
  );
  return toOwnerVenue(foundOr404(inserted[0], VENUE_GONE));
}

/** The /admin/create-venue form: a business and its first place in one batch. */
export async function registerVenue(deps: Pick<Deps, 'db'>, actor: Actor, input: RegisterVenueData): Promise<{ venue: OwnerVenue; locationId: string }> {
  const { db } = deps;
  if (!actor) throw unauthorized(NOT_SIGNED_IN_CREATE);
  const id = newId();
  const locationId = newId();
  const [inserted] = await withFreshSlug(db, input.name, (slug) =>
    db.batch([
      db
        .insert(venues)
        .values({
          id,
          userId: actor.id,
          name: input.name,
          slug,
          address: input.address,
          city: input.city,
          phone: input.phone,
          description: input.description,
          isPublic: true,
        })
        .returning(),
      db.insert(locations).values({
        id: locationId,
        venueId: id,
        name: input.name,
        address: input.address,
        city: input.city,
        citySlug: slugify(input.city),
        phone: input.phone,
      }),
      grantAdmin(db, actor),
      bumpDataVersion(db),
    ]),
  );
  return { venue: toOwnerVenue(foundOr404(inserted[0], VENUE_GONE)), locationId };
}

/**
 * Freshness (issue 20 §3) on a save of the 'Verksamhet' tab, in the same UPDATE: the owner's own save, and
 * re-publishing by anyone (public flag back on), is a confirmation — "Senast bekräftad" now, the nightly
 * steps start over and `stale_hidden_at` is cleared, so the dashboard no longer says "hidden" and the next
 * monthly step does not hide it again. The public flag is then exactly what was saved (an owner who keeps it
 * off has chosen 'not public'; a later confirmation will not publish it). A superadmin's edit of someone
 * else's business that leaves it as it was is not a confirmation and keeps the freshness state.
 */
function freshnessOnSave(venue: VenueRow, actor: Actor, isPublic: boolean, now: Date) {
  const republish = isPublic && !venue.isPublic;
  if (!republish && venue.userId !== actor?.id) return {};
  return { confirmedAt: now.toISOString(), freshnessStage: 0, staleHiddenAt: null };
}

/** The 'Verksamhet' tab. A new name gets a new slug unless the old one already derives from it. */
export async function updateVenue(deps: VenueDeps, actor: Actor, input: UpdateVenueData & { venueId: string }): Promise<OwnerVenue> {
  const { db } = deps;
  const { venueId } = input;
  const now = deps.clock.now();
  const venue = await authorizeVenue(db, actor, venueId);
  const base = slugify(input.name) || 'verksamhet';
  const values = {
    name: input.name,
    description: input.description,
    address: input.address,
    city: input.city,
    phone: input.phone,
    website: input.website,
    isPublic: input.isPublic,
    updatedAt: now.toISOString(),
    ...freshnessOnSave(venue, actor, input.isPublic, now),
  };
  // RETURNING reads the saved row in the same statement: deleted since the check → 404 (issue 27.4).
  const [updated] = slugMatchesBase(venue.slug, base)
    ? await db.batch([db.update(venues).set(values).where(eq(venues.id, venueId)).returning(), bumpDataVersion(db)])
    : await withFreshSlug(db, input.name, (slug) =>
        db.batch([
          db
            .update(venues)
            .set({ ...values, slug })
            .where(eq(venues.id, venueId))
            .returning(),
          bumpDataVersion(db),
        ]),
      );
  return toOwnerVenue(foundOr404(updated[0], VENUE_GONE));
}

// ---------------------------------------------------------------- places

function locationValues(input: LocationData) {
  return {
    name: input.name,
    address: input.address,
    city: input.city,
    citySlug: slugify(input.city),
    phone: input.phone,
    website: input.website,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
  };
}

export async function createLocation(deps: Pick<Deps, 'db'>, actor: Actor, input: LocationData & { venueId: string }) {
  const { db } = deps;
  const { venueId } = input;
  await authorizeVenue(db, actor, venueId);
  const id = newId();
  // Guarded in the statement itself: parallel requests cannot pass a count read first (issue 43.1).
  // Guarded in the statement itself: parallel requests cannot pass a count read first (issue 43.1).
  const [inserted] = await db.batch([insertPlaceWithRoom(db, { id, venueId, ...locationValues(input) }, MAX_PLACES_PER_VENUE), bumpDataVersion(db)]);
  if (!inserted[0]) {
    // Either the business is full or it was deleted in between (its places went with it: room again).
    await authorizeVenue(db, actor, venueId);
    throw conflict(PLACES_FULL);
  }
  return inserted[0];
}

export async function updateLocation(deps: VenueDeps, actor: Actor, input: LocationData & { locationId: string }) {
  const { db } = deps;
  const { locationId } = input;
  const { location } = await authorizeLocation(db, actor, locationId);
  const values = locationValues(input);
  const write = () =>
    db.batch([
      db
        .update(locations)
        .set({ ...values, updatedAt: deps.clock.now().toISOString() })
        .where(eq(locations.id, locationId))
        .returning(),
      bumpDataVersion(db),
    ]);
  // Issue 26.2: a slot is bought in a city; the place's quizzes must not leave it while an order is open or paid.
  const [updated] = values.citySlug !== location.citySlug ? await purchaseGuarded(db, 'city', 'location', { locationId }, deps.clock, write) : await write();
  return foundOr404(updated[0], LOCATION_GONE);
}

/** Deletes a place; its quizzes, promotions and slot claims go with it (foreign keys, README). */
export async function deleteLocation(deps: VenueDeps, actor: Actor, input: { locationId: string }): Promise<{ deletedQuizzes: number }> {
  const { db, clock } = deps;
  const { locationId } = input;
  await authorizeLocation(db, actor, locationId);
  const n = await countQuizzesAt(db, locationId);
  await deleteGuarded(db, 'location', { locationId }, clock, () => db.batch([db.delete(locations).where(eq(locations.id, locationId)), bumpDataVersion(db)]));
  return { deletedQuizzes: n };
}

// ---------------------------------------------------------------- contact profile

export async function getProfile(deps: Pick<Deps, 'db'>, actor: Actor): Promise<ProfileResponse> {
  const { db } = deps;
  requireActor(actor);
  const row = await profileOf(db, actor.id);
  return { firstName: row?.firstName ?? null, lastName: row?.lastName ?? null, phone: row?.phone ?? null };
}

export async function saveProfile(deps: VenueDeps, actor: Actor, input: ProfileResponse): Promise<ProfileResponse> {
  const { db } = deps;
  requireActor(actor);
  const values = { firstName: input.firstName, lastName: input.lastName, phone: input.phone };
  await db
    .insert(profiles)
    .values({ userId: actor.id, ...values })
    .onConflictDoUpdate({ target: profiles.userId, set: { ...values, updatedAt: deps.clock.now().toISOString() } });
  return values;
}
