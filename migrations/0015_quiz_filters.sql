DROP INDEX `listing_series_live_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_idx`;--> statement-breakpoint
DROP INDEX `listing_series_geo_idx`;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `price` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `team_max` integer;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `topic` text;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `start_min` integer DEFAULT 1140 NOT NULL;--> statement-breakpoint
CREATE INDEX `listing_series_live_idx` ON `listing_series` (`last_date`,`is_public`,`owner_id`,`days_mask`,`shuffle`,`location_id`,`recurrence_id`,`pattern`,`price`,`team_max`,`topic`,`start_min`);--> statement-breakpoint
CREATE INDEX `listing_series_city_idx` ON `listing_series` (`city_slug`,`last_date`,`is_public`,`owner_id`,`days_mask`,`shuffle`,`location_id`,`recurrence_id`,`pattern`,`price`,`team_max`,`topic`,`start_min`);--> statement-breakpoint
CREATE INDEX `listing_series_geo_idx` ON `listing_series` (`lat`,`lng`,`last_date`,`is_public`,`owner_id`,`days_mask`,`location_id`,`recurrence_id`,`pattern`,`price`,`team_max`,`topic`,`start_min`);--> statement-breakpoint
-- Printed by scripts/listing-series-triggers.mjs (`filters`): change the template, never this part.
-- Quiz filters (issue 20): price, team size, topic and start time of each unit, copied from its latest row.
DROP TRIGGER IF EXISTS listing_series_quiz_ai;
DROP TRIGGER IF EXISTS listing_series_quiz_ad;
DROP TRIGGER IF EXISTS listing_series_quiz_au;
DROP TRIGGER IF EXISTS listing_series_venue_au;
DROP TRIGGER IF EXISTS listing_series_location_au;

CREATE TRIGGER listing_series_quiz_ai AFTER INSERT ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = NEW.recurrence_id || '@' || NEW.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min;
  DELETE FROM listing_series WHERE key = NEW.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = NEW.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min)
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = NEW.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min;
END;

CREATE TRIGGER listing_series_quiz_ad AFTER DELETE ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = OLD.recurrence_id || '@' || OLD.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id)), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = OLD.recurrence_id AND q.location_id = OLD.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min;
  DELETE FROM listing_series WHERE key = OLD.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = OLD.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min)
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = OLD.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min;
END;

CREATE TRIGGER listing_series_quiz_au AFTER UPDATE OF date, location_id, title, description, theme, quizmaster, recurrence_id, recurrence_pattern, start_time, category, team_size, price ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = OLD.recurrence_id || '@' || OLD.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id)), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = OLD.recurrence_id AND q.location_id = OLD.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min;
  DELETE FROM listing_series WHERE key = OLD.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = OLD.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min)
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = OLD.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min;
  DELETE FROM listing_series WHERE key = NEW.recurrence_id || '@' || NEW.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min;
  DELETE FROM listing_series WHERE key = NEW.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = NEW.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min)
    SELECT q.id, NULL, NULL, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date, 1 << q.weekday,
      abs(random() % 2147483648), v.name || ' | ' || l.name,
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = NEW.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min;
END;

CREATE TRIGGER listing_series_venue_au AFTER UPDATE OF name, user_id, is_public ON venues BEGIN
  UPDATE listing_series SET owner_id = NEW.user_id, is_public = NEW.is_public,
    place_text = NEW.name || ' | ' || (SELECT l.name FROM locations l WHERE l.id = listing_series.location_id)
  WHERE venue_id = NEW.id;
END;

CREATE TRIGGER listing_series_location_au AFTER UPDATE OF name, city_slug, venue_id, latitude, longitude ON locations BEGIN
  UPDATE listing_series SET city_slug = NEW.city_slug, venue_id = NEW.venue_id,
    owner_id = (SELECT v.user_id FROM venues v WHERE v.id = NEW.venue_id),
    is_public = (SELECT v.is_public FROM venues v WHERE v.id = NEW.venue_id),
    place_text = (SELECT v.name FROM venues v WHERE v.id = NEW.venue_id) || ' | ' || NEW.name,
    lat = CASE WHEN NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL THEN NEW.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = NEW.city_slug) END,
    lng = CASE WHEN NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL THEN NEW.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = NEW.city_slug) END
  WHERE location_id = NEW.id;
END;

-- Backfill the filter columns of the units that existed before this migration.
UPDATE listing_series SET (price, team_max, topic, start_min) = (
    SELECT coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q WHERE q.id = listing_series.key ORDER BY q.date DESC LIMIT 1)
  WHERE recurrence_id IS NULL;
UPDATE listing_series SET (price, team_max, topic, start_min) = (
    SELECT coalesce(q.price, 0), q.team_size,
      CASE
        WHEN lower(coalesce(q.category, '')) IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
        WHEN lower(coalesce(q.category, '')) IN ('musikquiz', 'musik') OR lower(trim(coalesce(q.theme, ''))) IN ('musik', 'music') THEN 'musik'
        WHEN lower(coalesce(q.category, '')) IN ('sportquiz', 'sport') OR lower(trim(coalesce(q.theme, ''))) = 'sport' THEN 'sport'
        WHEN lower(coalesce(q.category, '')) IN ('filmquiz', 'film') OR lower(trim(coalesce(q.theme, ''))) IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
        WHEN lower(coalesce(q.category, '')) IN ('tema', 'theme') OR lower(trim(coalesce(q.theme, ''))) != '' THEN 'annat'
        ELSE NULL END,
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)
    FROM quizzes q WHERE q.recurrence_id = listing_series.recurrence_id AND q.location_id = listing_series.location_id ORDER BY q.date DESC LIMIT 1)
  WHERE recurrence_id IS NOT NULL;
