CREATE TABLE `listing_counts` (
	`city` text NOT NULL,
	`wd` integer NOT NULL,
	`units` integer DEFAULT 0 NOT NULL,
	`places` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`city`, `wd`)
);
--> statement-breakpoint
CREATE INDEX `listing_counts_top_idx` ON `listing_counts` (`wd`,`units`);--> statement-breakpoint
CREATE TABLE `listing_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`today` text NOT NULL,
	`house_email` text,
	`house_id` text,
	CONSTRAINT "listing_state_single_ck" CHECK(id = 1)
);
--> statement-breakpoint
DROP INDEX `listing_series_live_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_idx`;--> statement-breakpoint
DROP INDEX `listing_series_geo_idx`;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `tier` integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `next_qid` text;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `next_date` text;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `wk_mask` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `up_mask` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `card` text;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `touch` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `listing_series_rank_idx` ON `listing_series` (`tier`,`shuffle`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`days_mask`,`last_date`,`city_slug`,`location_id`,`recurrence_id`,`pattern`);--> statement-breakpoint
CREATE INDEX `listing_series_city_rank_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`days_mask`,`last_date`,`location_id`,`recurrence_id`,`pattern`);--> statement-breakpoint
CREATE INDEX `listing_series_next_idx` ON `listing_series` (`next_date`);--> statement-breakpoint
CREATE INDEX `listing_series_wd0_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 1) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd0_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 1) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd1_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 2) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd1_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 2) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd2_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 4) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd2_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 4) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd3_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 8) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd3_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 8) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd4_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 16) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd4_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 16) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd5_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 32) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd5_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 32) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd6_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 64) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd6_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 64) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_geo_idx` ON `listing_series` (`lat`,`lng`,`tier`,`wk_mask`,`up_mask`,`next_date`,`owner_id`,`days_mask`,`last_date`,`location_id`,`recurrence_id`,`pattern`,`price`,`team_max`,`topic`,`start_min`);--> statement-breakpoint
-- Printed by scripts/listing-series-triggers.mjs (`rank`): change the template, never this part.
-- The ranked listing (issue 19 §2): each unit's tier, next occurrence, weekday mask and card, kept as of
-- listing_state.today by one refresh trigger; the triggers of quizzes, locations, venues and users bump
-- `touch` on the units they change. listing_counts holds the listed units per city and weekday.
INSERT INTO listing_state (id, today) VALUES (1, date('now'));

CREATE TRIGGER listing_rank_refresh_ai AFTER INSERT ON listing_series BEGIN
  UPDATE listing_series SET touch = touch + 1 WHERE id = NEW.id;
END;

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
END;

CREATE TRIGGER listing_rank_quiz_ai AFTER INSERT ON quizzes BEGIN
  UPDATE listing_series SET touch = touch + 1 WHERE key IN (NEW.recurrence_id || '@' || NEW.location_id, NEW.id);
END;

CREATE TRIGGER listing_rank_quiz_ad AFTER DELETE ON quizzes BEGIN
  UPDATE listing_series SET touch = touch + 1 WHERE key IN (OLD.recurrence_id || '@' || OLD.location_id, OLD.id);
END;

CREATE TRIGGER listing_rank_quiz_au AFTER UPDATE ON quizzes BEGIN
  UPDATE listing_series SET touch = touch + 1 WHERE key IN (OLD.recurrence_id || '@' || OLD.location_id, OLD.id);
  UPDATE listing_series SET touch = touch + 1 WHERE key IN (NEW.recurrence_id || '@' || NEW.location_id, NEW.id);
END;

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
  INSERT INTO listing_counts (city, wd, units, places)
    SELECT c.value, w.value, +1, +CASE WHEN c.value = '' OR EXISTS (SELECT 1 FROM listing_series o WHERE o.location_id = NEW.location_id AND o.id != NEW.id
      AND o.city_slug = c.value AND o.tier < 2 AND (w.value = -1 OR (o.wk_mask & (1 << w.value)) != 0)) THEN 0 ELSE 1 END FROM json_each('[-1,0,1,2,3,4,5,6]') w CROSS JOIN json_each(json_array('', NEW.city_slug)) c
    WHERE (w.value = -1 OR (NEW.wk_mask & (1 << w.value)) != 0)
    ON CONFLICT (city, wd) DO UPDATE SET units = units + excluded.units, places = places + excluded.places;
END;

CREATE TRIGGER listing_counts_ad AFTER DELETE ON listing_series WHEN OLD.tier < 2 BEGIN
  INSERT INTO listing_counts (city, wd, units, places)
    SELECT c.value, w.value, -1, -CASE WHEN c.value = '' OR EXISTS (SELECT 1 FROM listing_series o WHERE o.location_id = OLD.location_id AND o.id != OLD.id
      AND o.city_slug = c.value AND o.tier < 2 AND (w.value = -1 OR (o.wk_mask & (1 << w.value)) != 0)) THEN 0 ELSE 1 END FROM json_each('[-1,0,1,2,3,4,5,6]') w CROSS JOIN json_each(json_array('', OLD.city_slug)) c
    WHERE (w.value = -1 OR (OLD.wk_mask & (1 << w.value)) != 0)
    ON CONFLICT (city, wd) DO UPDATE SET units = units + excluded.units, places = places + excluded.places;
END;

CREATE TRIGGER listing_counts_au AFTER UPDATE OF tier, city_slug, wk_mask, location_id ON listing_series
  WHEN (OLD.tier < 2 OR NEW.tier < 2)
    AND (OLD.tier IS NOT NEW.tier OR OLD.city_slug IS NOT NEW.city_slug OR OLD.wk_mask IS NOT NEW.wk_mask OR OLD.location_id IS NOT NEW.location_id) BEGIN
  INSERT INTO listing_counts (city, wd, units, places)
    SELECT c.value, w.value, -1, -CASE WHEN c.value = '' OR EXISTS (SELECT 1 FROM listing_series o WHERE o.location_id = OLD.location_id AND o.id != OLD.id
      AND o.city_slug = c.value AND o.tier < 2 AND (w.value = -1 OR (o.wk_mask & (1 << w.value)) != 0)) THEN 0 ELSE 1 END FROM json_each('[-1,0,1,2,3,4,5,6]') w CROSS JOIN json_each(json_array('', OLD.city_slug)) c
    WHERE (w.value = -1 OR (OLD.wk_mask & (1 << w.value)) != 0) AND OLD.tier < 2
    ON CONFLICT (city, wd) DO UPDATE SET units = units + excluded.units, places = places + excluded.places;
  INSERT INTO listing_counts (city, wd, units, places)
    SELECT c.value, w.value, +1, +CASE WHEN c.value = '' OR EXISTS (SELECT 1 FROM listing_series o WHERE o.location_id = NEW.location_id AND o.id != NEW.id
      AND o.city_slug = c.value AND o.tier < 2 AND (w.value = -1 OR (o.wk_mask & (1 << w.value)) != 0)) THEN 0 ELSE 1 END FROM json_each('[-1,0,1,2,3,4,5,6]') w CROSS JOIN json_each(json_array('', NEW.city_slug)) c
    WHERE (w.value = -1 OR (NEW.wk_mask & (1 << w.value)) != 0) AND NEW.tier < 2
    ON CONFLICT (city, wd) DO UPDATE SET units = units + excluded.units, places = places + excluded.places;
END;

-- Backfill: every existing unit (as of today in UTC; the first listing read sets the Stockholm date and the house account).
UPDATE listing_series SET touch = touch + 1;
