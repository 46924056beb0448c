/**
 * "Tipsa om ett quiz" (issue 31.1): a visitor tips about a quiz night; the superadmin approves or
 * rejects it in the "Tips" tab. Abuse: a per-client rate limit (D1), a honeypot and the human-check port.
 * Approval creates a house-account business, place and series (or one evening) with the import's own
 * building blocks (worker/features/admin/import.ts), so the place can be claimed later. Each answer is
 * one guarded batch: a second answer changes nothing and gets 409. The tipster's optional address is
 * kept only until the one "published" mail is written (or the tip is rejected).
 */
import { eq } from 'drizzle-orm';
import { abortUnlessClaimed, claimLost, runBatch, type BatchStatement } from '../../db/batch';
import { locations, quizzes, tips, venues } from '../../db/schema';
import { addDays } from '../../lib/clock';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, foundOr404, invalidInput, notFound, rateLimited } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { takeAttempt } from '../../lib/rate-limit';
import { linkKeys, signLink, verifyLink, linkRefusal } from '../../lib/signed-link';
import { slugify } from '../../lib/slug';
import { WEEKDAY_NAMES } from '../../lib/swedish';
import { hashToken } from '../../lib/tokens';
import type { Deps } from '../../ports/deps';
import { swedishSortKey } from '../admin/contract';
import {
  addressKey,
  ensureHouseUser,
  NEAR_DUPLICATE_SIMILARITY,
  planSlugs,
  seriesDates,
  seriesInsert,
  trigramSimilarity,
  type ImportRow,
} from '../admin/service';
import { parseTipCursor, tipCursor, TIP_MAX_DAYS_AHEAD, type AdminTip, type AdminTipList, type TipData, type TipListQuery } from './contract';
import { tipPublishedMail } from './mail';
import { claimTip, countTips, forgetEmail, insertOrFoldTip, placesInCity, TIP_LIST_LIMIT, tipById, tipPage, tipWithBusinessById } from './queries';

/** Tips per client and window (counted before anything else, so parallel posts cannot slip past). */
export const TIP_LIMIT = 5;
export const TIP_WINDOW_MS = 60 * 60 * 1000;
/** The one-click stop link in the published mail stays valid this long. */
const STOP_TTL_S = 60 * 24 * 3600;

export type TipDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'humanCheck'>;

/** What the public form needs to know: Turnstile's site key (null = the local check, no widget). */
export function tipFormConfig(deps: Pick<Deps, 'config'>): { siteKey: string | null } {
  return { siteKey: deps.config.turnstile.siteKey };
}

/** The import's near-duplicate rule: same address, or a similar name, in the same town. */
export function nearDuplicate(places: Array<{ venueId: string; name: string; address: string }>, tip: { venueName: string; address: string }) {
  const aKey = addressKey(tip.address);
  for (const p of places) {
    if (addressKey(p.address) === aKey) return { venueId: p.venueId, note: `Samma adress som ${p.name}` };
  }
  let best: { venueId: string; name: string; s: number } | null = null;
  for (const p of places) {
    const s = swedishSortKey(p.name) === swedishSortKey(tip.venueName) ? 1 : trigramSimilarity(p.name, tip.venueName);
    if (s >= NEAR_DUPLICATE_SIMILARITY && (!best || s > best.s)) best = { venueId: p.venueId, name: p.name, s };
  }
  return best ? { venueId: best.venueId, note: `Liknar ${best.name} i samma ort (${best.s.toFixed(2).replace('.', ',')})` } : null;
}

/**
 * A tip's identity for deduplication (issue 43.7): the place's name with case, accents, punctuation and spaces
 * gone, the town's slug, the day (weekday or date) and the start time. A pending tip with the same key is the
 * same tip, however it was typed; its address, link and free text do not count (a flood varies them freely).
 */
export function tipDedupKey(t: { venueName: string; citySlug: string; weekday: number | null; date: string | null; startTime: string }): string {
  const name = slugify(t.venueName).replace(/[^a-z0-9]/g, '');
  return [t.citySlug, name, t.weekday ? `w${t.weekday}` : `d${t.date}`, t.startTime.slice(0, 5)].join('|');
}

/**
 * The client key of the per-client limit: an IPv6 address counts by its /64 (one subscriber's network, whose
 * addresses anyone on it can rotate at will); an IPv4 address by itself.
 */
export function tipClientKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export async function submitTip(deps: TipDeps, input: TipData & { clientKey: string }): Promise<{ ok: true }> {
  const { db } = deps;
  const now = deps.clock.now();
  await takeAttempt(db, `tip:${hashToken(tipClientKey(input.clientKey))}`, TIP_LIMIT, TIP_WINDOW_MS, now, (ms) =>
    rateLimited('För många tips på kort tid. Försök igen om en stund.', Math.ceil(ms / 1000)),
  );
  // The honeypot: a bot that filled the hidden field is answered as a success and nothing is stored.
  if (input.company?.trim()) return { ok: true };
  const human = await deps.humanCheck.verify(input.humanToken, input.clientKey === 'local' ? null : input.clientKey);
  if (!human) {
    throw invalidInput('Mänsklig kontroll: Bekräfta att du är en människa och försök igen.', [
      { path: 'humanToken', message: 'Bekräfta att du är en människa och försök igen' },
    ]);
  }
  const today = deps.clock.today();
  if (input.date && (input.date < today || input.date > addDays(today, TIP_MAX_DAYS_AHEAD))) {
    const message = input.date < today ? 'Datumet har redan passerat' : `Datumet får ligga högst ${TIP_MAX_DAYS_AHEAD} dagar fram`;
    throw invalidInput(`Datum: ${message}`, [{ path: 'date', message }]);
  }
  const citySlug = slugify(input.city);
  const near = nearDuplicate(await placesInCity(db, citySlug), input);
  const startTime = `${input.startTime}:00`;
  // One statement: a new tip, or the pending tip it repeats seen once more (answered the same: no oracle).
  await insertOrFoldTip(db, {
    id: newId(),
    venueName: input.venueName,
    address: input.address,
    city: input.city,
    citySlug,
    weekday: input.weekday,
    date: input.date,
    startTime,
    link: input.link,
    message: input.message,
    email: input.email,
    nearVenueId: near?.venueId ?? null,
    nearNote: near?.note ?? null,
    dedupKey: tipDedupKey({ venueName: input.venueName, citySlug, weekday: input.weekday, date: input.date, startTime }),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  });
  return { ok: true };
}

function toAdminTip(t: typeof tips.$inferSelect, venue: { slug: string | null; citySlug: string | null }): AdminTip {
  return {
    id: t.id,
    venueName: t.venueName,
    address: t.address,
    city: t.city,
    weekday: t.weekday,
    date: t.date,
    startTime: t.startTime.slice(0, 5),
    link: t.link,
    message: t.message,
    hasEmail: !!t.email,
    status: t.status,
    rejectReason: t.rejectReason,
    near: t.nearNote ? { venueId: t.nearVenueId, note: t.nearNote } : null,
    venue: t.venueId && venue.slug && venue.citySlug ? { id: t.venueId, slug: venue.slug, citySlug: venue.citySlug } : null,
    seenCount: t.seenCount,
    lastSeenAt: t.lastSeenAt,
    createdAt: t.createdAt,
    answeredAt: t.answeredAt,
  };
}

/** One page of the queue (keyset: created_at, id), oldest first unless asked otherwise, and where the next starts. */
export async function listTips(deps: Pick<Deps, 'db'>, input: TipListQuery): Promise<AdminTipList> {
  const after = input.cursor ? parseTipCursor(input.cursor) : null;
  const [rows, pending] = await Promise.all([tipPage(deps.db, input.status, input.order, after), countTips(deps.db, 'pending')]);
  const items = rows.slice(0, TIP_LIST_LIMIT);
  const last = items.at(-1)?.tip;
  return {
    items: items.map((r) => toAdminTip(r.tip, { slug: r.venueSlug, citySlug: r.venueCitySlug })),
    pending,
    nextCursor: rows.length > TIP_LIST_LIMIT && last ? tipCursor(last) : null,
  };
}

export async function countPendingTips(deps: Pick<Deps, 'db'>): Promise<{ pending: number }> {
  return { pending: await countTips(deps.db, 'pending') };
}

async function answered<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (claimLost(err)) throw conflict('Tipset är redan besvarat.');
    throw err;
  }
}

async function pendingTip(deps: Pick<Deps, 'db'>, id: string) {
  const tip = await tipById(deps.db, id);
  if (!tip) throw notFound('Tipset hittades inte.');
  if (tip.status !== 'pending') throw conflict('Tipset är redan besvarat.');
  return tip;
}

/**
 * Approves a tip: one batch of the claim, its guard, the business (house account), its place and its
 * series (weekly, open-ended like the import's) or single evening, and the data-version bump. Then the
 * tipster's one mail (outbox, at most once per tip) and the address is forgotten.
 */
export async function approveTip(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>, input: { id: string }): Promise<AdminTip> {
  const { db } = deps;
  const tip = await pendingTip(deps, input.id);
  const nowIso = deps.clock.now().toISOString();
  const today = deps.clock.today();
  const houseId = await ensureHouseUser(db, deps.config.houseAccountEmail);
  const [slug] = await planSlugs(db, [{ name: tip.venueName, city: tip.city } as ImportRow]);
  const venueId = newId();
  const locationId = newId();
  const stmts: BatchStatement[] = [
    claimTip(db, tip.id, { status: 'approved', answeredAt: nowIso, updatedAt: nowIso }),
    abortUnlessClaimed(db),
    db.insert(venues).values({
      id: venueId,
      userId: houseId,
      name: tip.venueName,
      slug: slug!,
      address: tip.address,
      city: tip.city,
      website: tip.link,
      isPublic: true,
      createdAt: nowIso,
      updatedAt: nowIso,
    }),
    db.insert(locations).values({
      id: locationId,
      venueId,
      name: tip.venueName,
      address: tip.address,
      city: tip.city,
      citySlug: tip.citySlug,
      website: tip.link,
      createdAt: nowIso,
      updatedAt: nowIso,
    }),
  ];
  if (tip.weekday) {
    const dates = seriesDates(today, tip.weekday, 'weekly');
    stmts.push(
      seriesInsert(db, {
        locationId,
        dates,
        startTime: tip.startTime,
        // A tip says nothing of category or price: both stay unknown (issue 44.3), for the owner to fill in.
        category: null,
        theme: null,
        quizmaster: null,
        price: null,
        recurrenceId: newId(),
        pattern: 'weekly',
        days: JSON.stringify([WEEKDAY_NAMES[tip.weekday - 1]]),
        nowIso,
      }),
    );
  } else {
    stmts.push(
      db.insert(quizzes).values({
        id: newId(),
        locationId,
        date: tip.date!,
        startTime: tip.startTime,
        isRecurring: false,
        createdAt: nowIso,
        updatedAt: nowIso,
      }),
    );
  }
  // The business exists now (tips.venue_id references it).
  stmts.push(db.update(tips).set({ venueId }).where(eq(tips.id, tip.id)), bumpDataVersion(db));
  await answered(runBatch(db, stmts));
  if (tip.email) {
    try {
      // The address was never confirmed: the mail holds only fixed text and our signed links (the page link
      // too: the place's slug is made of the tipster's words). docs/features/mail-to-unconfirmed-addresses.md
      const now = deps.clock.now();
      const stop = await signLink(deps.config.linkSigningSecret, 'tip-stop', tip.id, STOP_TTL_S, now);
      const show = await signLink(deps.config.linkSigningSecret, 'tip-page', tip.id, STOP_TTL_S, now);
      await deps.mailer.sendOnce(
        tipPublishedMail(tip.email, {
          page: `${deps.config.appUrl}/tipsa/visa?t=${encodeURIComponent(show)}`,
          stop: `${deps.config.appUrl}/tipsa/stopp?t=${encodeURIComponent(stop)}`,
        }),
        `tip-published:${tip.id}`,
      );
    } catch (err) {
      console.error(`tip ${tip.id}: the published mail failed`, err);
    }
    await forgetEmail(db, tip.id);
  }
  return answeredTip(db, tip.id);
}

/** The answered tip as the queue shows it, read by id. */
async function answeredTip(db: Deps['db'], id: string): Promise<AdminTip> {
  const row = foundOr404(await tipWithBusinessById(db, id), 'Tipset finns inte längre.');
  return toAdminTip(row.tip, { slug: row.venueSlug, citySlug: row.venueCitySlug });
}

/** Rejects a tip with a reason (shown only to superadmins); the address is forgotten in the same batch. */
export async function rejectTip(deps: Pick<Deps, 'db' | 'clock'>, input: { id: string; reason: string }): Promise<AdminTip> {
  const { db } = deps;
  const tip = await pendingTip(deps, input.id);
  const nowIso = deps.clock.now().toISOString();
  await answered(
    runBatch(db, [
      claimTip(db, tip.id, { status: 'rejected', rejectReason: input.reason, email: null, answeredAt: nowIso, updatedAt: nowIso }),
      abortUnlessClaimed(db),
    ]),
  );
  return answeredTip(db, tip.id);
}

/** The one-click stop of the published mail (RFC 8058): forgets the tipster's address. Idempotent. */
export async function stopTipMail(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { token: string | undefined }): Promise<void> {
  const r = await verifyLink(linkKeys(deps.config), input.token, 'tip-stop', deps.clock.now());
  if (!r.ok) throw invalidInput(linkRefusal(r.reason));
  await deps.db.update(tips).set({ email: null, updatedAt: deps.clock.now().toISOString() }).where(eq(tips.id, r.payload.s));
}

/** The published mail's page link: the signed tip id → the path of the place's page (404 once it is gone). */
export async function tipPagePath(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { token: string | undefined }): Promise<string> {
  const r = await verifyLink(linkKeys(deps.config), input.token, 'tip-page', deps.clock.now());
  if (!r.ok) throw invalidInput(linkRefusal(r.reason));
  const row = await tipWithBusinessById(deps.db, r.payload.s);
  if (!row?.venueSlug || !row.venueCitySlug) throw notFound('Sidan finns inte längre.');
  return `/quiz/${encodeURIComponent(row.venueCitySlug)}/${encodeURIComponent(row.venueSlug)}`;
}
