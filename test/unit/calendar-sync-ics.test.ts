import { describe, expect, it } from 'vitest';
import { FeedTooComplexError, isRealDateValue, mapCalendar, REASONS } from '../../worker/features/calendar-sync/ics';
import { fingerprint } from '../../worker/features/calendar-sync/fingerprint';
import { MAX_OCCURRENCES_PER_FEED, MAX_RECURRENCE_STEPS_PER_FEED, SYNC_HORIZON_DAYS } from '../../worker/features/calendar-sync/contract';
import { addDays } from '../../worker/lib/clock';
import { HOSTILE_RULES, hostileCalendar } from '../fixtures/hostile-calendar';

const cal = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR'].join('\r\n');
const ev = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20261101T000000Z', ...lines, 'END:VEVENT'].join('\r\n');
// Tuesday 2026-12-01 is "today" in these tests (pure function: today is an argument).
const TODAY = '2026-12-01';

describe('mapCalendar (issue 31.2)', () => {
  it('maps a weekly rule with TZID, EXDATE and a moved occurrence', () => {
    const m = mapCalendar(
      cal(
        ev(
          'UID:tue@x',
          'SUMMARY:Tisdagsquiz',
          'DTSTART;TZID=Europe/Stockholm:20261201T190000',
          'RRULE:FREQ=WEEKLY;COUNT=4',
          'EXDATE;TZID=Europe/Stockholm:20261208T190000',
        ),
        ev('UID:tue@x', 'SUMMARY:Julquiz', 'RECURRENCE-ID;TZID=Europe/Stockholm:20261215T190000', 'DTSTART;TZID=Europe/Stockholm:20261215T200000'),
      ),
      TODAY,
    );
    expect(m.notUnderstood).toEqual([]);
    expect(m.occurrences.map((o) => [o.key, o.date, o.startTime, o.title])).toEqual([
      ['tue@x|2026-12-01', '2026-12-01', '19:00:00', 'Tisdagsquiz'],
      ['tue@x|2026-12-15', '2026-12-15', '20:00:00', 'Julquiz'],
      ['tue@x|2026-12-22', '2026-12-22', '19:00:00', 'Tisdagsquiz'],
    ]);
    // COUNT=4: the series ends at its fourth date, not at the sync horizon (issue 44.3).
    expect(m.occurrences[0]!.series).toEqual({ pattern: 'weekly', days: [2], until: '2026-12-22' });
    expect(m.events[0]).toMatchObject({ kind: 'weekly', occurrences: 3, excludedDates: ['2026-12-08'], startTime: '19:00' });
  });

  it('maps every other week (INTERVAL=2) with BYDAY and UNTIL', () => {
    const m = mapCalendar(cal(ev('UID:b@x', 'SUMMARY:Q', 'DTSTART:20261203T180000Z', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;UNTIL=20261231T235959Z')), TODAY);
    expect(m.occurrences.map((o) => o.date)).toEqual(['2026-12-03', '2026-12-17', '2026-12-31']);
    // 18:00 UTC in winter is 19:00 in Stockholm.
    expect(m.occurrences[0]!.startTime).toBe('19:00:00');
    // UNTIL (2027-01-01 00:59 in Stockholm): the series ends at its last date before it (issue 44.3).
    expect(m.occurrences[0]!.series).toEqual({ pattern: 'biweekly', days: [4], until: '2026-12-31' });
  });

  it('converts UTC and other zones to Stockholm time, across DST', () => {
    const m = mapCalendar(
      cal(
        ev('UID:s1', 'SUMMARY:Sommar', 'DTSTART:20270401T170000Z'),
        ev('UID:s2', 'SUMMARY:London', 'DTSTART;TZID=Europe/London:20270105T190000'),
        ev('UID:s3', 'SUMMARY:Flytande', 'DTSTART:20270106T193000'),
        ev('UID:s4', 'SUMMARY:Sent', 'DTSTART:20261231T233000Z'),
      ),
      TODAY,
    );
    const by = Object.fromEntries(m.occurrences.map((o) => [o.uid, [o.date, o.startTime]]));
    expect(by).toEqual({
      s1: ['2027-04-01', '19:00:00'],
      s2: ['2027-01-05', '20:00:00'],
      s3: ['2027-01-06', '19:30:00'],
      s4: ['2027-01-01', '00:30:00'],
    });
  });

  it('uses the calendar own VTIMEZONE for a non-IANA TZID', () => {
    const tz = [
      'BEGIN:VTIMEZONE',
      'TZID:Customized Time Zone',
      'BEGIN:STANDARD',
      'DTSTART:16010101T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0000',
      'END:STANDARD',
      'END:VTIMEZONE',
    ].join('\r\n');
    const m = mapCalendar(cal(tz, ev('UID:c', 'SUMMARY:C', 'DTSTART;TZID=Customized Time Zone:20261210T180000')), TODAY);
    expect(m.occurrences[0]).toMatchObject({ date: '2026-12-10', startTime: '19:00:00' });
  });

  it('lists what it does not understand, and skips past and cancelled events', () => {
    const m = mapCalendar(
      cal(
        ev('UID:d', 'SUMMARY:Daglig', 'DTSTART:20261201T180000Z', 'RRULE:FREQ=DAILY'),
        ev('UID:m', 'SUMMARY:Månad', 'DTSTART:20261201T180000Z', 'RRULE:FREQ=MONTHLY;BYDAY=1TU'),
        ev('UID:w3', 'SUMMARY:Var tredje', 'DTSTART:20261201T180000Z', 'RRULE:FREQ=WEEKLY;INTERVAL=3'),
        ev('UID:a', 'SUMMARY:Heldag', 'DTSTART;VALUE=DATE:20261205'),
        ev('SUMMARY:Utan uid', 'DTSTART:20261205T180000Z'),
        ev('UID:old', 'SUMMARY:Förr', 'DTSTART:20201205T180000Z'),
        ev('UID:c', 'SUMMARY:Inställd', 'STATUS:CANCELLED', 'DTSTART:20261205T180000Z'),
      ),
      TODAY,
    );
    expect(m.occurrences).toEqual([]);
    expect(m.notUnderstood.map((n) => [n.uid, n.reason])).toEqual([
      [null, REASONS.noUid],
      ['d', REASONS.rule],
      ['m', REASONS.rule],
      ['w3', REASONS.rule],
      ['a', REASONS.allDay],
    ]);
  });

  it('throws on text that is not a calendar', () => {
    expect(() => mapCalendar('<html>hej</html>', TODAY)).toThrow();
    expect(() => mapCalendar('BEGIN:VCARD\r\nEND:VCARD', TODAY)).toThrow();
  });

  it('bounds a huge calendar: 10 000 events give at most the occurrence limit', () => {
    const events = Array.from({ length: 10_000 }, (_, i) => ev(`UID:e${i}`, `SUMMARY:Q${i}`, `DTSTART:2027${String((i % 12) + 1).padStart(2, '0')}10T180000Z`));
    const m = mapCalendar(cal(...events), TODAY);
    expect(m.truncated).toBe(true);
    expect(m.occurrences.length).toBe(MAX_OCCURRENCES_PER_FEED);
  }, 30_000);

  it('fingerprints what was written', () => {
    const q = { date: '2026-12-01', startTime: '19:00:00', title: 'A', description: null, isCancelled: false };
    expect(fingerprint(q)).toBe(fingerprint({ ...q }));
    expect(fingerprint(q)).not.toBe(fingerprint({ ...q, isCancelled: true }));
  });
});

describe('the quiz language from LANGUAGE (issue 31.3)', () => {
  it('reads SUMMARY, then DESCRIPTION, then the calendar name; a moved occurrence may say its own; svenska when none', () => {
    const text = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'X-WR-CALNAME;LANGUAGE=en-GB:Pub quizzes',
      ev('UID:a', 'SUMMARY;LANGUAGE=sv-SE:Tisdagsquiz', 'DTSTART:20261201T180000Z'),
      ev('UID:b', 'SUMMARY:Quiz night', 'DESCRIPTION;LANGUAGE=en:In English', 'DTSTART:20261202T180000Z'),
      ev('UID:c', 'SUMMARY:Quiz', 'DTSTART:20261203T180000Z'),
      ev('UID:d', 'SUMMARY;LANGUAGE=en:Weekly', 'DTSTART;TZID=Europe/Stockholm:20261204T190000', 'RRULE:FREQ=WEEKLY;COUNT=2'),
      ev('UID:d', 'SUMMARY;LANGUAGE=sv:Julquiz', 'RECURRENCE-ID;TZID=Europe/Stockholm:20261211T190000', 'DTSTART;TZID=Europe/Stockholm:20261211T190000'),
      'END:VCALENDAR',
    ].join('\r\n');
    const m = mapCalendar(text, TODAY);
    expect(m.occurrences.map((o) => [o.key, o.language])).toEqual([
      ['a', 'sv'],
      ['b', 'en'],
      ['c', 'en'],
      ['d|2026-12-04', 'en'],
      ['d|2026-12-11', 'sv'],
    ]);
    const plain = mapCalendar(cal(ev('UID:x', 'SUMMARY;LANGUAGE=de:Quiz', 'DTSTART:20261201T180000Z')), TODAY);
    expect(plain.occurrences[0]!.language).toBe('sv');
  });

  it('a Swedish quiz keeps the fingerprint it had before languages existed', () => {
    const q = { date: '2026-12-01', startTime: '19:00:00', title: 'Q', description: null, isCancelled: false };
    expect(fingerprint({ ...q, language: 'sv' })).toBe(fingerprint(q));
    expect(fingerprint({ ...q, language: 'en' })).not.toBe(fingerprint(q));
    expect(fingerprint({ ...q, language: 'both' })).not.toBe(fingerprint({ ...q, language: 'en' }));
  });
});

describe('open-ended rules from long ago (issue 42.2)', () => {
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
  /** Every date of the sync window (today … today + horizon) for which `keep` holds. */
  const windowDates = (keep: (d: string) => boolean) => {
    const out: string[] = [];
    for (let i = 0; i <= SYNC_HORIZON_DAYS; i++) if (keep(addDays(TODAY, i))) out.push(addDays(TODAY, i));
    return out;
  };
  /** A rule's steps from near today: a few weeks before it, up to the horizon, at most `perWeek` a week. */
  const fewSteps = (rules: number, perWeek: number) => rules * perWeek * Math.ceil((SYNC_HORIZON_DAYS + 35) / 7);

  it('a weekly rule from 1990 is expanded from near today: a few dozen steps, the dates and DST times of the whole rule', () => {
    const m = mapCalendar(cal(ev('UID:mon@x', 'SUMMARY:Måndagsquiz', 'DTSTART:19900101T180000Z', 'RRULE:FREQ=WEEKLY', 'EXDATE:20261214T180000Z')), TODAY);
    const mondays = windowDates((d) => (day(d) - day('1990-01-01')) % 7 === 0 && d !== '2026-12-14');
    expect(m.occurrences.map((o) => o.date)).toEqual(mondays);
    // 18:00 UTC is 19:00 in winter and 20:00 in summer (after 2027-03-28).
    expect(m.occurrences.find((o) => o.date === '2027-03-22')!.startTime).toBe('19:00:00');
    expect(m.occurrences.find((o) => o.date === '2027-03-29')!.startTime).toBe('20:00:00');
    expect(m.events[0]!.excludedDates).toEqual(['2026-12-14']);
    // From 1990 it took ~1 900 steps; from near today about 30.
    expect(m.steps).toBeLessThanOrEqual(fewSteps(1, 1));
  });

  it('every other week keeps its parity when moved forward (BYDAY=TH,SA, Stockholm time)', () => {
    const m = mapCalendar(cal(ev('UID:bi@x', 'SUMMARY:Q', 'DTSTART;TZID=Europe/Stockholm:19900104T190000', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TH,SA')), TODAY);
    const expected = windowDates((d) => [0, 2].includes((day(d) - day('1990-01-04')) % 14));
    expect(m.occurrences.map((o) => o.date)).toEqual(expected);
    expect(new Set(m.occurrences.map((o) => o.startTime))).toEqual(new Set(['19:00:00']));
    expect(m.steps).toBeLessThanOrEqual(fewSteps(1, 1));
  });

  it('an occurrence moved from weeks ago into the window is still found', () => {
    const m = mapCalendar(
      cal(
        ev('UID:mon@x', 'SUMMARY:Måndagsquiz', 'DTSTART:19900101T180000Z', 'RRULE:FREQ=WEEKLY'),
        ev('UID:mon@x', 'SUMMARY:Flyttad', 'RECURRENCE-ID:20261019T180000Z', 'DTSTART:20261203T180000Z'),
      ),
      TODAY,
    );
    expect(m.occurrences.filter((o) => o.title === 'Flyttad').map((o) => [o.key, o.date])).toEqual([['mon@x|2026-10-19', '2026-12-03']]);
  });

  it('a COUNT rule is expanded from its first date (its count starts there)', () => {
    const m = mapCalendar(cal(ev('UID:c@x', 'SUMMARY:Q', 'DTSTART:20250106T180000Z', 'RRULE:FREQ=WEEKLY;COUNT=100')), TODAY);
    // 2025-01-06 + 99 weeks = 2026-11-30: the last one is yesterday, none is left.
    expect(m.occurrences).toEqual([]);
    const more = mapCalendar(cal(ev('UID:c@x', 'SUMMARY:Q', 'DTSTART:20250106T180000Z', 'RRULE:FREQ=WEEKLY;COUNT=102')), TODAY);
    expect(more.occurrences.map((o) => o.date)).toEqual(['2026-12-07', '2026-12-14']);
  });

  it(`many rules stay within the feed's step budget (${MAX_RECURRENCE_STEPS_PER_FEED})`, () => {
    const m = mapCalendar(hostileCalendar(300), TODAY);
    expect(m.steps).toBeLessThanOrEqual(fewSteps(300, 1));
    expect(m.steps).toBeLessThanOrEqual(MAX_RECURRENCE_STEPS_PER_FEED);
    expect(m.occurrences).toHaveLength(MAX_OCCURRENCES_PER_FEED);
    expect(m.truncated).toBe(true);
  });

  it(`the hostile calendar (${HOSTILE_RULES} open-ended weekly rules from 1990, ~279 KB) is refused after the step budget`, () => {
    const text = hostileCalendar();
    expect(new TextEncoder().encode(text).length).toBeGreaterThan(270_000);
    let thrown: unknown;
    try {
      mapCalendar(text, TODAY);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(FeedTooComplexError);
    expect((thrown as FeedTooComplexError).steps).toBe(MAX_RECURRENCE_STEPS_PER_FEED);
  });
});

describe('dates that do not exist (issue 43.5)', () => {
  it.each([
    ['2026-12-01', true],
    ['2026-12-01T19:00:00', true],
    ['2026-12-01T19:00:00Z', true],
    ['2028-02-29', true],
    ['2026-12-31T23:59:60Z', true],
    ['2026-13-99T25:61:99', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-02-29', false],
    ['2026-04-31T19:00:00', false],
    ['2026-12-00', false],
    ['2026-12-01T24:00:00', false],
    ['2026-12-01T19:60:00', false],
    ['2026-12-01T19:00:61', false],
    ['0099-12-01', false],
    ['2026-12-1', false],
    ['2026-12-01T19:00', false],
    ['', false],
    [null, false],
  ])('%s → %s', (value, real) => {
    expect(isRealDateValue(value)).toBe(real);
  });

  it("the issue's DTSTART:20261399T256199 is not understood (it became a quiz on 2027-04-10 02:02); so is a bad EXDATE; the rest is kept", () => {
    const m = mapCalendar(
      cal(
        ev('UID:bad', 'SUMMARY:Trasig', 'DTSTART:20261399T256199'),
        ev('UID:dec', 'SUMMARY:Decemberquiz', 'DTSTART:20261299T190000'),
        ev('UID:ex', 'SUMMARY:Veckoquiz', 'DTSTART:20261201T190000', 'RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20261208T190000,20261232T190000'),
        ev('UID:ok', 'SUMMARY:Julquiz', 'DTSTART:20261222T190000'),
      ),
      '2026-12-01',
    );
    expect(m.occurrences.map((o) => [o.uid, o.date, o.startTime])).toEqual([['ok', '2026-12-22', '19:00:00']]);
    expect(m.notUnderstood).toEqual([
      { uid: 'bad', title: 'Trasig', reason: `${REASONS.invalidDate} (DTSTART)` },
      { uid: 'dec', title: 'Decemberquiz', reason: `${REASONS.invalidDate} (DTSTART)` },
      { uid: 'ex', title: 'Veckoquiz', reason: `${REASONS.invalidDate} (EXDATE)` },
    ]);
  });
});

describe("a rule's real end (issue 44.3)", () => {
  const rule = (r: string) => mapCalendar(cal(ev('UID:c@x', 'SUMMARY:Q', 'DTSTART;TZID=Europe/Stockholm:20261201T190000', r)), TODAY);
  it('COUNT past the sync horizon: its last date, though the occurrences stop at the horizon', () => {
    const m = rule('RRULE:FREQ=WEEKLY;COUNT=100');
    expect(m.occurrences.at(-1)!.date <= addDays(TODAY, SYNC_HORIZON_DAYS)).toBe(true);
    expect(m.occurrences[0]!.series!.until).toBe('2028-10-24');
  });
  it('a COUNT too long to read within the step bound keeps an unknown end (null), never the horizon', () => {
    const m = rule('RRULE:FREQ=WEEKLY;COUNT=100000');
    expect(m.occurrences.length).toBeGreaterThan(0);
    expect(m.occurrences[0]!.series!.until).toBeNull();
    expect(m.steps).toBeLessThanOrEqual(MAX_RECURRENCE_STEPS_PER_FEED);
  });
  it('an open rule has no end', () => {
    expect(rule('RRULE:FREQ=WEEKLY').occurrences[0]!.series!.until).toBeNull();
  });
});
