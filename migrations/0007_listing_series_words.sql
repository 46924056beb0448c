-- Custom migration (drizzle-kit generate --custom), printed by scripts/listing-series-triggers.mjs.
-- Word-prefix index for one- and two-character searches (the trigram index needs three characters).
CREATE VIRTUAL TABLE listing_series_words USING fts5(place_text, quiz_text, content='listing_series', content_rowid='id', tokenize='unicode61 remove_diacritics 0', prefix='1 2');

CREATE TRIGGER listing_series_words_ai AFTER INSERT ON listing_series BEGIN
  INSERT INTO listing_series_words (rowid, place_text, quiz_text) VALUES (NEW.id, NEW.place_text, NEW.quiz_text);
END;

CREATE TRIGGER listing_series_words_ad AFTER DELETE ON listing_series BEGIN
  INSERT INTO listing_series_words (listing_series_words, rowid, place_text, quiz_text) VALUES ('delete', OLD.id, OLD.place_text, OLD.quiz_text);
END;

CREATE TRIGGER listing_series_words_au AFTER UPDATE OF place_text, quiz_text ON listing_series
  WHEN OLD.place_text IS NOT NEW.place_text OR OLD.quiz_text IS NOT NEW.quiz_text BEGIN
  INSERT INTO listing_series_words (listing_series_words, rowid, place_text, quiz_text) VALUES ('delete', OLD.id, OLD.place_text, OLD.quiz_text);
  INSERT INTO listing_series_words (rowid, place_text, quiz_text) VALUES (NEW.id, NEW.place_text, NEW.quiz_text);
END;

INSERT INTO listing_series_words (listing_series_words) VALUES ('rebuild');
