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
 */
const COLS = 'key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text';
const UPD = 'recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text';
const TEXT = (w) => `(SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE ${w}))`;
// A series unit is one series at one place (spec 01 §4 "per series and place"): key = rid@location.
const SKEY = (R, L) => `${R} || '@' || ${L}`;
const refreshSeries = (R, L) => `  DELETE FROM listing_series WHERE key = ${SKEY(R, L)}
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = ${R} AND location_id = ${L});
  INSERT INTO listing_series (${COLS})
    SELECT ${SKEY('q.recurrence_id', 'q.location_id')}, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = ${R} AND location_id = ${L})),
      abs(random() % 2147483648), v.name || ' | ' || l.name, ${TEXT(`recurrence_id = ${R} AND location_id = ${L}`)}
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = ${R} AND q.location_id = ${L} ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET ${UPD};`;
const refreshSingle = (S) => `  DELETE FROM listing_series WHERE key = ${S}
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = ${S} AND recurrence_id IS NULL);
  INSERT INTO listing_series (${COLS})
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, '')
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = ${S} AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET ${UPD};`;
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
const refresh = (R) => `${refreshSeries(`${R}.recurrence_id`, `${R}.location_id`)}
${refreshSingle(`${R}.id`)}`;

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

CREATE TRIGGER listing_series_quiz_ai AFTER INSERT ON quizzes BEGIN
${refresh('NEW')}
END;

CREATE TRIGGER listing_series_quiz_ad AFTER DELETE ON quizzes BEGIN
${refresh('OLD')}
END;

CREATE TRIGGER listing_series_quiz_au AFTER UPDATE OF date, location_id, title, description, theme, quizmaster, recurrence_id, recurrence_pattern ON quizzes BEGIN
${refresh('OLD')}
${refresh('NEW')}
END;

CREATE TRIGGER listing_series_venue_au AFTER UPDATE OF name, user_id, is_public ON venues BEGIN
  UPDATE listing_series SET owner_id = NEW.user_id, is_public = NEW.is_public,
    place_text = NEW.name || ' | ' || (SELECT l.name FROM locations l WHERE l.id = listing_series.location_id)
  WHERE venue_id = NEW.id;
END;

CREATE TRIGGER listing_series_location_au AFTER UPDATE OF name, city_slug, venue_id ON locations BEGIN
  UPDATE listing_series SET city_slug = NEW.city_slug, venue_id = NEW.venue_id,
    owner_id = (SELECT v.user_id FROM venues v WHERE v.id = NEW.venue_id),
    is_public = (SELECT v.is_public FROM venues v WHERE v.id = NEW.venue_id),
    place_text = (SELECT v.name FROM venues v WHERE v.id = NEW.venue_id) || ' | ' || NEW.name
  WHERE location_id = NEW.id;
END;

-- Backfill what existed before this migration (series first, then single quizzes).
INSERT INTO listing_series (${COLS})
  SELECT s.rid || '@' || s.lid, s.rid, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, s.last,
    (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = s.rid AND location_id = s.lid)),
    abs(random() % 2147483648), v.name || ' | ' || l.name, ${TEXT('recurrence_id = s.rid AND location_id = s.lid')}
  FROM (SELECT recurrence_id AS rid, location_id AS lid, max(date) AS last FROM quizzes WHERE recurrence_id IS NOT NULL GROUP BY recurrence_id, location_id) s
  JOIN quizzes q ON q.recurrence_id = s.rid AND q.location_id = s.lid AND q.date = s.last
  JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id;

INSERT INTO listing_series (${COLS})
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

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(process.argv[2] === 'words' ? LISTING_SERIES_WORDS_SQL : LISTING_SERIES_TRIGGERS_SQL);
}
