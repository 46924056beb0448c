DROP INDEX `locations_city_slug_idx`;--> statement-breakpoint
CREATE INDEX `locations_city_name_idx` ON `locations` (`city_slug`,`city`,`venue_id`);