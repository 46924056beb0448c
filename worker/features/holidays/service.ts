/**
 * Swedish holidays in series (issue 20 §2): which dates of a series fall on a public holiday or one of
 * the four eves (worker/lib/holidays.ts), the owner's "Hoppa över" (= cancel that occurrence, keeping the
 * series) or keep per date, and the nightly "Kör ni quiz på {helgdag}?" mail 14 days ahead with two
 * signed single-use links. Decisions live in `holiday_decisions` (recurrence id, date); 'skip' goes with
 * `is_cancelled` on the occurrence in the same batch.
 */
import type { Db } from '../../db/client';
import { requireActor, type Actor } from '../../lib/authz';
import { addDays, stockholmDate, stockholmInstant } from '../../lib/clock';
import { changes, runBatch } from '../../db/batch';
import { bumpDataVersion } from '../../lib/data-version';
import { invalidInput } from '../../lib/errors';
import { holidayDatesOf, holidayLabel, holidayOn, holidaysBetween } from '../../lib/holidays';
import { displayDate } from '../../lib/swedish';
import { isSpentError, linkKeys, requireLink, signLink, spendStatement, type LinkKeys, type LinkPurpose } from '../../lib/signed-link';
import type { Deps } from '../../ports/deps';
import { enqueueOutbox, type OutboxQueue, withNotices } from '../../ports/mailer';
import { JobPartlyFailed } from '../../lib/jobs';
import { confirmVenueStatements } from '../freshness/service';
import type { HolidayOccurrence, SeriesHoliday, SeriesHolidaysResponse } from './contract';
import { generateOccurrences, isoDaysOf, seriesEnd, type Pattern } from '../../lib/recurrence';
import { authorizeSeries } from '../series/service';
import { holidayAskMail } from './mail';
import * as q from './queries';

/** Send keys of the holiday question (the nightly mail-redeliver sweep matches this prefix). */
export const HOLIDAY_MAIL_KEY = 'holiday-ask:';

/** Days ahead the nightly job asks about an undecided holiday occurrence. */
export const HOLIDAY_ASK_DAYS = 14;
/**
 * Purpose of the "Ja, vi kör" / "Ställ in" links. Not (yet) in the LinkPurpose union of
 * worker/lib/signed-link.ts (owned by the follows feature); the purpose is compared at run time.
 */
export const HOLIDAY_PURPOSE: LinkPurpose = 'holiday-decision';

/** The create form's preview: the holiday dates of a series that does not exist yet. */
export function previewHolidays(
  actor: Actor,
  input: { date: string; pattern: Pattern; days?: string[] | undefined; until?: string | null | undefined },
): HolidayOccurrence[] {
  requireActor(actor);
  const dates = generateOccurrences({
    start: input.date,
    pattern: input.pattern,
    weekdays: isoDaysOf(input.days ?? []),
    end: seriesEnd(input.date, input.until ?? null),
  });
  return holidayDatesOf(dates);
}

/** Upcoming occurrences of a series on holidays, with their cancelled state and the owner's decision. */
export async function seriesHolidays(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, input: { recurrenceId: string }): Promise<SeriesHolidaysResponse> {
  const { db } = deps;
  const { recurrenceId } = input;
  const today = deps.clock.today();
  const { venue } = await authorizeSeries(db, actor, recurrenceId);
  const rows = await q.upcomingOccurrences(db, recurrenceId, today);
  const byDate = new Map(rows.map((r) => [r.date, r]));
  const holidays = holidayDatesOf(rows.map((r) => r.date));
  const decided = await q.decisionsOn(
    db,
    recurrenceId,
    holidays.map((h) => h.date),
  );
  const decisionOf = new Map(decided.map((d) => [d.date, d.decision]));
  return {
    holidays: holidays.map(
      (h): SeriesHoliday => ({ ...h, quizId: byDate.get(h.date)!.id, isCancelled: byDate.get(h.date)!.isCancelled, decision: decisionOf.get(h.date) ?? null }),
    ),
    confirmedOn: stockholmDate(new Date(venue.confirmedAt ?? venue.createdAt)),
  };
}

/**
 * "Hoppa över" / restore for dates of a series. Every date must be an upcoming occurrence of the series
 * on a holiday (400 naming the date otherwise, nothing stored). One batch: decisions, cancelled flags,
 * the business's freshness confirmation and the data-version bump.
 */
export async function decideHolidays(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: Actor,
  input: { recurrenceId: string; decisions: Array<{ date: string; skip: boolean }> },
) {
  const { db } = deps;
  const { recurrenceId, decisions } = input;
  const now = deps.clock.now();
  const today = deps.clock.today();
  const { venue } = await authorizeSeries(db, actor, recurrenceId);
  const dates = decisions.map((d) => d.date);
  const existing = await q.occurrenceDates(db, recurrenceId, [...new Set(dates)]);
  const issues = decisions.flatMap((d, i) => {
    if (d.date < today) return [{ path: `decisions.${i}.date`, message: `${d.date} har redan varit` }];
    if (!holidayOn(d.date)) return [{ path: `decisions.${i}.date`, message: `${d.date} är ingen helgdag` }];
    if (!existing.has(d.date)) return [{ path: `decisions.${i}.date`, message: `Serien har inget quiz ${d.date}` }];
    return [];
  });
  if (issues.length) throw invalidInput(`Helgdagar: ${issues[0]!.message}`, issues);
  const nowIso = now.toISOString();
  const stmts = decisions.flatMap((d) => q.decisionStatements(db, recurrenceId, d.date, holidayOn(d.date)!.name, d.skip, nowIso));
  await runBatch(db, [...stmts, ...confirmVenueStatements(db, venue.id, now), bumpDataVersion(db)]);
  return { skipped: decisions.filter((d) => d.skip).length, kept: decisions.filter((d) => !d.skip).length };
}

// ------------------------------------------------------------------ the signed links

/** Subject of a holiday link: recurrence id, date and the action, '|'-separated. */
const subjectOf = (recurrenceId: string, date: string, action: 'run' | 'skip') => `${recurrenceId}|${date}|${action}`;

export interface HolidayLinkInfo {
  recurrenceId: string;
  date: string;
  action: 'run' | 'skip';
  holiday: string;
  venueName: string;
}

async function readLink(db: Db, keys: LinkKeys, token: string | undefined, now: Date) {
  const link = await requireLink(keys, token, HOLIDAY_PURPOSE, now);
  const [recurrenceId, date, action] = link.s.split('|');
  const holiday = date ? holidayOn(date) : null;
  if (!recurrenceId || !date || !holiday || (action !== 'run' && action !== 'skip')) throw invalidInput('Länken är ogiltig.');
  const row = await q.occurrenceBusiness(db, recurrenceId, date);
  if (!row) throw invalidInput('Quizet finns inte längre.');
  return { link, info: { recurrenceId, date, action, holiday: holiday.name, venueName: row.venueName } as HolidayLinkInfo, venueId: row.venueId };
}

/** What a link will do (the GET page shows it; nothing changes). */
export async function inspectHolidayLink(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { token: string | undefined }): Promise<HolidayLinkInfo> {
  return (await readLink(deps.db, linkKeys(deps.config), input.token, deps.clock.now())).info;
}

/** Applies a link once: the token is spent in the same batch (a second use → 400 "redan använts"). */
export async function applyHolidayLink(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { token: string | undefined }): Promise<HolidayLinkInfo> {
  const { db } = deps;
  const now = deps.clock.now();
  const { link, info, venueId } = await readLink(db, linkKeys(deps.config), input.token, now);
  try {
    await runBatch(db, [
      spendStatement(db, link),
      ...q.decisionStatements(db, info.recurrenceId, info.date, info.holiday, info.action === 'skip', now.toISOString()),
      ...confirmVenueStatements(db, venueId, now),
      bumpDataVersion(db),
    ]);
  } catch (err) {
    if (isSpentError(err)) throw invalidInput('Länken har redan använts.');
    throw err;
  }
  return info;
}

// ------------------------------------------------------------------ the nightly task

/** The nightly run's deps: its database, clock (the scheduled night), config (APP_URL, LINK_SIGNING_SECRET, HOUSE_ACCOUNT_EMAIL) and mailer. */
export type HolidayAskDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>;

/**
 * Asks the owner about every not cancelled, undecided occurrence on a holiday from today to today + 14
 * (so a missed night catches up). Each is claimed by an upsert that sets `asked_at` only where no one
 * asked or decided yet (RETURNING says whether this run won); the mail is written to the outbox in the same
 * batch, once per key (issue 27.3), and delivered by the mail queue with retries.
 */
export async function runHolidayAskJob(deps: HolidayAskDeps, input: { queue: OutboxQueue }): Promise<{ asked: number; failed: number; enqueueFailed: number }> {
  const { db } = deps;
  const now = deps.clock.now();
  const today = deps.clock.today();
  const { appUrl, linkSigningSecret: linkSecret, houseAccountEmail: houseEmail } = deps.config;
  if (!linkSecret) throw new Error('LINK_SIGNING_SECRET is not set: the holiday mail needs signed links');
  const holidays = holidaysBetween(today, addDays(today, HOLIDAY_ASK_DAYS));
  if (!holidays.length) return { asked: 0, failed: 0, enqueueFailed: 0 };
  const rows = await q.undecidedHolidayOccurrences(
    db,
    holidays.map((h) => h.date),
    houseEmail,
  );
  const counts = { asked: 0, failed: 0, enqueueFailed: 0 };
  const toDeliver: string[] = [];
  const errors: unknown[] = [];
  const nowIso = now.toISOString();
  for (const r of rows) {
    // One occurrence's failure (logged, counted) never stops the others; it is asked again the next night.
    try {
      if (await ask(r)) counts.asked++;
    } catch (err) {
      counts.failed++;
      errors.push(err);
      console.error(`holiday question for ${r.recurrenceId} ${r.date} failed`, err);
    }
  }
  if (toDeliver.length && !(await enqueueOutbox(input.queue, toDeliver))) counts.enqueueFailed++;
  if (errors.length) throw new JobPartlyFailed(counts, errors[0]);
  return counts;

  async function ask(r: (typeof rows)[number]): Promise<boolean> {
    const rid = r.recurrenceId!;
    const holiday = holidayOn(r.date);
    if (!holiday) return false;
    // Valid until the end of the day after the quiz.
    const ttl = Math.max(3600, Math.floor((stockholmInstant(addDays(r.date, 2)).getTime() - now.getTime()) / 1000));
    const url = async (action: 'run' | 'skip') =>
      `${appUrl}/helgdag?t=${encodeURIComponent(await signLink(linkSecret, HOLIDAY_PURPOSE, subjectOf(rid, r.date, action), ttl, now))}`;
    const when = `${displayDate(r.date)} (${holidayLabel(holiday.name).toLowerCase()})`;
    const claim = q.claimAskStatement(db, rid, r.date, holiday.name, nowIso);
    // Issue 27.3: the claim and its mail in one batch; the mail only where this run's claim holds.
    const mail = deps.mailer.outbox(
      holidayAskMail({
        to: r.email,
        venueName: r.venueName,
        locationName: r.locationName,
        when,
        startTime: r.startTime,
        holiday: holiday.name,
        runUrl: await url('run'),
        skipUrl: await url('skip'),
      }),
      `${HOLIDAY_MAIL_KEY}${rid}:${r.date}`,
      q.askHeldSql(rid, r.date, nowIso),
    );
    const {
      results: [claimed],
    } = await withNotices(db, [claim], [mail], toDeliver);
    return changes(claimed) > 0;
  }
}
