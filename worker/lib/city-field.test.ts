import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { SEED_CITIES } from '../db/seed-data';
import { SCALE_CITIES } from '../db/seed';
import { CITY_MAX, cityField, optionalCityField, UNKNOWN_CITY_MESSAGE } from './city-field';
import { findTown } from './gazetteer';
import { CONTROL_CHARS_MESSAGE, ILL_FORMED_MESSAGE } from './zod-text';

/** Issue 43.6: what was accepted as a city before, and more. Each is refused with a Swedish message. */
export const HOSTILE_CITIES: Array<[what: string, value: string, message: string]> = [
  ['SQL', "' OR 1=1--", UNKNOWN_CITY_MESSAGE],
  ['markup', '<script>alert(1)</script>', UNKNOWN_CITY_MESSAGE],
  ['a town with markup', 'Stockholm<script>', UNKNOWN_CITY_MESSAGE],
  ['a town in markup', '<b>Stockholm</b>', UNKNOWN_CITY_MESSAGE],
  ['NaN', 'NaN', UNKNOWN_CITY_MESSAGE],
  ['a date', '2026-02-30', UNKNOWN_CITY_MESSAGE],
  ['a number', '123', UNKNOWN_CITY_MESSAGE],
  ['right-to-left override', '\u202EmlohkcotS', UNKNOWN_CITY_MESSAGE],
  ['RLO inside a town', 'Stock\u202Eholm', UNKNOWN_CITY_MESSAGE],
  ['zero-width space', 'Stock\u200Bholm', UNKNOWN_CITY_MESSAGE],
  ['lone surrogate', '\uD800', ILL_FORMED_MESSAGE],
  ['lone surrogate after a town', 'Stockholm\uDC00', ILL_FORMED_MESSAGE],
  ['mixed scripts (Cyrillic о)', 'St\u043Eckholm', UNKNOWN_CITY_MESSAGE],
  ['Greek', 'Αθήνα', UNKNOWN_CITY_MESSAGE],
  ['combining marks on a town', 'S\u0337t\u0337o\u0337c\u0337k\u0337h\u0337o\u0337l\u0337m\u0337', UNKNOWN_CITY_MESSAGE],
  ['punctuation around a town', '-Stockholm-', UNKNOWN_CITY_MESSAGE],
  ['a town and a word', 'Stockholm city', UNKNOWN_CITY_MESSAGE],
  ['an invented town', 'Teststad', UNKNOWN_CITY_MESSAGE],
  ['a foreign town', 'Oslo', UNKNOWN_CITY_MESSAGE],
  ['a URL', 'https://evil.example', UNKNOWN_CITY_MESSAGE],
  ['emoji', 'Stockholm 🍺', UNKNOWN_CITY_MESSAGE],
  ['NUL', 'Stock\u0000holm', CONTROL_CHARS_MESSAGE],
  ['a line break', 'Stock\nholm', CONTROL_CHARS_MESSAGE],
  ['empty', '', 'Ange stad'],
  ['white space only', '   ', 'Ange stad'],
  ['200 characters', 'a'.repeat(200), `Stad får vara högst ${CITY_MAX} tecken`],
  ['one past the limit', 'a'.repeat(CITY_MAX + 1), `Stad får vara högst ${CITY_MAX} tecken`],
];

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
