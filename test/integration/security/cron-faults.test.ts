/**
 * Cron under faults (issue 9 item 5): two overlapping nightly runs, a run interrupted half way and run
 * again, and runs on the nights the clocks change (2026-03-29 and 2026-10-25). Every series must end
 * with exactly the occurrences its rule gives — none twice, none missing. The expected dates are
 * computed here independently of worker/features/series (plain UTC calendar arithmetic).
 */
import { env } from 'cloudflare:workers';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobRuns, quizzes } from '../../../worker/db/schema';
import { runNightly } from '../../jobs-queue';
import { runSeriesExtensionJob, SERIES_JOB } from '../../../worker/features/series/service';
import { SERIES_HORIZON_DAYS } from '../../../worker/features/quizzes/contract';
import { newId } from '../../../worker/lib/ids';
import { createLocation, createQuiz, createUser, createVenue, testDb, pinnedClock, uniqueTown } from '../../factories';

const NAMES = ['söndag', 'måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag'];

function addDaysUtc(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

interface SeriesSpec {
  first: string;
  pattern: 'weekly' | 'biweekly';
  /** Sunday = 0 … Saturday = 6; the first date's weekday must be among them. */
  days: number[];
  until?: string;
  startTime?: string;
}

/** Every date the rule gives from `first` through `end` (inclusive), capped by until. */
function expectedDates(s: SeriesSpec, end: string): string[] {
  const last = s.until && s.until < end ? s.until : end;
  const out: string[] = [];
  if (s.pattern === 'weekly') {
    for (let d = s.first; d <= last; d = addDaysUtc(d, 1)) if (s.days.includes(weekdayOf(d))) out.push(d);
  } else {
    for (let d = s.first; d <= last; d = addDaysUtc(d, 14)) out.push(d);
  }
  return out;
}

let placeId: string | null = null;
async function place(): Promise<string> {
  if (placeId) return placeId;
  const user = await createUser();
  const venue = await createVenue(user.id);
  placeId = (await createLocation(venue.id, { city: uniqueTown() })).id;
  return placeId;
}

/** A series as the API stores it: every occurrence row shares recurrence_id and the rule. */
async function createSeries(s: SeriesSpec, existing: string[] = [s.first]): Promise<string> {
  const locationId = await place();
  const rid = newId();
  for (const date of existing) {
    await createQuiz(locationId, {
      date,
      startTime: s.startTime ?? '19:00:00',
      isRecurring: true,
      recurrenceId: rid,
      recurrencePattern: s.pattern,
      recurrenceDays: JSON.stringify(s.days.map((d) => NAMES[d])),
      recurrenceUntil: s.until ?? null,
    });
  }
  return rid;
}

async function datesOf(rid: string): Promise<string[]> {
  const rows = await testDb().select({ date: quizzes.date }).from(quizzes).where(eq(quizzes.recurrenceId, rid)).orderBy(asc(quizzes.date));
  return rows.map((r) => r.date);
}

/**
 * What a series must look like after the nightly run of `today`: the rows it had, plus every date of
 * its rule from today through today + SERIES_HORIZON_DAYS (past dates are never back-filled).
 */
async function expectExact(series: Array<{ rid: string; spec: SeriesSpec; existing: string[] }>, today: string) {
  const end = addDaysUtc(today, SERIES_HORIZON_DAYS);
  for (const { rid, spec, existing } of series) {
    const dates = await datesOf(rid);
    expect(new Set(dates).size, `duplicates in ${JSON.stringify(spec)}`).toBe(dates.length);
    const expected = [...new Set([...existing, ...expectedDates(spec, end).filter((d) => d >= today)])].sort();
    expect(dates, JSON.stringify(spec)).toEqual(expected);
  }
}

const countAll = async (rids: string[]) => (await testDb().select({ n: sql<number>`COUNT(*)` }).from(quizzes).where(inArray(quizzes.recurrenceId, rids)))[0]!.n;

describe('nightly series extension under faults', () => {
  it('two overlapping runs (the scheduled handler twice at once) add every occurrence exactly once', async () => {
    const now = new Date('2027-01-12T02:15:00Z'); // Tuesday 03:15 in Stockholm
    const today = '2027-01-12';
    const specs: SeriesSpec[] = [];
    for (let i = 0; i < 12; i++) {
      const first = addDaysUtc(today, 1 + (i % 7));
      const wd = weekdayOf(first);
      specs.push(
        i % 3 === 0
          ? { first, pattern: 'biweekly', days: [wd] }
          : i % 3 === 1
            ? { first, pattern: 'weekly', days: [wd, (wd + 2) % 7] }
            : { first, pattern: 'weekly', days: [wd], until: addDaysUtc(first, 60 + i) },
      );
    }
    const series = [];
    for (const spec of specs) series.push({ rid: await createSeries(spec), spec, existing: [spec.first] });

    await Promise.all([runNightly(env, now), runNightly(env, now), runSeriesExtensionJob({ db: testDb(), clock: pinnedClock(now) }, { pageSize: 2 })]);
    await expectExact(series, today);

    // A third run finds nothing to add.
    const before = await countAll(series.map((s) => s.rid));
    await runNightly(env, now);
    expect(await countAll(series.map((s) => s.rid))).toBe(before);
  });

  it('a run interrupted half way, then run again, leaves no series half extended', async () => {
    const now = new Date('2027-06-08T02:15:00Z');
    const today = '2027-06-08';
    const series = [];
    for (let i = 0; i < 9; i++) {
      const first = addDaysUtc(today, i % 5);
      const spec: SeriesSpec = { first, pattern: 'weekly', days: [weekdayOf(first)] };
      // One series already part extended by hand (as if a previous run had done part of it); still
      // within the 30-day extension threshold, so the job must finish it.
      const existing = i === 4 ? expectedDates(spec, addDaysUtc(today, 20)) : [first];
      series.push({ rid: await createSeries(spec, existing), spec, existing });
    }
    const db = testDb();
    const partial = await runSeriesExtensionJob({ db: db, clock: pinnedClock(now) }, { pageSize: 2, stopAfterPages: 2 });
    expect(partial.complete).toBe(false);
    const [interrupted] = await db.select().from(jobRuns).where(eq(jobRuns.id, partial.runId));
    expect(interrupted!.status).toBe('running');
    expect(interrupted!.cursor).toBe(partial.cursor);

    // The next run resumes from the cursor and finishes; a full run after it adds nothing.
    const resumed = await runSeriesExtensionJob({ db: db, clock: pinnedClock(now) });
    expect(resumed.resumedFrom).toBe(partial.cursor);
    expect(resumed.complete).toBe(true);
    await runNightly(env, now);
    await expectExact(series, today);
    const [last] = await db.select().from(jobRuns).where(eq(jobRuns.job, SERIES_JOB)).orderBy(sql`rowid DESC`).limit(1);
    expect(last!.status).toBe('done');
  });

  for (const night of [
    {
      label: 'spring forward 2026-03-29 (02:00 → 03:00)',
      before: '2026-03-29T00:30:00Z',
      after: '2026-03-29T01:30:00Z',
      cron: '2026-03-29T02:15:00Z',
      today: '2026-03-29',
      eveUtc: '2026-03-28T23:30:00Z',
    },
    {
      label: 'fall back 2026-10-25 (03:00 → 02:00, the hour repeats)',
      before: '2026-10-25T00:30:00Z',
      after: '2026-10-25T01:30:00Z',
      cron: '2026-10-25T02:15:00Z',
      today: '2026-10-25',
      eveUtc: '2026-10-24T23:30:00Z',
    },
  ]) {
    it(`runs on the night of the ${night.label}: same Stockholm date all night, nothing twice or missing`, async () => {
      const today = night.today; // a Sunday
      const specs: SeriesSpec[] = [
        // A Sunday series whose next occurrence is the DST day itself, one at the skipped/repeated hour.
        { first: addDaysUtc(today, -7), pattern: 'weekly', days: [0], startTime: '02:30:00' },
        { first: today, pattern: 'weekly', days: [0, 3] },
        { first: addDaysUtc(today, 1), pattern: 'biweekly', days: [1] },
        { first: addDaysUtc(today, -6), pattern: 'weekly', days: [1, 5], until: addDaysUtc(today, 40) },
      ];
      const series = [];
      for (const spec of specs) series.push({ rid: await createSeries(spec), spec, existing: [spec.first] });
      // 23:30 UTC on the eve is already the DST day in Stockholm (UTC+1 in March, UTC+2 in October).
      for (const instant of [night.eveUtc, night.before, night.after, night.cron]) {
        await runNightly(env, new Date(instant));
        const [run] = await testDb().select().from(jobRuns).where(eq(jobRuns.job, SERIES_JOB)).orderBy(sql`rowid DESC`).limit(1);
        expect(JSON.parse(run!.result ?? '{}').today, instant).toBe(today);
      }
      await expectExact(series, today);
      // The occurrence on the DST day keeps its local start time (no shift by the offset change).
      const [sunday] = await testDb().select().from(quizzes).where(sql`${quizzes.recurrenceId} = ${series[0]!.rid} AND ${quizzes.date} = ${today}`);
      expect(sunday?.startTime).toBe('02:30:00');
    });
  }
});
