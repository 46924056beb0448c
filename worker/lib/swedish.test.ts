import { describe, expect, it, vi } from 'vitest';
import { countText, dateInWords, displayDate, findWeekday, freshnessLine, shortDate, WEEKDAY_NAMES, weekdayOfSunday0 } from './swedish';

describe('countText: the one plural rule (issue 44.9)', () => {
  it('uses the singular for exactly one, the plural for zero and more', () => {
    expect(countText(1, 'ställe', 'ställen')).toBe('1 ställe');
    expect(countText(0, 'ställe', 'ställen')).toBe('0 ställen');
    expect(countText(2, 'meddelande', 'meddelanden')).toBe('2 meddelanden');
    expect(countText(1, 'vecka', 'veckor')).toBe('1 vecka');
  });
});

describe('the weekday vocabulary', () => {
  it('ISO order, Monday first; Sunday-first numbers map through weekdayOfSunday0', () => {
    expect(WEEKDAY_NAMES).toEqual(['måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag', 'söndag']);
    expect(weekdayOfSunday0(0).name).toBe('söndag');
    expect(weekdayOfSunday0(1).name).toBe('måndag');
    expect(weekdayOfSunday0(6).name).toBe('lördag');
    expect(findWeekday(' Lordag ')?.iso).toBe(6);
    expect(findWeekday('sön')).toBeUndefined();
  });
});

describe('dates in words (issue 29.13: without Intl, so the public page loads no locale data)', () => {
  const sv = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('sv-SE', { ...o, timeZone: 'UTC' });
  const long = sv({ weekday: 'long', day: 'numeric', month: 'long' });
  const longYear = sv({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const full = sv({ day: 'numeric', month: 'long', year: 'numeric' });

  it("write what Intl's sv-SE writes, every day of 2024–2031", () => {
    for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2032, 0, 1); ms += 86_400_000) {
      const d = new Date(ms);
      const iso = d.toISOString().slice(0, 10);
      expect(displayDate(iso)).toBe(long.format(d));
      expect(dateInWords(iso, 2023)).toBe(longYear.format(d));
      expect(dateInWords(iso, d.getUTCFullYear())).toBe(long.format(d));
      expect(freshnessLine({ confirmedOn: iso, publicSources: false })).toBe(`Senast bekräftad ${full.format(d)}`);
    }
    expect(displayDate('2026-11-26')).toBe('torsdag 26 november');
    expect(dateInWords('2027-05-27', 2026)).toBe('torsdag 27 maj 2027');
    expect(dateInWords('2026-02-30')).toBeNull();
  });

  it('shortDate: "3 dec", the year only when it is another (issue 44.9: the calendar-sync preview)', () => {
    expect(shortDate('2026-12-03', 2026)).toBe('3 dec');
    expect(shortDate('2026-12-03')).toBe('3 dec');
    expect(shortDate('2027-01-14', 2026)).toBe('14 jan 2027');
    expect(shortDate('2026-09-30', 2026)).toBe('30 sep');
    expect(shortDate('inte ett datum', 2026)).toBe('inte ett datum');
  });

  it('construct no Intl.DateTimeFormat (the first one of a page loads ICU data on the main thread)', async () => {
    vi.resetModules();
    const spy = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const m = await import('./swedish');
      m.displayDate('2026-11-26');
      m.dateInWords('2027-05-27', 2026);
      m.freshnessLine({ confirmedOn: '2026-11-03', publicSources: false });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
