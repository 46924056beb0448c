/**
 * The one city rule (issue 43.6): a place's town is a known Swedish locality from the gazetteer the app
 * ships (lib/gazetteer.ts), stored in the gazetteer's spelling — never free text. Every write of a city
 * uses it: the owner's register / place / business forms, the CSV import and the tips, on the Worker and
 * in the web forms alike (zod only, plus the gazetteer's JSON).
 */
import * as z from 'zod';
import { findTown } from './gazetteer';
import { textField } from './zod-text';

export const CITY_MAX = 80;
export const UNKNOWN_CITY_MESSAGE = 'Okänd ort – skriv en svensk stad eller tätort, t.ex. Göteborg';

/** The gazetteer's spelling of a typed town, or an issue. Runs after the text rules (trimmed, one line, ≤ CITY_MAX). */
const toTown = (v: string, ctx: z.RefinementCtx) => {
  const town = findTown(v);
  if (town) return town.name;
  ctx.addIssue({ code: 'custom', message: UNKNOWN_CITY_MESSAGE });
  return z.NEVER;
};

/** A required city: "stockholm" → "Stockholm", "Goteborg" → "Göteborg"; anything else is refused. */
export const cityField = (label = 'Stad', missing = 'Ange stad') => textField(label, CITY_MAX, { missing }).transform(toTown).describe(label);

/** An optional city: '' / null / missing → null, else as `cityField`. */
export const optionalCityField = (label = 'Stad') =>
  textField(label, CITY_MAX)
    .transform((v, ctx) => (v ? toTown(v, ctx) : null))
    .nullish()
    .transform((v) => v ?? null)
    .describe(label);
