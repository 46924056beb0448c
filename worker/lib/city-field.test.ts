import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { SEED_CITIES } from '../db/seed-data';
import { SCALE_CITIES } from '../db/seed';
import { HOSTILE_CITIES } from '../../test/fixtures/hostile-cities';
import { CITY_MAX, cityField, optionalCityField, UNKNOWN_CITY_MESSAGE } from './city-field';
import { findTown } from './gazetteer';
import { ILL_FORMED_MESSAGE } from './zod-text';

const messages = (schema: z.ZodType, v: unknown) => (schema.safeParse(v).error?.issues ?? []).map((i) => i.message);

describe('findTown: the gazetteer by a name as typed (issue 43.6)', () => {
  it.each([
    ['Stockholm', 'Stockholm'],
    ['stockholm', 'Stockholm'],
    ['STOCKHOLM', 'Stockholm'],
    ['  Stockholm  ', 'Stockholm'],
    ['göteborg', 'Göteborg'],
    ['Goteborg', 'Göteborg'],
    ['GÖTEBORG', 'Göteborg'],
    ['malmo', 'Malmö'],
    ['Vasteras', 'Västerås'],
    ['umea', 'Umeå'],
    // Decomposed ö (o + U+0308), as some keyboards and pastes give it.
    ['Malmo\u0308', 'Malmö'],
    ['Bräkne-Hoby', 'Bräkne-Hoby'],
    ['bräkne  hoby', 'Bräkne-Hoby'],
    ['Åkers Styckebruk', 'Åkers Styckebruk'],
    ['akers-styckebruk', 'Åkers Styckebruk'],
  ])('%s → %s', (typed, name) => {
    expect(findTown(typed)?.name).toBe(name);
  });

  it.each(HOSTILE_CITIES.filter(([, v]) => v.trim() && v.length <= CITY_MAX))('refuses %s', (_, value) => {
    expect(findTown(value)).toBeNull();
  });

  it('knows every city of the demo data and the scale seed', () => {
    for (const name of [...SEED_CITIES.map((c) => c.name), ...SCALE_CITIES]) expect(findTown(name)?.name).toBe(name);
  });
});

describe('cityField: one rule for every form, the CSV import and the tips', () => {
  const schema = z.object({ city: cityField() });

  it('stores the gazetteer spelling', () => {
    expect(schema.parse({ city: ' goteborg ' }).city).toBe('Göteborg');
    expect(schema.parse({ city: 'VÄXJÖ' }).city).toBe('Växjö');
  });

  it.each(HOSTILE_CITIES)('refuses %s with a Swedish message', (_, value, message) => {
    expect(messages(schema, { city: value })).toEqual([message]);
  });

  it('refuses a missing city and a non-string', () => {
    expect(messages(schema, {})).toEqual(['Ange stad']);
    expect(messages(schema, { city: 42 })).toEqual(['Ange stad']);
  });

  it('optional: empty is null, a town is its spelling, garbage is refused', () => {
    const opt = z.object({ city: optionalCityField() });
    expect(opt.parse({}).city).toBeNull();
    expect(opt.parse({ city: null }).city).toBeNull();
    expect(opt.parse({ city: '  ' }).city).toBeNull();
    expect(opt.parse({ city: 'lund' }).city).toBe('Lund');
    expect(messages(opt, { city: "' OR 1=1--" })).toEqual([UNKNOWN_CITY_MESSAGE]);
    expect(messages(opt, { city: '\uD800' })).toEqual([ILL_FORMED_MESSAGE]);
  });
});
