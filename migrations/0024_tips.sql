CREATE TABLE `tips` (
	`id` text PRIMARY KEY NOT NULL,
	`venue_name` text NOT NULL,
	`address` text NOT NULL,
	`city` text NOT NULL,
	`city_slug` text NOT NULL,
	`weekday` integer,
	`date` text,
	`start_time` text NOT NULL,
	`link` text,
	`message` text,
	`email` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`reject_reason` text,
	`near_venue_id` text,
	`near_note` text,
	`venue_id` text,
	`answered_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`near_venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "tips_status_ck" CHECK(status IN ('pending','approved','rejected')),
	CONSTRAINT "tips_when_ck" CHECK((weekday IS NULL) <> (date IS NULL))
);
--> statement-breakpoint
CREATE INDEX `tips_status_created_idx` ON `tips` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `tips_near_venue_idx` ON `tips` (`near_venue_id`);--> statement-breakpoint
CREATE INDEX `tips_venue_idx` ON `tips` (`venue_id`);