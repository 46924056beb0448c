/**
 * Freshness (issue 20 §3): a catalogue gathered from public sources rots, so every business carries
 * "Senast bekräftad {datum}" (`venues.confirmed_at`), set by any owner edit of a quiz or series and by a
 * one-click confirmation (dashboard button or the signed link in the mail). The nightly job acts on the
 * days since then, once per 30-day step (`venues.freshness_stage`, claimed by a conditional UPDATE, so
 * two runs send one mail):
 *   30 days → "Stämmer era quiz fortfarande?" with one signed link that confirms the whole business;
 *   60 days → a warning that the quizzes will be hidden;
 *   90 days → hidden from the public listing, pages and sitemap (is_public 1 → 0, `stale_hidden_at`
 *             set; nothing deleted), then a monthly reminder; a confirmation makes it public again.
 * Hiding uses the column the listing_series triggers already copy (venues.is_public), so the listing
 * stays index-backed and the trigger template is unchanged. House-account (unclaimed) businesses are
 * never mailed nor hidden: they show "Uppgifter från offentliga källor" instead of a date.
 */
import { requireActor, authorizeVenue, type Actor } from '../../lib/authz';
import { daysBetween, stockholmDate } from '../../lib/clock';
import { bumpDataVersion } from '../../lib/data-version';
import { notFound } from '../../lib/errors';
import { linkKeys, requireLink, signLink, type LinkPurpose } from '../../lib/signed-link';
import type { Deps } from '../../ports/deps';
import { changes } from '../../db/batch';
import { enqueueOutbox, type OutboxQueue, withNotices } from '../../ports/mailer';
import { JobPartlyFailed } from '../../lib/jobs';
import {
  FRESHNESS_HIDE_AFTER_DAYS,
  FRESHNESS_HIDE_STAGE,
  FRESHNESS_MAIL_DAYS,
  FRESHNESS_WARN_DAYS,
  FRESHNESS_WARN_STAGE,
  type FreshnessResponse,
} from './contract';
import { FRESHNESS_MAIL_KEY, freshnessMail, freshnessMailKey } from './mail';
import * as q from './queries';

/** For the same db.batch as an owner's edit (quizzes, series, holidays): see queries.ts. */
export { confirmVenueStatements } from './queries';
export { FRESHNESS_MAIL_KEY };

export { FRESHNESS_MAIL_DAYS, FRESHNESS_WARN_DAYS };
/** One home: the contract (the dashboard notice quotes it too). */
export const FRESHNESS_HIDE_DAYS = FRESHNESS_HIDE_AFTER_DAYS;
const WARN_STAGE = FRESHNESS_WARN_STAGE;
const HIDE_STAGE = FRESHNESS_HIDE_STAGE;
/** Monthly reminders stop after a year unconfirmed (the business stays hidden). */
export const FRESHNESS_MAX_STAGE = 12;
/** The confirm link lives a little longer than the month until the next mail. */
export const FRESHNESS_LINK_TTL_S = 45 * 86_400;
/**
 * Purpose of the "Stämmer fortfarande" link. The LinkPurpose union in worker/lib/signed-link.ts (owned by
 * the follows feature) does not list it yet; verification compares purposes at run time, so a cast is safe.
 */
export const FRESHNESS_PURPOSE: LinkPurpose = 'freshness-confirm';

/** FRESHNESS_MAIL_DAYS steps since the confirmation: 0 fresh, 1 mail, WARN_STAGE warning, ≥ HIDE_STAGE hidden. */
export function freshnessStage(daysSince: number): number {
  return Math.min(FRESHNESS_MAX_STAGE, Math.max(0, Math.floor(daysSince / FRESHNESS_MAIL_DAYS)));
}

function describe(
  v: { confirmedAt: string | null; createdAt: string; staleHiddenAt: string | null; publicSources: boolean },
  today: string,
): FreshnessResponse {
  const confirmedOn = stockholmDate(new Date(v.confirmedAt ?? v.createdAt));
  const daysSince = daysBetween(confirmedOn, today);
  return {
    confirmedOn,
    daysSince,
    publicSources: v.publicSources,
    hidden: !!v.staleHiddenAt,
    hideInDays: v.publicSources || v.staleHiddenAt ? null : Math.max(0, FRESHNESS_HIDE_DAYS - daysSince),
  };
}

/** GET /api/owner/freshness/:venueId — the dashboard notice. */
export async function venueFreshness(deps: Pick<Deps, 'db' | 'clock' | 'config'>, actor: Actor, input: { venueId: string }): Promise<FreshnessResponse> {
  const { db } = deps;
  const { venueId } = input;
  const ctx = { today: deps.clock.today(), houseEmail: deps.config.houseAccountEmail };
  const venue = await authorizeVenue(db, actor, venueId);
  return describe({ ...venue, publicSources: await q.isHouseAccount(db, venue.userId, ctx.houseEmail) }, ctx.today);
}

/** POST /api/owner/freshness/:venueId/confirm — "Stämmer fortfarande" in the dashboard. */
export async function confirmVenue(deps: Pick<Deps, 'db' | 'clock' | 'config'>, actor: Actor, input: { venueId: string }): Promise<FreshnessResponse> {
  const { db } = deps;
  const { venueId } = input;
  requireActor(actor);
  await authorizeVenue(db, actor, venueId);
  await db.batch([...q.confirmVenueStatements(db, venueId, deps.clock.now()), bumpDataVersion(db)]);
  return venueFreshness(deps, actor, input);
}

/** The signed link in the mail: confirms every quiz of one business, without signing in (idempotent). */
export async function confirmByLink(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { token: string | undefined }): Promise<{ venueName: string }> {
  const { db } = deps;
  const now = deps.clock.now();
  const link = await requireLink(linkKeys(deps.config), input.token, FRESHNESS_PURPOSE, now);
  const venue = await q.businessName(db, link.s);
  if (!venue) throw notFound('Verksamheten finns inte längre.');
  await db.batch([...q.confirmVenueStatements(db, venue.id, now), bumpDataVersion(db)]);
  return { venueName: venue.name };
}

/** For the public venue page and detail dialog: the date, or "from public sources" for the house account. */
export async function publicFreshness(
  deps: Pick<Deps, 'db' | 'config'>,
  input: { venueId: string },
): Promise<{ confirmedOn: string | null; publicSources: boolean } | null> {
  const { db } = deps;
  const { venueId } = input;
  const houseEmail = deps.config.houseAccountEmail;
  const v = await q.confirmationOf(db, venueId);
  if (!v) return null;
  const publicSources = v.email === houseEmail.toLowerCase();
  return { confirmedOn: publicSources ? null : stockholmDate(new Date(v.confirmedAt ?? v.createdAt)), publicSources };
}

// ------------------------------------------------------------------ the nightly task

/** The nightly run's deps: its database, clock (the scheduled night), config (APP_URL, LINK_SIGNING_SECRET, HOUSE_ACCOUNT_EMAIL) and mailer. */
export type FreshnessJobDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>;

export interface FreshnessJobResult {
  mailed: number;
  warned: number;
  hidden: number;
  /** Businesses whose step failed (retried the next night; the run is recorded as failed). */
  failed: number;
  /** Pages whose mail could not be put on the queue (the nightly mail-redeliver sweep sends them). */
  enqueueFailed: number;
}

const JOB_PAGE = 100;
/** At most this many pages per run (10 000 businesses); the rest follow the next night. */
const JOB_MAX_PAGES = 100;

/**
 * One pass over the businesses (not the house account's) unconfirmed for 30+ days whose next step is
 * due. Each step is claimed by `UPDATE … SET freshness_stage = s WHERE freshness_stage < s RETURNING`,
 * so overlapping runs act once; the hide happens in that same statement, and the step's mail is written
 * to the outbox in the same batch (issue 27.3), then delivered by the mail queue with retries.
 */
export async function runFreshnessJob(deps: FreshnessJobDeps, input: { queue: OutboxQueue }): Promise<FreshnessJobResult> {
  const { db } = deps;
  const now = deps.clock.now();
  const today = deps.clock.today();
  const { appUrl, linkSigningSecret: linkSecret, houseAccountEmail: houseEmail } = deps.config;
  if (!linkSecret) throw new Error('LINK_SIGNING_SECRET is not set: freshness mail needs signed links');
  const { queue } = input;
  const result: FreshnessJobResult = { mailed: 0, warned: 0, hidden: 0, failed: 0, enqueueFailed: 0 };
  const toDeliver: string[] = [];
  const errors: unknown[] = [];
  const cutoff = new Date(now.getTime() - FRESHNESS_MAIL_DAYS * 86_400_000 + 86_400_000).toISOString();
  // Due = the FRESHNESS_MAIL_DAYS step reached is above the one acted on (UTC dates here, Stockholm dates below; a
  // venue the check below skips is passed by the id cursor, so no run starves on it).
  let cursor = '';
  for (let page = 0; page < JOB_MAX_PAGES; page++) {
    const candidates = await q.dueBusinesses(db, {
      cursor,
      houseEmail,
      today,
      cutoff,
      stepDays: FRESHNESS_MAIL_DAYS,
      maxStage: FRESHNESS_MAX_STAGE,
      limit: JOB_PAGE,
    });
    for (const v of candidates) {
      // One business's failure (logged, counted) never stops the others; its step is retried next night.
      try {
        await actOn(v);
      } catch (err) {
        result.failed++;
        errors.push(err);
        console.error(`freshness step for venue ${v.id} failed`, err);
      }
    }
    if (toDeliver.length && !(await enqueueOutbox(queue, toDeliver.splice(0)))) result.enqueueFailed++;
    if (candidates.length < JOB_PAGE) break;
    cursor = candidates.at(-1)!.id;
  }
  if (errors.length) throw new JobPartlyFailed(result, errors[0]);
  return result;

  async function actOn(v: { id: string; name: string; confirmedAt: string | null; createdAt: string; stage: number; email: string }) {
    const confirmedOn = stockholmDate(new Date(v.confirmedAt ?? v.createdAt));
    const stage = freshnessStage(daysBetween(confirmedOn, today));
    if (stage <= v.stage) return;
    const hide = stage >= HIDE_STAGE;
    const claim = q.claimStageStatement(db, v, stage, hide, now);
    const link = `${appUrl}/bekrafta-quiz?t=${encodeURIComponent(await signLink(linkSecret, FRESHNESS_PURPOSE, v.id, FRESHNESS_LINK_TTL_S, now))}`;
    // Issue 27.3: the claim and its mail are one batch. The mail is written only where this step now holds
    // for the same confirmation (so a lost claim writes nothing; a concurrent winner's mail has the same key).
    const mail = deps.mailer.outbox(
      freshnessMail(v.email, v.name, stage, confirmedOn, link),
      freshnessMailKey(v.id, confirmedOn, stage),
      q.stageHeldSql(v, stage),
    );
    // Hiding changes public data: the version bump goes in the same batch.
    const {
      results: [claimed],
    } = await withNotices(db, [claim, ...(hide ? [bumpDataVersion(db)] : [])], [mail], toDeliver);
    if (!changes(claimed)) return;
    if (hide && v.stage < HIDE_STAGE) result.hidden++;
    if (stage === WARN_STAGE) result.warned++;
    else result.mailed++;
  }
}

/** The business of a public quiz (null when missing or not public). */
export async function quizVenueId(deps: Pick<Deps, 'db'>, input: { quizId: string }): Promise<string | null> {
  return q.publicQuizBusiness(deps.db, input.quizId);
}
