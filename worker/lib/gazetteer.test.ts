import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { buildGazetteer, slugify as scriptSlugify } from '../../scripts/build-gazetteer.mjs';
import { townCentre } from './gazetteer';
import { slugify } from './slug';

describe('gazetteer', () => {
  it('finds towns with å/ä/ö by name as written and by slug', () => {
    expect(townCentre('Västerås')).toMatchObject({ name: 'Västerås' });
    expect(townCentre('vasteras')).toEqual(townCentre('Västerås'));
    expect(townCentre('Umeå')!.lat).toBeCloseTo(63.83, 1);
    expect(townCentre('MALMÖ')!.lng).toBeCloseTo(13.0, 1);
    expect(townCentre('Örebro')).toMatchObject({ name: 'Örebro' });
    // GeoNames calls it Gothenburg; the alias gives the name people write.
    expect(townCentre('Göteborg')).toMatchObject({ name: 'Göteborg' });
    expect(townCentre('Atlantis')).toBeNull();
  });
  it('every town lies inside Sweden', () => {
    for (const slug of ['stockholm', 'goteborg', 'kiruna', 'ystad', 'visby']) {
      const t = townCentre(slug)!;
      expect(t.lat).toBeGreaterThan(55);
      expect(t.lat).toBeLessThan(69.1);
    }
  });
  it('the build script slugs exactly like worker/lib/slug.ts', () => {
    for (const s of ['Göteborg', 'Västerås', 'Skärholmen Centrum', 'Åre', 'Malmö C', "Hjo's"]) expect(scriptSlugify(s)).toBe(slugify(s));
  });
  it('keeps the more precise of two localities with one slug and filters to Sweden', () => {
    const g = buildGazetteer([
      { name: 'Viken', lat: '64.7', lng: '20.9', country: 'SE', admin1: '23' },
      { name: 'Viken', lat: '56.15063', lng: '12.57429', country: 'SE', admin1: '27' },
      { name: 'Oslo', lat: '59.9', lng: '10.7', country: 'NO', admin1: '12' },
    ]);
    expect(g).toEqual({ viken: { name: 'Viken', lat: 56.15063, lng: 12.57429 } });
  });
});
