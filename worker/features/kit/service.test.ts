import { describe, expect, it } from 'vitest';
import { sourceMetric } from '../../lib/analytics-metrics';
import { contrastRatio, KIT_COLORS, KIT_TEXT_PAIRS, WCAG_AA_TEXT } from './look';
import { KIT_FILES, kitFilesFor } from './contract';
import { taggedVenueUrl, whenText } from './service';

const occ = (over: Partial<Parameters<typeof whenText>[0]> = {}) => ({
  date: '2030-01-08',
  startTime: '19:30:00',
  recurrenceId: 'r1',
  recurrencePattern: 'weekly' as const,
  recurrenceDays: '["tisdag"]',
  ...over,
});

describe('owner kit texts (issue 48.7)', () => {
  it('a series shows its rhythm; a single quiz its date in Swedish words', () => {
    expect(whenText(occ(), 'series')).toBe('Varje tisdag 19:30');
    expect(whenText(occ({ recurrencePattern: 'biweekly' }), 'series')).toBe('Varannan tisdag 19:30');
    expect(whenText(occ({ recurrenceDays: '["torsdag","tisdag","lördag"]' }), 'series')).toBe('Varje tisdag, torsdag och lördag 19:30');
    expect(whenText(occ({ recurrenceDays: null, date: '2030-01-10', startTime: null }), 'series')).toBe('Varje torsdag 19:00');
    expect(whenText(occ({ recurrenceId: null, date: '2030-02-14', startTime: '20:00:00' }), 'quiz')).toBe('Torsdag 14 februari 20:00');
    // The stored day is a Stockholm calendar day: the last Sunday of March (DST starts) stays a Sunday.
    expect(whenText(occ({ recurrenceId: null, date: '2030-03-31', startTime: '02:30:00' }), 'quiz')).toBe('Söndag 31 mars 02:30');
  });

  it('the venue link carries the source tag, path segments encoded', () => {
    expect(taggedVenueUrl('https://quizkvall.se/', 'goteborg', 'puben', 'bordsskylt')).toBe('https://quizkvall.se/quiz/goteborg/puben?src=bordsskylt');
    expect(taggedVenueUrl('https://quizkvall.se', 'a b', 'c/d', 'instagram')).toBe('https://quizkvall.se/quiz/a%20b/c%2Fd?src=instagram');
  });

  it('the top 3 items are offered only for a unit with results', () => {
    expect(kitFilesFor({ results: false })).toEqual(['affisch.pdf', 'bordsskylt.pdf', 'instagram-inlagg.png', 'instagram-story.png']);
    expect(kitFilesFor({ results: true })).toEqual(KIT_FILES);
    expect(KIT_FILES).toEqual(expect.arrayContaining(['topp3-inlagg.png', 'topp3-story.png']));
  });

  it('only the three kit tags are sources', () => {
    expect(['affisch', 'bordsskylt', 'instagram'].map(sourceMetric)).toEqual(['src_affisch', 'src_bordsskylt', 'src_instagram']);
    for (const other of [null, '', 'facebook', 'AFFISCH', 'affisch ', '__proto__']) expect(sourceMetric(other)).toBeNull();
  });
});

describe('owner kit colours: WCAG AA', () => {
  it('the contrast formula matches known values', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2); // the lightest grey that passes AA on white
  });

  it(`every text/background pair the kit draws has at least ${WCAG_AA_TEXT}:1`, () => {
    for (const [text, bg] of KIT_TEXT_PAIRS) {
      expect(contrastRatio(KIT_COLORS[text], KIT_COLORS[bg]), `${text} on ${bg}`).toBeGreaterThanOrEqual(WCAG_AA_TEXT);
    }
  });

  it('the templates use only the palette, and every colour pair they draw is listed', async () => {
    const { readFileSync } = await import('node:fs');
    const src = ['images.tsx', 'renderer.ts'].map((f) => readFileSync(new URL(`./${f}`, import.meta.url), 'utf8')).join('\n');
    expect(src.match(/#[0-9a-f]{3,8}\b/gi) ?? [], 'no colour literals outside look.ts').toEqual([]);
    // Text colours on the indigo background (images, poster band) and on white paper (poster body).
    const listed = new Set(KIT_TEXT_PAIRS.map(([t, b]) => `${t}/${b}`));
    for (const t of ['white', 'lilac', 'paleAmber']) expect(listed.has(`${t}/indigo`), `${t}/indigo`).toBe(true);
    for (const t of ['ink', 'indigo', 'slate']) expect(listed.has(`${t}/white`), `${t}/white`).toBe(true);
    expect(listed.has('ink/amber')).toBe(true);
  });
});
