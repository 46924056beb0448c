-- Issue 43.6: cities stored before the city rule (worker/lib/city-field.ts) that are not a known town. A place with
-- its own coordinates inside Sweden takes the nearest town of the gazetteer (`towns`, filled by migration 0009;
-- longitude weighted by cos 60° ≈ 0.5). Any other keeps its text, and the public side never lists it as a city
-- (worker/lib/gazetteer.ts isTownSlug: city pages, the city list, feeds, the sitemap); its owner's form asks for a
-- town on the next save. The listing's triggers refresh the places' units; the version bump drops cached pages.
UPDATE locations SET
  city = (SELECT t.name FROM towns t
    ORDER BY (t.lat - locations.latitude) * (t.lat - locations.latitude)
      + (t.lng - locations.longitude) * (t.lng - locations.longitude) * 0.25, t.slug LIMIT 1),
  city_slug = (SELECT t.slug FROM towns t
    ORDER BY (t.lat - locations.latitude) * (t.lat - locations.latitude)
      + (t.lng - locations.longitude) * (t.lng - locations.longitude) * 0.25, t.slug LIMIT 1),
  updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE city_slug NOT IN (SELECT slug FROM towns)
  AND latitude BETWEEN 55.0 AND 69.1 AND longitude BETWEEN 10.9 AND 24.2;
--> statement-breakpoint
UPDATE public_data_version SET version = version + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = 1;
