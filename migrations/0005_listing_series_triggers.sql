-- Custom migration (drizzle-kit generate --custom): what drizzle's schema cannot express.
-- listing_series (migration 0004) is derived data kept by these triggers; the app never writes it.
-- A unit is a series at one place (key = recurrence_id@location_id) or a single quiz (key = id). Every change to a unit's quiz
-- rows recomputes that unit from its rows (bounded: one series' rows, via quizzes_recurrence_idx), so
-- the table is right after any write path, including bulk inserts, imports, the cron and cascades.
-- The refresh block is written out in each trigger (SQLite triggers cannot call shared code): this file
-- is the output of scripts/listing-series-triggers.mjs; change the template, never this file.

-- Free-text search: trigram FTS5 over the two text columns (substring match, case-insensitive, å ≠ a).
CREATE VIRTUAL TABLE listing_series_fts USING fts5(place_text, quiz_text, content='listing_series', content_rowid='id', tokenize='trigram');

CREATE TRIGGER listing_series_fts_ai AFTER INSERT ON listing_series BEGIN
  INSERT INTO listing_series_fts (rowid, place_text, quiz_text) VALUES (NEW.id, NEW.place_text, NEW.quiz_text);
END;

CREATE TRIGGER listing_series_fts_ad AFTER DELETE ON listing_series BEGIN
  INSERT INTO listing_series_fts (listing_series_fts, rowid, place_text, quiz_text) VALUES ('delete', OLD.id, OLD.place_text, OLD.quiz_text);
END;

CREATE TRIGGER listing_series_fts_au AFTER UPDATE OF place_text, quiz_text ON listing_series
  WHEN OLD.place_text IS NOT NEW.place_text OR OLD.quiz_text IS NOT NEW.quiz_text BEGIN
  INSERT INTO listing_series_fts (listing_series_fts, rowid, place_text, quiz_text) VALUES ('delete', OLD.id, OLD.place_text, OLD.quiz_text);
  INSERT INTO listing_series_fts (rowid, place_text, quiz_text) VALUES (NEW.id, NEW.place_text, NEW.quiz_text);
END;

CREATE TRIGGER listing_series_quiz_ai AFTER INSERT ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = NEW.recurrence_id || '@' || NEW.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id))
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text;
  DELETE FROM listing_series WHERE key = NEW.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = NEW.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, '')
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = NEW.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text;
END;

CREATE TRIGGER listing_series_quiz_ad AFTER DELETE ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = OLD.recurrence_id || '@' || OLD.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id))
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = OLD.recurrence_id AND q.location_id = OLD.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text;
  DELETE FROM listing_series WHERE key = OLD.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = OLD.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, '')
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = OLD.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text;
END;

CREATE TRIGGER listing_series_quiz_au AFTER UPDATE OF date, location_id, title, description, theme, quizmaster, recurrence_id, recurrence_pattern ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = OLD.recurrence_id || '@' || OLD.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id))
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = OLD.recurrence_id AND q.location_id = OLD.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text;
  DELETE FROM listing_series WHERE key = OLD.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = OLD.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, '')
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = OLD.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text;
  DELETE FROM listing_series WHERE key = NEW.recurrence_id || '@' || NEW.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id))
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text;
  DELETE FROM listing_series WHERE key = NEW.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = NEW.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, '')
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = NEW.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text;
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
INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
  SELECT s.rid || '@' || s.lid, s.rid, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, s.last,
    (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = s.rid AND location_id = s.lid)),
    abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = s.rid AND location_id = s.lid))
  FROM (SELECT recurrence_id AS rid, location_id AS lid, max(date) AS last FROM quizzes WHERE recurrence_id IS NOT NULL GROUP BY recurrence_id, location_id) s
  JOIN quizzes q ON q.recurrence_id = s.rid AND q.location_id = s.lid AND q.date = s.last
  JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id;

INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text)
  SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
    abs(random() % 2147483648), v.name || ' | ' || l.name,
    coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, '')
  FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
  WHERE q.recurrence_id IS NULL;
