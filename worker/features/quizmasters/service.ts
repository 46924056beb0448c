/**
 * Quizmaster profiles (issue 48): owners create and link profiles (typeahead, free-text suggestions, never
 * merged without a yes), invite a quizmaster by e-mail from a series, the quizmaster claims the profile and
 * edits their own bio and photo; the public profile page's data. Rules only: routes.ts is HTTP, queries.ts SQL.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { abortUnlessClaimed, claimLost, runBatch } from '../../db/batch';
import type { Db } from '../../db/client';
import { quizmasterAssignments, quizmasterInvitations, quizmasterInviteStops, quizmasters, type QuizmasterRow } from '../../db/schema';
import { authorizeQuiz, requireActor, type Actor } from '../../lib/authz';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, forbidden, invalidInput, notFound, rateLimited } from '../../lib/errors';
import { takeAttempt } from '../../lib/rate-limit';
import { newId } from '../../lib/ids';
import { unitKeyOf } from '../../lib/quizmaster-access';
import { isSpentError, linkKeys, requireLink, signLink, spendStatement } from '../../lib/signed-link';
import { slugify } from '../../lib/slug';
import { uniqueViolation } from '../../lib/unique-race';
import type { Deps } from '../../ports/deps';
import { enqueueQuizmasterNews } from '../follows/service';
import type { ListingQuiz } from '../listing/contract';
import { toListingQuiz } from '../listing/service';
import {
  INVITE_STOP_TTL_S,
  INVITE_TTL_S,
  INVITE_WINDOW_MS,
  INVITES_PER_ADDRESS_DAY,
  INVITES_PER_OWNER_DAY,
  nameKeyOf,
  PHOTO_BAD_TYPE,
  PHOTO_MAX_BYTES,
  PHOTO_SIDE,
  PHOTO_TOO_BIG,
  PHOTO_TOO_MANY_PIXELS,
  PHOTO_UNREADABLE,
  PHOTO_WEBP_TOO_LARGE,
  PROFILE_UPCOMING_MAX,
  type CreateQuizmasterData,
  type QuizmasterSuggestion,
  type QuizmasterSummary,
} from './contract';
import { inviteMail } from './mail';
import { imageDimensions, photoSvg, photoTarget, withinPixelLimit } from './photo';
import * as q from './queries';

export type QmDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>;

/** The R2 prefix of profile photos (IMPORTS bucket: it has no lifecycle rule; the cards bucket deletes after 30 days). */
export const PHOTO_PREFIX = 'quizmaster-photos/';

export function photoUrlOf(row: Pick<QuizmasterRow, 'slug' | 'photoKey'>): string | null {
  if (!row.photoKey) return null;
  return `/quizmaster-foto/${row.slug}?v=${encodeURIComponent(row.photoKey.slice(row.photoKey.lastIndexOf('/') + 1))}`;
}

export function toSummary(row: QuizmasterRow): QuizmasterSummary {
  return { id: row.id, name: row.name, slug: row.slug, bio: row.bio, photoUrl: photoUrlOf(row), claimed: !!row.userId };
}

// ---- owners ----

/** The quiz, its place and business for an owner route's `:id`: a quiz id or a series' id (authorizeQuiz's 401/403/404). */
async function authorizeUnit(db: Db, actor: Actor, id: string) {
  requireActor(actor);
  const quizId = (await q.quizIdOf(db, id)) ?? id;
  return authorizeQuiz(db, actor, quizId);
}

/** Typeahead: profiles whose name starts with what the owner typed (case and spaces aside). */
export async function searchProfiles(deps: Pick<Deps, 'db'>, actor: Actor, input: { q: string }): Promise<QuizmasterSummary[]> {
  requireActor(actor);
  const key = nameKeyOf(input.q);
  if (!key) return [];
  return (await q.profilesByPrefix(deps.db, key)).map(toSummary);
}

/** A new profile; its slug is the name's, with a number when taken (decided by the unique index, not a read). */
export async function createProfile(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, data: CreateQuizmasterData): Promise<QuizmasterSummary> {
  requireActor(actor);
  const base = slugify(data.name).slice(0, 80) || 'quizmaster';
  const now = deps.clock.now().toISOString();
  for (let n = 1; n <= 20; n++) {
    const slug = n === 1 ? base : `${base}-${n <= 5 ? n : Math.floor(Math.random() * 1e6)}`;
    try {
      const [row] = await deps.db
        .insert(quizmasters)
        .values({ id: newId(), name: data.name, nameKey: nameKeyOf(data.name), slug, bio: data.bio, createdBy: actor.id, createdAt: now, updatedAt: now })
        .returning();
      return toSummary(row!);
    } catch (err) {
      if (uniqueViolation(err) !== 'quizmasters.slug') throw err;
    }
  }
  throw conflict('Kunde inte skapa en unik adress för profilen. Försök igen.');
}

/** Links the quiz's series (or the single quiz) to a profile, or removes the link (null). Owner or superadmin. */
export async function linkQuizmaster(deps: Pick<Deps, 'db' | 'clock' | 'mailQueue'>, actor: Actor, input: { quizId: string; quizmasterId: string | null }) {
  const { quiz, location, venue } = await authorizeUnit(deps.db, actor, input.quizId);
  const unitKey = unitKeyOf(quiz);
  if (input.quizmasterId === null) {
    await runBatch(deps.db, [...q.unlinkStatements(deps.db, unitKey), bumpDataVersion(deps.db)]);
    return { quizmaster: null };
  }
  const profile = await q.profileById(deps.db, input.quizmasterId);
  if (!profile) throw invalidInput('Quizmastern finns inte.', [{ path: 'quizmasterId', message: 'Quizmastern finns inte.' }]);
  const now = deps.clock.now().toISOString();
  const [, , , announced] = await runBatch(deps.db, [
    ...q.linkStatements(deps.db, { unitKey, quizmasterId: profile.id, locationId: location.id, venueId: venue.id }, now),
    bumpDataVersion(deps.db),
    // The first link of this profile at this place: its followers hear "X leder nu quiz på Y" (once per place).
    q.claimAnnouncement(deps.db, profile.id, location.id),
  ]);
  if (announced! > 0 && venue.isPublic) await enqueueQuizmasterNews(deps, { quizmasterId: profile.id, slug: profile.slug, locationId: location.id });
  return { quizmaster: toSummary(profile) };
}

/** The quiz's linked profile and its assignments (the owner's series form). */
export async function quizQuizmaster(deps: Pick<Deps, 'db'>, actor: Actor, input: { quizId: string }) {
  const { quiz } = await authorizeUnit(deps.db, actor, input.quizId);
  const unitKey = unitKeyOf(quiz);
  const link = await q.linkOf(deps.db, unitKey);
  const profile = link ? await q.profileById(deps.db, link.quizmasterId) : null;
  const assigned = link ? (await q.assignmentsOfUnit(deps.db, unitKey)).some((a) => a.quizmasterId === link.quizmasterId) : false;
  return { quizmaster: profile ? toSummary(profile) : null, assigned };
}

/**
 * Free-text quizmasters on the owner's quizzes that equal an existing profile's name after normalising case and
 * spaces: offered for the owner to accept (linkQuizmaster), never linked here.
 */
export async function suggestions(deps: Pick<Deps, 'db'>, actor: Actor): Promise<QuizmasterSuggestion[]> {
  requireActor(actor);
  const units = await q.unlinkedFreeText(deps.db, actor.id);
  const profiles = await q.profilesByNameKeys(
    deps.db,
    units.map((u) => nameKeyOf(u.text)),
  );
  const byKey = new Map(profiles.map((p) => [p.nameKey, p]));
  return units.flatMap((u) => {
    const p = byKey.get(nameKeyOf(u.text));
    return p ? [{ quizId: u.quizId, text: u.text, profile: toSummary(p) }] : [];
  });
}

/** Removes the assignment of the quiz's series: the quizmaster loses the right to act for it at once. */
export async function removeAssignment(deps: Pick<Deps, 'db'>, actor: Actor, input: { quizId: string }) {
  const { quiz } = await authorizeUnit(deps.db, actor, input.quizId);
  await deps.db.delete(quizmasterAssignments).where(eq(quizmasterAssignments.unitKey, unitKeyOf(quiz)));
  return { ok: true };
}

/**
 * Invites a quizmaster by e-mail to claim the profile linked to the quiz's series: one invitation row and one
 * mail (outbox, send key per invitation). An address that used the mail's stop link is not mailed again; the
 * answer is the same (the owner learns nothing about the address).
 */
export async function invite(deps: QmDeps, actor: Actor, input: { quizId: string; email: string }) {
  const { quiz, venue } = await authorizeUnit(deps.db, actor, input.quizId);
  const unitKey = unitKeyOf(quiz);
  const link = await q.linkOf(deps.db, unitKey);
  if (!link) throw invalidInput('Välj en quizmaster för quizet först.', [{ path: 'quizmasterId', message: 'Välj en quizmaster för quizet först.' }]);
  const profile = (await q.profileById(deps.db, link.quizmasterId))!;
  if (profile.userId && profile.userId !== actor!.id) {
    // Already claimed: no mail needed, the owner assigns directly.
    await deps.db.insert(quizmasterAssignments).values({ unitKey, quizmasterId: profile.id, venueId: venue.id }).onConflictDoNothing();
    return { sent: false, assigned: true };
  }
  // Counted first (worker/lib/rate-limit.ts): per owner and per address, so no one is flooded with invitations.
  const now = deps.clock.now();
  const refuse = (ms: number) => rateLimited(`För många inbjudningar. Försök igen om ${Math.max(1, Math.ceil(ms / 3_600_000))} h.`, Math.ceil(ms / 1000));
  await takeAttempt(deps.db, `quizmaster-invite:${actor!.id}`, INVITES_PER_OWNER_DAY, INVITE_WINDOW_MS, now, refuse);
  await takeAttempt(deps.db, `quizmaster-invite-address:${input.email}`, INVITES_PER_ADDRESS_DAY, INVITE_WINDOW_MS, now, refuse);
  const stopped = await q.inviteStopped(deps.db, input.email);
  const id = newId();
  await deps.db.insert(quizmasterInvitations).values({ id, quizmasterId: profile.id, unitKey, venueId: venue.id, email: input.email, invitedBy: actor!.id });
  if (!stopped) {
    const claim = await signLink(deps.config.linkSigningSecret, 'quizmaster-invite', id, INVITE_TTL_S, now);
    const stop = await signLink(deps.config.linkSigningSecret, 'quizmaster-invite-stop', input.email, INVITE_STOP_TTL_S, now);
    await deps.mailer.sendOnce(
      inviteMail(input.email, {
        claim: `${deps.config.appUrl}/quizmaster-inbjudan?t=${encodeURIComponent(claim)}`,
        stop: `${deps.config.appUrl}/quizmaster-inbjudan/stopp?t=${encodeURIComponent(stop)}`,
      }),
      `quizmaster-invite:${id}`,
    );
  }
  return { sent: true, assigned: false };
}

// ---- the invitee ----

/** What the claim page shows: the profile's and the business's names. Verifies the link (not spent). */
export async function invitationOf(deps: Pick<Deps, 'db' | 'clock' | 'config'>, token: string | undefined) {
  const link = await requireLink(linkKeys(deps.config), token, 'quizmaster-invite', deps.clock.now());
  const inv = await q.invitationById(deps.db, link.s);
  if (!inv) throw notFound('Inbjudan finns inte längre.');
  const profile = await q.profileById(deps.db, inv.quizmasterId);
  const venue = await q.venueNameOf(deps.db, inv.venueId);
  if (!profile || !venue) throw notFound('Inbjudan finns inte längre.');
  return { invitation: inv, profile, venueName: venue.name, link };
}

/**
 * Claims the invited profile for the signed-in account: the link is spent, the profile's user set (only when
 * unclaimed or already this account's), the assignment made and the invitation marked, in one batch.
 */
export async function claim(deps: Pick<Deps, 'db' | 'clock' | 'config'>, actor: Actor, token: string | undefined): Promise<QuizmasterSummary> {
  requireActor(actor);
  const { invitation, profile, link } = await invitationOf(deps, token);
  const mine = await q.profileOfUser(deps.db, actor.id);
  if (mine && mine.id !== profile.id) throw conflict('Ditt konto har redan en annan quizmasterprofil.');
  const db = deps.db;
  const now = deps.clock.now().toISOString();
  try {
    await runBatch(db, [
      spendStatement(db, link),
      q.claimProfileStatement(db, profile.id, actor.id, now),
      abortUnlessClaimed(db),
      db.insert(quizmasterAssignments).values({ unitKey: invitation.unitKey, quizmasterId: profile.id, venueId: invitation.venueId }).onConflictDoNothing(),
      db
        .update(quizmasterInvitations)
        .set({ claimedAt: now, updatedAt: now })
        .where(and(eq(quizmasterInvitations.id, invitation.id), isNull(quizmasterInvitations.claimedAt))),
    ]);
  } catch (err) {
    if (isSpentError(err)) throw invalidInput('Länken har redan använts.', [{ path: 't', message: 'Länken har redan använts.' }]);
    if (claimLost(err)) throw conflict('Profilen tillhör redan ett annat konto.');
    if (uniqueViolation(err) === 'quizmasters.user_id') throw conflict('Ditt konto har redan en annan quizmasterprofil.');
    throw err;
  }
  return toSummary((await q.profileById(db, profile.id))!);
}

/** The mail's one-click stop: no more invitations to the address (idempotent). */
export async function stopInvites(deps: Pick<Deps, 'db' | 'clock' | 'config'>, token: string | undefined) {
  const link = await requireLink(linkKeys(deps.config), token, 'quizmaster-invite-stop', deps.clock.now());
  await deps.db.insert(quizmasterInviteStops).values({ email: link.s }).onConflictDoNothing();
  return { ok: true };
}

// ---- the quizmaster ----

async function ownProfileRow(db: Db, actor: Actor): Promise<QuizmasterRow> {
  requireActor(actor);
  const row = await q.profileOfUser(db, actor.id);
  if (!row) throw forbidden('Ditt konto har ingen quizmasterprofil.');
  return row;
}

/** The account's own profile, or null when it has claimed none (the /account page asks every account). */
export async function ownProfile(deps: Pick<Deps, 'db'>, actor: Actor): Promise<QuizmasterSummary | null> {
  requireActor(actor);
  const row = await q.profileOfUser(deps.db, actor.id);
  return row ? toSummary(row) : null;
}

/** The quizmaster edits their own bio (nothing else of the profile, nothing of the quizzes). */
export async function editOwnProfile(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, input: { bio: string | null }): Promise<QuizmasterSummary> {
  const row = await ownProfileRow(deps.db, actor);
  const now = deps.clock.now().toISOString();
  await runBatch(deps.db, [
    deps.db
      .update(quizmasters)
      .set({ bio: input.bio, updatedAt: now })
      .where(and(eq(quizmasters.id, row.id), eq(quizmasters.userId, actor!.id))),
    bumpDataVersion(deps.db),
  ]);
  return toSummary({ ...row, bio: input.bio });
}

/** The image type from its first bytes (JPEG, PNG, WebP), or null: the declared content type is not trusted. */
export function sniffImage(bytes: Uint8Array): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** SVG → PNG (share/render.ts rasterizeSvg, the share engines' resvg), handed in by the route. */
export type Rasterize = (svg: string) => Promise<{ png: Uint8Array; painted: boolean }>;

const refusePhoto = (message: string) => invalidInput(message, [{ path: 'photo', message }]);

/**
 * The quizmaster's photo: at most 2 MB, JPEG/PNG/WebP by its bytes, at most PHOTO_MAX_SIDE / PHOTO_MAX_PIXELS by its
 * header. JPEG and PNG are stored resized (longest side PHOTO_SIDE, a PNG drawn by resvg); a WebP, which resvg cannot
 * decode, only when it is that small already. Bytes resvg cannot read (nothing painted) are refused. Stored under a
 * new key; the old object is deleted after the row points at the new one. A refusal stores nothing.
 */
export async function uploadPhoto(
  deps: Pick<Deps, 'db' | 'clock'>,
  bucket: R2Bucket,
  actor: Actor,
  body: ArrayBuffer,
  rasterize: Rasterize,
): Promise<QuizmasterSummary> {
  const row = await ownProfileRow(deps.db, actor);
  if (body.byteLength > PHOTO_MAX_BYTES) throw refusePhoto(PHOTO_TOO_BIG);
  const bytes = new Uint8Array(body);
  const type = sniffImage(bytes.subarray(0, 16));
  if (!type) throw refusePhoto(PHOTO_BAD_TYPE);
  const size = imageDimensions(bytes, type);
  if (!size) throw refusePhoto(PHOTO_UNREADABLE);
  if (!withinPixelLimit(size)) throw refusePhoto(PHOTO_TOO_MANY_PIXELS);
  let stored: { bytes: Uint8Array; type: string };
  if (type === 'image/webp') {
    if (Math.max(size.width, size.height) > PHOTO_SIDE) throw refusePhoto(PHOTO_WEBP_TOO_LARGE);
    stored = { bytes, type };
  } else {
    const { png, painted } = await rasterize(photoSvg(bytes, type, photoTarget(size)));
    if (!painted) throw refusePhoto(PHOTO_UNREADABLE);
    stored = { bytes: png, type: 'image/png' };
  }
  const key = `${PHOTO_PREFIX}${row.id}/${newId().slice(0, 12)}`;
  await bucket.put(key, stored.bytes, { httpMetadata: { contentType: stored.type } });
  const now = deps.clock.now().toISOString();
  await runBatch(deps.db, [deps.db.update(quizmasters).set({ photoKey: key, updatedAt: now }).where(eq(quizmasters.id, row.id)), bumpDataVersion(deps.db)]);
  if (row.photoKey) await bucket.delete(row.photoKey);
  return toSummary({ ...row, photoKey: key });
}

/** The stored photo of a profile, or null. */
export async function photoOf(db: Db, bucket: R2Bucket, slug: string): Promise<R2ObjectBody | null> {
  const row = await q.profileBySlug(db, slug);
  if (!row?.photoKey) return null;
  return bucket.get(row.photoKey);
}

// ---- the public page ----

/** A profile by its slug, or null (the feed and the share card). */
export async function findProfile(db: Db, slug: string): Promise<QuizmasterSummary | null> {
  const row = await q.profileBySlug(db, slug);
  return row ? toSummary(row) : null;
}

export interface ProfilePageData {
  profile: QuizmasterSummary;
  upcoming: ListingQuiz[];
}

/** The profile page's data: the profile and the next quiz of each linked series and single quiz at public businesses. */
export async function profilePage(db: Db, slug: string, today: string, houseEmail: string): Promise<ProfilePageData | null> {
  const row = await q.profileBySlug(db, slug);
  if (!row) return null;
  const rows = await q.upcomingOfProfile(db, row.id, today, houseEmail, PROFILE_UPCOMING_MAX);
  const ref = { name: row.name, slug: row.slug };
  return { profile: toSummary(row), upcoming: rows.map((r) => ({ ...toListingQuiz(r, 'standard'), quizmasterProfile: ref })) };
}

/** Sitemap (issue 48): profiles per child sitemap `quizmasters-N.xml`, by rowid range. */
export const SITEMAP_PROFILES_PER_CHILD = 10_000;
export const profileSitemap = {
  ceiling: (db: Db) => q.profileRowidCeiling(db),
  range: (db: Db, n: number) => q.profileRange(db, (n - 1) * SITEMAP_PROFILES_PER_CHILD + 1, n * SITEMAP_PROFILES_PER_CHILD),
};
