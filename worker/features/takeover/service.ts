/**
 * Takeover of unclaimed businesses (spec 02 §2.9, §4.6; 01 §2). Unclaimed = owned by the house account
 * (config.houseAccountEmail). The move is ONE conditional UPDATE (…WHERE id = ? AND user_id = house) in
 * one batch with the data-version bump; exactly one row must change, so of two concurrent claimants
 * exactly one wins and the other gets 409 with an empty account.
 */
import { and, eq } from 'drizzle-orm';
import { type BatchStatement, changes } from '../../db/batch';
import type { Db } from '../../db/client';
import { profiles, userRoles, venues } from '../../db/schema';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { Deps } from '../../ports/deps';
import { type OutboxQueue, withNotices } from '../../ports/mailer';
import { TAKEOVER_NOT_FOUND_MESSAGE, TAKEOVER_TAKEN_MESSAGE, type TakeoverResult, type TakeoverVenueInfo } from './contract';
import { OWNER_EMAIL_NOTE_KEY, ownerEmailNotes, TAKEOVER_NOTICE_KEY, takeoverNotices } from './mail';
import {
  findHouseUserId,
  findUser,
  findVenue,
  hasProfile,
  rolesOf,
  superadminEmails,
  takeoverIssueRows,
  takeoverPayloadsOf,
  venueCounts,
  venueOwnedBy,
} from './queries';

/** `mailQueue`: where the notices' deliveries are enqueued (Deps.mailQueue; a capturing fake in tests). */
type TakeoverDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'> & { mailQueue: OutboxQueue };

/** Send-key prefixes of the superadmins' notices, for the nightly mail-redeliver sweep (worker/jobs/owner-mail.ts). */
export const TAKEOVER_MAIL_KEYS = [TAKEOVER_NOTICE_KEY, OWNER_EMAIL_NOTE_KEY] as const;

/**
 * A business takeover may name or act on (issue 26.8): hidden ones (is_public = 0) are unknown, 404 like
 * a missing id, except to their own owner.
 */
function visibleTo<V extends { isPublic: boolean; userId: string }>(venue: V | null, userId: string | null): V | null {
  return venue && (venue.isPublic || venue.userId === userId) ? venue : null;
}

export async function getTakeoverInfo(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { venueId: string }): Promise<TakeoverVenueInfo> {
  const { db } = deps;
  const { venueId } = input;
  const opts = { today: deps.clock.today(), houseEmail: deps.config.houseAccountEmail };
  const venue = visibleTo(await findVenue(db, venueId), null);
  if (!venue) throw notFound(TAKEOVER_NOT_FOUND_MESSAGE);
  const houseId = await findHouseUserId(db, opts.houseEmail);
  const counts = await venueCounts(db, venueId, opts.today);
  return { id: venue.id, name: venue.name, ...counts, claimable: !!houseId && venue.userId === houseId };
}

/** The statements that move a business from the house account to `userId` (exactly 1 row or none). */
function moveStatements(db: Db, venueId: string, userId: string, houseId: string, nowIso: string) {
  return [
    db
      .update(venues)
      .set({ userId, updatedAt: nowIso })
      .where(and(eq(venues.id, venueId), eq(venues.userId, houseId)))
      .returning({ id: venues.id }),
    // The new owner is a venue owner with a profile even if a previous step was interrupted.
    db.insert(userRoles).values({ userId, role: 'admin' }).onConflictDoNothing(),
    db.insert(profiles).values({ userId }).onConflictDoNothing(),
    bumpDataVersion(db),
  ] as const;
}

/** Moves the business to the user with the superadmins' notices in the same batch; true when this call moved it. */
async function moveWithNotices(
  deps: TakeoverDeps,
  venue: { id: string; name: string },
  user: { id: string; email: string },
  houseId: string,
  counts: { placesCount: number; quizzesCount: number },
): Promise<boolean> {
  const at = deps.clock.now().toISOString();
  const to = await superadminEmails(deps.db, deps.config.superadminEmails);
  // Written only where the move happened (a concurrent claimant who lost writes nothing).
  const notices = takeoverNotices(
    deps.mailer,
    deps.config,
    to,
    { email: user.email, userId: user.id, venueId: venue.id, venueName: venue.name, ...counts, at },
    venueOwnedBy(venue.id, user.id),
  );
  const {
    results: [moved],
  } = await withNotices(deps.db, moveStatements(deps.db, venue.id, user.id, houseId, at), notices, deps.mailQueue);
  return changes(moved) === 1;
}

export async function takeoverVenue(deps: TakeoverDeps, input: { userId: string; email: string; venueId: string }): Promise<TakeoverResult> {
  const { db } = deps;
  const today = deps.clock.today();
  const user = await findUser(db, { id: input.userId });
  if (!user?.emailVerifiedAt) throw forbidden('Verifiera din e-postadress innan du tar över en verksamhet.');
  const venue = visibleTo(await findVenue(db, input.venueId), input.userId);
  if (!venue) throw notFound(TAKEOVER_NOT_FOUND_MESSAGE);
  const houseId = await findHouseUserId(db, deps.config.houseAccountEmail);

  if (venue.userId !== input.userId) {
    if (!houseId || venue.userId !== houseId || houseId === input.userId) throw conflict(TAKEOVER_TAKEN_MESSAGE);
    const counts = await venueCounts(db, venue.id, today);
    if (await moveWithNotices(deps, venue, { id: input.userId, email: user.email }, houseId, counts)) {
      return { venue: { id: venue.id, name: venue.name, userId: input.userId }, ...counts };
    }
    // Someone else won between our read and the write; re-read to answer truthfully.
    const now = await findVenue(db, venue.id);
    if (now?.userId !== input.userId) throw conflict(TAKEOVER_TAKEN_MESSAGE);
  }
  // Already the caller's (a repeated call after success): idempotent, no second notice.
  const counts = await venueCounts(db, venue.id, today);
  return { venue: { id: venue.id, name: venue.name, userId: input.userId }, ...counts };
}

export interface FixTakeoverResult {
  success: boolean;
  message: string;
  fixed: string[];
  errors: string[];
}

/**
 * fix-takeover-issues (spec 02 §7): completes a half-done takeover. Without venueId, the business comes
 * from the user's latest used verification token carrying { takeoverVenue }.
 */
export async function fixTakeoverIssues(deps: TakeoverDeps, input: { userId?: string; email?: string; venueId?: string }): Promise<FixTakeoverResult> {
  const { db } = deps;
  const today = deps.clock.today();
  const fixed: string[] = [];
  const errors: string[] = [];
  const done = (): FixTakeoverResult => {
    const success = errors.length === 0;
    return { success, message: success ? 'Takeover-problem fixade!' : 'Kunde inte fixa alla problem', fixed, errors };
  };
  const user = await findUser(db, input.userId ? { id: input.userId } : { email: input.email });
  if (!user) {
    errors.push('Användaren hittades inte.');
    return done();
  }
  if (!user.emailVerifiedAt) errors.push('Användaren har inte verifierat sin e-postadress.');

  const roles = await rolesOf(db, user.id);
  if (!roles.includes('admin')) {
    await db.insert(userRoles).values({ userId: user.id, role: 'admin' }).onConflictDoNothing();
    fixed.push('Rollen verksamhetsägare lades till.');
  }
  if (!(await hasProfile(db, user.id))) {
    await db.insert(profiles).values({ userId: user.id }).onConflictDoNothing();
    fixed.push('Profilen skapades.');
  }

  const venueId = input.venueId ?? (await takeoverVenueOfUser(db, user.id));
  if (!venueId) {
    errors.push('Ingen verksamhet att ta över angavs eller hittades för användaren.');
    return done();
  }
  const venue = await findVenue(db, venueId);
  if (!venue) {
    errors.push(TAKEOVER_NOT_FOUND_MESSAGE);
    return done();
  }
  if (venue.userId === user.id) return done();
  const houseId = await findHouseUserId(db, deps.config.houseAccountEmail);
  if (!houseId || venue.userId !== houseId) {
    errors.push('Verksamheten ägs redan av en annan användare.');
    return done();
  }
  if (!user.emailVerifiedAt) return done();
  const counts = await venueCounts(db, venue.id, today);
  if (await moveWithNotices(deps, venue, user, houseId, counts)) {
    fixed.push(`Verksamheten ${venue.name} flyttades till ${user.email}.`);
  } else {
    errors.push('Verksamheten ägs redan av en annan användare.');
  }
  return done();
}

/** takeoverVenue of the user's latest used verification token, if any. */
async function takeoverVenueOfUser(db: Db, userId: string): Promise<string | null> {
  const rows = await takeoverPayloadsOf(db, userId, 5);
  for (const r of rows) {
    try {
      const v = (JSON.parse(r.payload ?? '{}') as { takeoverVenue?: unknown }).takeoverVenue;
      if (typeof v === 'string' && v) return v;
    } catch {
      /* ignore malformed payloads */
    }
  }
  return null;
}

export interface TakeoverIssue {
  userId: string;
  email: string;
  venueId: string;
  venueName: string | null;
  problems: string[];
}

/**
 * Half-done takeovers for the superadmin panel: verified users whose verification carried a
 * takeoverVenue while that business is still on the house account (or gone), or who lack role/profile.
 */
export async function listTakeoverIssues(deps: Pick<Deps, 'db' | 'config'>, input: { limit?: number } = {}): Promise<TakeoverIssue[]> {
  const { db } = deps;
  const houseEmail = deps.config.houseAccountEmail;
  const limit = input.limit ?? 50;
  const houseId = (await findHouseUserId(db, houseEmail)) ?? '';
  const rows = await takeoverIssueRows(db, houseId, limit);
  const seen = new Set<string>();
  const out: TakeoverIssue[] = [];
  for (const r of rows) {
    const key = `${r.user_id}:${r.venue_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const problems: string[] = [];
    if (!r.venue_name) problems.push('Kunde inte hitta venue');
    else if (r.owner === houseId) problems.push('Venue behöver tas över');
    if (!r.has_role) problems.push('Rollen verksamhetsägare saknas');
    if (!r.has_profile) problems.push('Profil saknas');
    out.push({ userId: r.user_id, email: r.email, venueId: r.venue_id, venueName: r.venue_name, problems });
  }
  return out;
}

// ---- Thin entry points for other features (they may import only this file). ----

/** Id of the house account (owner of unclaimed businesses), or null when it does not exist. */
export function houseAccountId(deps: Pick<Deps, 'db'>, input: { houseEmail: string }): Promise<string | null> {
  return findHouseUserId(deps.db, input.houseEmail);
}

/**
 * Creates a business with the superadmins' notes of the owner e-mail given in the add-business dialog (spec 02 §5;
 * kept in these notes because the data model has no column for it): `statements` (the business's insert) and the
 * notes are ONE batch. Returns the results of `statements`.
 */
export async function withOwnerEmailNotes(
  deps: Pick<Deps, 'db' | 'config' | 'mailer'> & { mailQueue: OutboxQueue },
  statements: readonly BatchStatement[],
  input: { venueId: string; venueName: string; ownerEmail: string; createdBy: string },
): Promise<unknown[]> {
  const to = await superadminEmails(deps.db, deps.config.superadminEmails);
  return (await withNotices(deps.db, statements, ownerEmailNotes(deps.mailer, deps.config, to, input), deps.mailQueue)).results;
}
