-- Printed by scripts/listing-series-triggers.mjs (`dates`): change the template, never this file.
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
  UPDATE listing_series SET next_qid = coalesce(
    (SELECT q.id FROM quizzes q WHERE NEW.recurrence_id IS NOT NULL AND q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id AND q.date >= (SELECT today FROM listing_state WHERE id = 1) ORDER BY q.date LIMIT 1),
    (SELECT q.id FROM quizzes q WHERE NEW.recurrence_id IS NULL AND q.id = NEW.key AND q.date >= (SELECT today FROM listing_state WHERE id = 1)))
  WHERE id = NEW.id;
  UPDATE listing_series SET
    next_date = (SELECT q.date FROM quizzes q WHERE q.id = listing_series.next_qid),
    wk_mask = (SELECT coalesce(sum(DISTINCT 1 << q.weekday), 0) FROM quizzes q WHERE NEW.recurrence_id IS NOT NULL AND q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id AND q.date >= (SELECT today FROM listing_state WHERE id = 1)
        AND (q.recurrence_pattern IS NOT 'biweekly' OR q.date <= date((SELECT today FROM listing_state WHERE id = 1), '+6 days')))
      + (SELECT coalesce(sum(1 << q.weekday), 0) FROM quizzes q WHERE NEW.recurrence_id IS NULL AND q.id = NEW.key AND q.date >= (SELECT today FROM listing_state WHERE id = 1)),
    up_mask = (SELECT coalesce(sum(DISTINCT 1 << q.weekday), 0) FROM quizzes q WHERE NEW.recurrence_id IS NOT NULL AND q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id AND q.date >= (SELECT today FROM listing_state WHERE id = 1))
      + (SELECT coalesce(sum(1 << q.weekday), 0) FROM quizzes q WHERE NEW.recurrence_id IS NULL AND q.id = NEW.key AND q.date >= (SELECT today FROM listing_state WHERE id = 1)),
    tier = CASE WHEN listing_series.next_qid IS NULL THEN 2 ELSE coalesce((SELECT CASE WHEN v.is_public = 0 THEN 2 WHEN v.user_id = (SELECT house_id FROM listing_state WHERE id = 1) THEN 1 ELSE 0 END
      FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id WHERE q.id = listing_series.next_qid), 2) END,
    card = (SELECT json_object('id', q.id, 'date', q.date, 'startTime', q.start_time, 'title', q.title, 'description', q.description,
      'category', q.category, 'theme', q.theme, 'quizmaster', q.quizmaster, 'teamSize', q.team_size, 'price', q.price,
      'isRecurring', q.is_recurring, 'recurrencePattern', q.recurrence_pattern, 'isCancelled', q.is_cancelled,
      'lId', l.id, 'lName', l.name, 'lAddress', l.address, 'lCity', l.city, 'lCitySlug', l.city_slug, 'lPhone', l.phone,
      'lWebsite', l.website, 'lLat', l.latitude, 'lLng', l.longitude,
      'vId', v.id, 'vName', v.name, 'vSlug', v.slug, 'vDescription', v.description, 'vWebsite', v.website,
      'house', coalesce(v.user_id = (SELECT house_id FROM listing_state WHERE id = 1), 0))
      FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id WHERE q.id = listing_series.next_qid)
  WHERE id = NEW.id;
  DELETE FROM listing_dates WHERE uid = NEW.id AND (date < (SELECT today FROM listing_state WHERE id = 1)
      OR NOT EXISTS (SELECT 1 FROM listing_series e JOIN quizzes q ON q.id = listing_dates.qid
        WHERE e.id = NEW.id AND e.tier = listing_dates.tier AND e.tier < 2 AND coalesce(e.city_slug, '') = listing_dates.city
          AND q.date = listing_dates.date AND ((e.recurrence_id IS NOT NULL AND q.recurrence_id = e.recurrence_id AND q.location_id = e.location_id) OR (e.recurrence_id IS NULL AND q.id = e.key))));
  INSERT OR IGNORE INTO listing_dates (date, tier, shuffle, uid, city, qid)
    SELECT q.date, e.tier, e.shuffle, e.id, coalesce(e.city_slug, ''), q.id
    FROM listing_series e JOIN quizzes q ON ((e.recurrence_id IS NOT NULL AND q.recurrence_id = e.recurrence_id AND q.location_id = e.location_id) OR (e.recurrence_id IS NULL AND q.id = e.key))
    WHERE e.id = NEW.id AND e.tier < 2 AND q.date >= (SELECT today FROM listing_state WHERE id = 1)
      AND NOT EXISTS (SELECT 1 FROM listing_dates x WHERE x.uid = e.id AND x.date = q.date);
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
INSERT OR IGNORE INTO listing_dates (date, tier, shuffle, uid, city, qid)
  SELECT q.date, e.tier, e.shuffle, e.id, coalesce(e.city_slug, ''), q.id
  FROM listing_series e JOIN quizzes q ON ((e.recurrence_id IS NOT NULL AND q.recurrence_id = e.recurrence_id AND q.location_id = e.location_id) OR (e.recurrence_id IS NULL AND q.id = e.key))
  WHERE e.tier < 2 AND q.date >= (SELECT today FROM listing_state WHERE id = 1);
