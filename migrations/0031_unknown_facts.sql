-- Printed by scripts/listing-series-triggers.mjs (`unknown`): change the template, never this file.
-- Unknown facts (issue 44.3): quizzes.price NULL is "Pris ej angivet" (listing_series.price -1), not 'Gratis'.
DROP TRIGGER IF EXISTS listing_series_quiz_ai;
DROP TRIGGER IF EXISTS listing_series_quiz_ad;
DROP TRIGGER IF EXISTS listing_series_quiz_au;
DROP TRIGGER IF EXISTS listing_series_venue_au;
DROP TRIGGER IF EXISTS listing_series_location_au;
DROP TRIGGER IF EXISTS listing_rank_quiz_au;

UPDATE quizzes AS q SET price = 0
  WHERE q.price IS NULL AND EXISTS (SELECT 1 FROM locations l JOIN venues v ON v.id = l.venue_id
      WHERE l.id = q.location_id AND v.user_id IS NOT (SELECT house_id FROM listing_state WHERE id = 1))
    AND NOT (coalesce(q.recurrence_id, '') LIKE 'cal-%' OR EXISTS (SELECT 1 FROM calendar_sync_items i WHERE i.quiz_id = q.id)) AND NOT (q.created_at = q.updated_at AND EXISTS (SELECT 1 FROM locations l JOIN tips t ON t.venue_id = l.venue_id
      WHERE l.id = q.location_id AND t.status = 'approved'));
UPDATE quizzes AS q SET category = NULL
  WHERE q.category = 'allmänbildning' AND q.theme IS NULL AND (q.created_at = q.updated_at AND EXISTS (SELECT 1 FROM locations l JOIN tips t ON t.venue_id = l.venue_id
      WHERE l.id = q.location_id AND t.status = 'approved'));

CREATE TRIGGER listing_series_quiz_ai AFTER INSERT ON quizzes BEGIN
  DELETE FROM listing_series WHERE key = NEW.recurrence_id || '@' || NEW.location_id
    AND NOT EXISTS (SELECT 1 FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id);
  INSERT INTO listing_series (key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang)
    SELECT q.recurrence_id || '@' || q.location_id, q.recurrence_id, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, q.date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)),
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, -1), q.team_size,
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
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, -1), q.team_size,
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
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id)), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, -1), q.team_size,
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
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, -1), q.team_size,
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
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = OLD.recurrence_id AND location_id = OLD.location_id)), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, -1), q.team_size,
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
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, -1), q.team_size,
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
      abs(random() % 2147483648), v.name || ' | ' || l.name, (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = NEW.recurrence_id AND location_id = NEW.location_id)), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, -1), q.team_size,
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
      coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.latitude ELSE (SELECT t.lat FROM towns t WHERE t.slug = l.city_slug) END, CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.longitude ELSE (SELECT t.lng FROM towns t WHERE t.slug = l.city_slug) END, coalesce(q.price, -1), q.team_size,
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

CREATE TRIGGER listing_rank_quiz_au AFTER UPDATE ON quizzes BEGIN
  UPDATE listing_series SET touch = touch + 1 WHERE key IN (OLD.recurrence_id || '@' || OLD.location_id, OLD.id);
  UPDATE listing_series SET touch = touch + 1 WHERE key IN (NEW.recurrence_id || '@' || NEW.location_id, NEW.id);
END;

-- Recompute every unit's filter columns from its latest row, then every card.
UPDATE listing_series SET (price, team_max, topic, start_min) = (
    SELECT coalesce(q.price, -1), q.team_size,
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
    SELECT coalesce(q.price, -1), q.team_size,
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
UPDATE listing_series SET touch = touch + 1;
