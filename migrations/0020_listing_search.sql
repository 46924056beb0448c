-- Printed by scripts/listing-series-triggers.mjs (`search`): change the template, never this file.
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
  DELETE FROM listing_search WHERE rowid = (SELECT ((coalesce(e.tier, 2) << 61) + (e.shuffle << 30) + e.id) FROM listing_series e WHERE e.id = NEW.id);
  INSERT INTO listing_search (rowid, place_text, quiz_text) SELECT ((coalesce(e.tier, 2) << 61) + (e.shuffle << 30) + e.id), e.place_text, e.quiz_text FROM listing_series e WHERE e.id = NEW.id;
  DELETE FROM listing_search_words WHERE rowid = (SELECT ((coalesce(e.tier, 2) << 61) + (e.shuffle << 30) + e.id) FROM listing_series e WHERE e.id = NEW.id);
  INSERT INTO listing_search_words (rowid, place_text, quiz_text) SELECT ((coalesce(e.tier, 2) << 61) + (e.shuffle << 30) + e.id), e.place_text, e.quiz_text FROM listing_series e WHERE e.id = NEW.id;
END;

CREATE TRIGGER listing_search_ad AFTER DELETE ON listing_series BEGIN
  DELETE FROM listing_search WHERE rowid = ((coalesce(OLD.tier, 2) << 61) + (OLD.shuffle << 30) + OLD.id);
  DELETE FROM listing_search_words WHERE rowid = ((coalesce(OLD.tier, 2) << 61) + (OLD.shuffle << 30) + OLD.id);
END;

CREATE TRIGGER listing_search_au AFTER UPDATE OF tier, place_text, quiz_text ON listing_series
  WHEN OLD.tier IS NOT NEW.tier OR OLD.place_text IS NOT NEW.place_text OR OLD.quiz_text IS NOT NEW.quiz_text BEGIN
  DELETE FROM listing_search WHERE rowid = ((coalesce(OLD.tier, 2) << 61) + (OLD.shuffle << 30) + OLD.id);
  DELETE FROM listing_search_words WHERE rowid = ((coalesce(OLD.tier, 2) << 61) + (OLD.shuffle << 30) + OLD.id);
  INSERT INTO listing_search (rowid, place_text, quiz_text) VALUES (((coalesce(NEW.tier, 2) << 61) + (NEW.shuffle << 30) + NEW.id), NEW.place_text, NEW.quiz_text);
  INSERT INTO listing_search_words (rowid, place_text, quiz_text) VALUES (((coalesce(NEW.tier, 2) << 61) + (NEW.shuffle << 30) + NEW.id), NEW.place_text, NEW.quiz_text);
END;

-- Backfill: every unit.
INSERT INTO listing_search (listing_search) VALUES ('delete-all');
INSERT INTO listing_search (rowid, place_text, quiz_text) SELECT ((coalesce(e.tier, 2) << 61) + (e.shuffle << 30) + e.id), e.place_text, e.quiz_text FROM listing_series e;
INSERT INTO listing_search_words (listing_search_words) VALUES ('delete-all');
INSERT INTO listing_search_words (rowid, place_text, quiz_text) SELECT ((coalesce(e.tier, 2) << 61) + (e.shuffle << 30) + e.id), e.place_text, e.quiz_text FROM listing_series e;
