DROP INDEX `listing_series_rank_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_rank_idx`;--> statement-breakpoint
DROP INDEX `listing_series_wd0_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_wd0_idx`;--> statement-breakpoint
DROP INDEX `listing_series_wd1_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_wd1_idx`;--> statement-breakpoint
DROP INDEX `listing_series_wd2_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_wd2_idx`;--> statement-breakpoint
DROP INDEX `listing_series_wd3_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_wd3_idx`;--> statement-breakpoint
DROP INDEX `listing_series_wd4_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_wd4_idx`;--> statement-breakpoint
DROP INDEX `listing_series_wd5_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_wd5_idx`;--> statement-breakpoint
DROP INDEX `listing_series_wd6_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_wd6_idx`;--> statement-breakpoint
DROP INDEX `listing_series_geo_idx`;--> statement-breakpoint
ALTER TABLE `listing_series` ADD `lang` text DEFAULT 'sv' NOT NULL;--> statement-breakpoint
CREATE INDEX `listing_series_rank_idx` ON `listing_series` (`tier`,`shuffle`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`days_mask`,`last_date`,`city_slug`,`location_id`,`recurrence_id`,`pattern`);--> statement-breakpoint
CREATE INDEX `listing_series_city_rank_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`days_mask`,`last_date`,`location_id`,`recurrence_id`,`pattern`);--> statement-breakpoint
CREATE INDEX `listing_series_wd0_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 1) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd0_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 1) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd1_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 2) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd1_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 2) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd2_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 4) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd2_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 4) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd3_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 8) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd3_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 8) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd4_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 16) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd4_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 16) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd5_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 32) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd5_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 32) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_wd6_idx` ON `listing_series` (`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 64) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_city_wd6_idx` ON `listing_series` (`city_slug`,`tier`,`shuffle`,`up_mask`,`wk_mask`,`price`,`team_max`,`topic`,`start_min`,`lang`,`next_date`,`last_date`,`recurrence_id`,`location_id`) WHERE (up_mask & 64) != 0;--> statement-breakpoint
CREATE INDEX `listing_series_geo_idx` ON `listing_series` (`lat`,`lng`,`tier`,`wk_mask`,`up_mask`,`next_date`,`owner_id`,`days_mask`,`last_date`,`location_id`,`recurrence_id`,`pattern`,`price`,`team_max`,`topic`,`start_min`,`lang`);--> statement-breakpoint
ALTER TABLE `quizzes` ADD `language` text DEFAULT 'sv' NOT NULL;--> statement-breakpoint
-- Printed by scripts/listing-series-triggers.mjs (`language`): change the template, never this part.
-- The quiz's language (issue 31.3): quizzes.language is sv | en | both; each unit copies its latest row's into lang.
CREATE TRIGGER quizzes_language_ck_ai BEFORE INSERT ON quizzes WHEN NEW.language NOT IN ('sv', 'en', 'both') BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: quizzes_language_ck');
END;

CREATE TRIGGER quizzes_language_ck_au BEFORE UPDATE OF language ON quizzes WHEN NEW.language NOT IN ('sv', 'en', 'both') BEGIN
  SELECT RAISE(ABORT, 'CHECK constraint failed: quizzes_language_ck');
END;

DROP TRIGGER IF EXISTS listing_series_quiz_ai;
DROP TRIGGER IF EXISTS listing_series_quiz_ad;
DROP TRIGGER IF EXISTS listing_series_quiz_au;
DROP TRIGGER IF EXISTS listing_series_venue_au;
DROP TRIGGER IF EXISTS listing_series_location_au;

CREATE TRIGGER listing_series_quiz_ai AFTER INSERT ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = NEW.recurrence_id || '@' || NEW.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
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
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140), q.language
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang;
  DELETE FROM listing_series WHERE key = NEW.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = NEW.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
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
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140), q.language
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = NEW.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang;
END;

CREATE TRIGGER listing_series_quiz_ad AFTER DELETE ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = OLD.recurrence_id || '@' || OLD.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
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
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140), q.language
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = OLD.recurrence_id AND q.location_id = OLD.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang;
  DELETE FROM listing_series WHERE key = OLD.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = OLD.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
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
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140), q.language
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = OLD.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang;
END;

CREATE TRIGGER listing_series_quiz_au AFTER UPDATE OF date, location_id, title, description, theme, quizmaster, recurrence_id, recurrence_pattern, start_time, category, team_size, price, language ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = OLD.recurrence_id || '@' || OLD.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
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
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140), q.language
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = OLD.recurrence_id AND q.location_id = OLD.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang;
  DELETE FROM listing_series WHERE key = OLD.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = OLD.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
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
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140), q.language
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = OLD.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang;
  DELETE FROM listing_series WHERE key = NEW.recurrence_id || '@' || NEW.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
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
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140), q.language
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id = NEW.recurrence_id AND q.location_id = NEW.location_id ORDER BY q.date DESC LIMIT 1
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang;
  DELETE FROM listing_series WHERE key = NEW.id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = NEW.id AND recurrence_id IS NULL);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
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
      coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140), q.language
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.id = NEW.id AND q.recurrence_id IS NULL
    ON CONFLICT (key) DO UPDATE SET recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang;
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
      'house', coalesce(v.user_id = (SELECT house_id FROM listing_state WHERE id = 1), 0), 'language', q.language)
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

-- Backfill lang of the units that existed before this migration (all 'sv' today), then every card.
UPDATE listing_series SET lang = coalesce((SELECT q.language FROM quizzes q WHERE q.id = listing_series.key ORDER BY q.date DESC LIMIT 1), 'sv')
  WHERE recurrence_id IS NULL;
UPDATE listing_series SET lang = coalesce((SELECT q.language FROM quizzes q WHERE q.recurrence_id = listing_series.recurrence_id AND q.location_id = listing_series.location_id ORDER BY q.date DESC LIMIT 1), 'sv')
  WHERE recurrence_id IS NOT NULL;
UPDATE listing_series SET touch = touch + 1;
