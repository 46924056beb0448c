CREATE TABLE `listing_series` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`recurrence_id` text,
	`pattern` text,
	`location_id` text NOT NULL,
	`city_slug` text NOT NULL,
	`venue_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`is_public` integer NOT NULL,
	`last_date` text NOT NULL,
	`days_mask` integer NOT NULL,
	`shuffle` integer NOT NULL,
	`place_text` text NOT NULL,
	`quiz_text` text NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_series_key_uq` ON `listing_series` (`key`);--> statement-breakpoint
CREATE INDEX `listing_series_live_idx` ON `listing_series` (`last_date`,`is_public`,`owner_id`,`days_mask`,`shuffle`,`location_id`);--> statement-breakpoint
CREATE INDEX `listing_series_city_idx` ON `listing_series` (`city_slug`,`last_date`,`is_public`,`owner_id`,`days_mask`,`shuffle`,`location_id`);--> statement-breakpoint
CREATE INDEX `listing_series_recurrence_idx` ON `listing_series` (`recurrence_id`);--> statement-breakpoint
CREATE INDEX `listing_series_location_idx` ON `listing_series` (`location_id`);--> statement-breakpoint
CREATE INDEX `listing_series_venue_idx` ON `listing_series` (`venue_id`);