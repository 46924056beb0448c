CREATE TABLE `calendar_feeds` (
	`id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`url` text NOT NULL,
	`last_synced_at` text,
	`last_status` text,
	`last_error` text,
	`last_result` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_location_url_uq` ON `calendar_feeds` (`location_id`,`url`);--> statement-breakpoint
CREATE TABLE `calendar_sync_items` (
	`feed_id` text NOT NULL,
	`key` text NOT NULL,
	`quiz_id` text,
	`synced_hash` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`feed_id`, `key`),
	FOREIGN KEY (`feed_id`) REFERENCES `calendar_feeds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `calendar_sync_items_quiz_idx` ON `calendar_sync_items` (`quiz_id`);