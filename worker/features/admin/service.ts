/**
 * Superadmin panel rules (spec 02 §2.7, §6, §7 get-superadmin-data / delete-user, §8). Every route of
 * this feature runs requireSuperadmin first (routes.ts); these functions assume a superadmin caller.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { feedback, venues } from '../../db/schema';
import { bumpDataVersion } from '../../lib/data-version';
import { forbidden, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { onUniqueRace } from '../../lib/unique-race';
import { slugify } from '../../lib/slug';
import { deleteGuarded } from '../promotion/service';
import type { Deps } from '../../ports/deps';
import { houseAccountId, withOwnerEmailNotes } from '../takeover/service';
import {
  DETAIL_PREVIEW,
  FEEDBACK_PAGE_SIZE,
  swedishSortKey,
  type AdminFeedback,
  type AdminVenue,
  type AdminVenueList,
  type CreateVenueInput,
} from './contract';
import { countFeedback, countVenues, feedbackPage, nameFilter, placesOf, takenSlugs, upcomingOf, userEmailById, venuePage } from './queries';

export async function listVenues(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  input: { viewerId: string; q: string; offset: number; limit: number },
): Promise<AdminVenueList> {
  const { db } = deps;
  const { viewerId, ...query } = input;
  const ctx = { today: deps.clock.today(), houseEmail: deps.config.houseAccountEmail };
  const where = nameFilter(swedishSortKey(query.q));
  const [total, matched, page, houseId] = await Promise.all([
    countVenues(db),
    where ? countVenues(db, where) : Promise.resolve(-1),
    venuePage(db, where, query.offset, query.limit),
    houseAccountId(deps, { houseEmail: ctx.houseEmail }),
  ]);
  const ids = page.map((v) => v.id);
  const [places, quizzes] = await Promise.all([placesOf(db, ids, DETAIL_PREVIEW), upcomingOf(db, ids, ctx.today, DETAIL_PREVIEW)]);
  const list: AdminVenue[] = page.map((v) => {
    const ps = places.filter((p) => p.venue_id === v.id);
    const qs = quizzes.filter((q) => q.venue_id === v.id);
    const ownedByViewer = v.userId === viewerId;
    const ownedByHouse = !!houseId && v.userId === houseId;
    return {
      ...v,
      kind: ownedByViewer || ownedByHouse ? 'dummy' : 'real',
      ownedByViewer,
      ownedByHouse,
      placesCount: ps[0]?.total ?? 0,
      upcomingCount: qs[0]?.total ?? 0,
      places: ps.map((p) => ({ id: p.id, name: p.name, address: p.address, city: p.city })),
      upcomingQuizzes: qs.map((q) => ({ id: q.id, date: q.date, startTime: q.start_time, category: q.category, theme: q.theme, placeName: q.place_name })),
    };
  });
  return { success: true, data: { venues: list, matched: matched < 0 ? total : matched, total, offset: query.offset, pageSize: query.limit } };
}

/** A slug not yet used: the name's, else with the city, else with a short random suffix. */
async function uniqueSlug(db: Db, name: string, city?: string | null, reserved: Set<string> = new Set()): Promise<string> {
  const base = slugify(name) || 'verksamhet';
  const candidates = [base, ...(city ? [`${base}-${slugify(city)}`] : [])];
  const taken = await takenSlugs(db, candidates);
  for (const c of candidates) if (!taken.has(c) && !reserved.has(c)) return c;
  return `${base}-${newId().slice(0, 8)}`;
}

/**
 * Add-business dialog (spec 02 §5): the owner is always the signed-in superadmin; a given owner e-mail
 * is kept in a notice to the superadmins (the data model has no column for it, see README).
 */
export async function createVenue(
  deps: Pick<Deps, 'db' | 'config' | 'mailer' | 'mailQueue'>,
  input: CreateVenueInput & { viewer: { id: string; email: string } },
) {
  const { db } = deps;
  const { viewer } = input;
  const viewerId = viewer.id;
  const id = newId();
  const slug = await uniqueSlug(db, input.name);
  const write = async (slug: string) => {
    const insert = db
      .insert(venues)
      .values({ id, userId: viewerId, name: input.name, slug, address: null, city: null, isPublic: true })
      .returning({ id: venues.id, name: venues.name, userId: venues.userId, slug: venues.slug });
    // The owner e-mail's notes to the superadmins are written with the business (one batch), delivered by the mail queue.
    return input.ownerEmail
      ? await withOwnerEmailNotes(deps, [insert, bumpDataVersion(db)], {
          venueId: id,
          venueName: input.name,
          ownerEmail: input.ownerEmail.toLowerCase(),
          createdBy: viewer.email,
        })
      : await db.batch([insert, bumpDataVersion(db)]);
  };
  // Another business took the slug since it was read (issue 43.2): once more with a random suffix, as the owners' create does.
  const [inserted] = await onUniqueRace(
    () => write(slug),
    ['venues.slug'],
    () => write(`${slug}-${newId().slice(0, 6)}`),
  );
  const [row] = inserted as Array<{ id: string; name: string; userId: string; slug: string }>;
  return { venue: row!, ownerEmail: input.ownerEmail || null };
}

/** Deletes one business (places, quizzes, promotions by cascade). The caller's account is untouched. */
export async function deleteVenue(deps: Pick<Deps, 'db' | 'clock'>, input: { venueId: string }): Promise<{ deleted: true }> {
  const { db } = deps;
  const { venueId } = input;
  const [[gone]] = await deleteGuarded(db, 'venue', { venueId }, deps.clock, () =>
    db.batch([db.delete(venues).where(eq(venues.id, venueId)).returning({ id: venues.id }), bumpDataVersion(db)]),
  );
  if (!gone) throw notFound('Verksamheten hittades inte.');
  return { deleted: true };
}

/**
 * delete-user for the superadmin (spec 02 §6): removes that user and, by cascade, their businesses,
 * places, quizzes and sessions. Never the caller's own account nor the house account.
 */
export async function deleteUserAsSuperadmin(
  deps: Pick<Deps, 'db' | 'config'>,
  input: { viewerId: string; userId: string; deleteUserAccount: (userId: string) => Promise<unknown> },
): Promise<{ deleted: true; email: string }> {
  const { db } = deps;
  const { viewerId, userId } = input;
  const ctx = { houseEmail: deps.config.houseAccountEmail };
  const user = await userEmailById(db, userId);
  if (!user) throw notFound('Användaren kunde inte hittas. Kontot kan redan ha tagits bort.');
  if (user.id === viewerId) throw forbidden('Du kan inte ta bort ditt eget konto härifrån.');
  if (user.email === ctx.houseEmail.toLowerCase()) throw forbidden('Katalogkontot (ej övertagna verksamheter) kan inte tas bort.');
  await input.deleteUserAccount(user.id);
  return { deleted: true, email: user.email };
}

export async function listFeedback(
  deps: Pick<Deps, 'db'>,
  input: { offset: number },
): Promise<{ items: AdminFeedback[]; total: number; open: number; offset: number; pageSize: number }> {
  const { db } = deps;
  const { offset } = input;
  const [rows, total, open] = await Promise.all([feedbackPage(db, offset, FEEDBACK_PAGE_SIZE), countFeedback(db), countFeedback(db, true)]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      category: r.category,
      title: r.title,
      description: r.description,
      senderEmail: r.senderEmail,
      createdAt: r.createdAt,
      handledAt: r.handledAt,
      quizId: r.quizId,
    })),
    total,
    open,
    offset,
    pageSize: FEEDBACK_PAGE_SIZE,
  };
}

export async function setFeedbackHandled(deps: Pick<Deps, 'db' | 'clock'>, input: { id: string; handled: boolean }): Promise<AdminFeedback> {
  const { db } = deps;
  const { id, handled } = input;
  const now = deps.clock.now();
  const [row] = await db
    .update(feedback)
    .set({ handledAt: handled ? now.toISOString() : null, updatedAt: now.toISOString() })
    .where(eq(feedback.id, id))
    .returning();
  if (!row) throw notFound('Feedbacken hittades inte.');
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    description: row.description,
    senderEmail: row.senderEmail,
    createdAt: row.createdAt,
    handledAt: row.handledAt,
    quizId: row.quizId,
  };
}

// The import's building blocks, for other features (boundaries: only service.ts/contract.ts cross features).
// "Tipsa om ett quiz" (worker/features/tips) approves a tip into a house-account business with them.
export { addressKey, ensureHouseUser, planSlugs, seriesDates, seriesInsert } from './import';
export type { ImportRow } from './import-contract';
export { NEAR_DUPLICATE_SIMILARITY, trigramSimilarity } from './similarity';
