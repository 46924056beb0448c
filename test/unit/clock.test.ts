import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  addDays,
  createClock,
  isoWeekday,
  nextWeekdayOnOrAfter,
  startOfIsoWeek,
  stockholmInstant,
  stockholmOffset,
  zoneOffsetMs,
  zonedWallTimeToInstant,
} from '../../worker/lib/clock';
import { serializeForScript } from '../../worker/lib/json-ld';
import { slugify } from '../../worker/lib/slug';
import { categoryBadge, categoryLabel, displayPrice, displayTime } from '../../worker/lib/swedish';

describe('clock', () => {
  it('Sunday 2026-03-29 23:30 UTC is Monday 2026-03-30 in Stockholm', () => {
    const c = createClock('2026-03-29T23:30:00Z');
    expect(c.today()).toBe('2026-03-30');
    expect(isoWeekday(c.today())).toBe(1);
  });
  it('gives the real offset of each date around both daylight-saving switches', () => {
    expect(stockholmOffset('2026-03-28', '19:00:00')).toBe('+01:00');
    expect(stockholmOffset('2026-03-29', '19:00:00')).toBe('+02:00');
    expect(stockholmOffset('2026-10-24', '19:00:00')).toBe('+02:00');
    expect(stockholmOffset('2026-10-25', '19:00:00')).toBe('+01:00');
    expect(stockholmInstant('2026-07-01', '19:00:00').toISOString()).toBe('2026-07-01T17:00:00.000Z');
    expect(stockholmInstant('2026-12-01', '19:00').toISOString()).toBe('2026-12-01T18:00:00.000Z');
  });
  describe('pinned clock', () => {
    afterEach(() => vi.useRealTimers());
    it('<instant> is frozen', () => {
      vi.useFakeTimers({ now: new Date('2026-11-27T05:00:00Z') });
      const c = createClock('2026-10-25T00:30:00Z');
      vi.advanceTimersByTime(60_000);
      expect(c.now().toISOString()).toBe('2026-10-25T00:30:00.000Z');
    });
    it('<instant>@<real instant> runs on from the pinned instant, across the DST change', () => {
      vi.useFakeTimers({ now: new Date('2026-11-27T05:00:00Z') });
      // 02:30 CEST on the night the clocks go back; the wall clock read 05:00 UTC when it was pinned.
      const c = createClock('2026-10-25T00:30:00Z@2026-11-27T05:00:00Z');
      expect(c.now().toISOString()).toBe('2026-10-25T00:30:00.000Z');
      vi.advanceTimersByTime(90 * 60_000);
      expect(c.now().toISOString()).toBe('2026-10-25T02:00:00.000Z');
      expect(c.today()).toBe('2026-10-25');
      vi.advanceTimersByTime(21 * 3_600_000); // 23:00 UTC = 00:00 CET on Monday
      expect(c.today()).toBe('2026-10-26');
    });
    it('refuses a malformed pin', () => {
      expect(() => createClock('2026-10-25T00:30:00Z@igår')).toThrow(/CLOCK_NOW/);
      expect(() => createClock('a@b@c')).toThrow(/CLOCK_NOW/);
    });
  });
  it('does date arithmetic without DST drift', () => {
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2026-10-25', 7)).toBe('2026-11-01');
    expect(startOfIsoWeek('2026-11-22')).toBe('2026-11-16');
    expect(nextWeekdayOnOrAfter('2026-11-21', 2)).toBe('2026-11-24');
    expect(nextWeekdayOnOrAfter('2026-11-24', 2)).toBe('2026-11-24');
  });
});

describe('slugs and Swedish display', () => {
  it('slugifies å, ä, ö and spaces', () => {
    expect(slugify('Göteborg')).toBe('goteborg');
    expect(slugify('Malmö')).toBe('malmo');
    expect(slugify('Västerås')).toBe('vasteras');
    expect(slugify('Bishops Arms Järntorget')).toBe('bishops-arms-jarntorget');
  });
  it('labels categories as spec 01 §3', () => {
    expect(categoryLabel('allmänquiz')).toBe('Allmänbildning');
    expect(categoryLabel('tema', 'Musik')).toBe('Tema: Musik');
    expect(categoryLabel('tema')).toBe('Tema');
    expect(categoryLabel('filmquiz')).toBe('Tema: Film & TV');
    expect(categoryLabel(null)).toBe('Quiz');
    expect(displayTime(null)).toBe('19:00');
    expect(displayTime('18:30:00')).toBe('18:30');
    // Unknown is not free (issue 44.3): no price says so, no category has no badge.
    expect(displayPrice(null)).toBe('Pris ej angivet');
    expect(displayPrice(0)).toBe('Gratis');
    expect(displayPrice(40)).toBe('40 kr');
    expect(categoryBadge(null)).toBeNull();
    expect(categoryBadge('  ')).toBeNull();
    expect(categoryBadge('allmänbildning')).toBe('Allmänbildning');
  });
  it('serializes JSON for script elements so it cannot close the tag', () => {
    const out = serializeForScript({ d: '</script><script>alert(1)</script>\u2028&' });
    expect(out).not.toContain('</script>');
    expect(out).not.toContain('\u2028');
    expect(JSON.parse(out)).toEqual({ d: '</script><script>alert(1)</script>\u2028&' });
  });
});

describe('zone offsets (the one tz-parts formatter, issue 28.7)', () => {
  it("converts a wall time in any known zone, with that day's offset", () => {
    expect(new Date(zonedWallTimeToInstant(Date.UTC(2027, 0, 5, 19, 0), 'Europe/London')!).toISOString()).toBe('2027-01-05T19:00:00.000Z');
    expect(new Date(zonedWallTimeToInstant(Date.UTC(2026, 6, 1, 19, 0), 'Europe/Stockholm')!).toISOString()).toBe('2026-07-01T17:00:00.000Z');
    expect(new Date(zonedWallTimeToInstant(Date.UTC(2026, 2, 9, 19, 0), 'America/New_York')!).toISOString()).toBe('2026-03-09T23:00:00.000Z');
    expect(zoneOffsetMs('Europe/Stockholm', Date.UTC(2026, 0, 15))).toBe(3_600_000);
  });
  it('answers null for a zone the runtime does not know', () => {
    expect(zoneOffsetMs('Customized Time Zone', 0)).toBeNull();
    expect(zonedWallTimeToInstant(0, 'Nowhere/Atlantis')).toBeNull();
  });
});
