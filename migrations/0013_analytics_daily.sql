CREATE TABLE `analytics_daily` (
	`day` text NOT NULL,
	`venue_id` text NOT NULL,
	`location_id` text DEFAULT '' NOT NULL,
	`quiz_id` text DEFAULT '' NOT NULL,
	`metric` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`venue_id`, `day`, `metric`, `location_id`, `quiz_id`),
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "analytics_daily_count_ck" CHECK(count >= 0)
);
--> statement-breakpoint
CREATE INDEX `analytics_daily_day_idx` ON `analytics_daily` (`day`,`metric`);