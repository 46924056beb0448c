CREATE TABLE `league_series` (
	`league_id` text NOT NULL,
	`series_id` text NOT NULL,
	`consented_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`league_id`, `series_id`),
	FOREIGN KEY (`league_id`) REFERENCES `leagues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `league_series_series_idx` ON `league_series` (`series_id`);--> statement-breakpoint
CREATE TABLE `leagues` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`user_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `leagues_slug_uq` ON `leagues` (`slug`);--> statement-breakpoint
CREATE TABLE `result_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`quiz_id` text NOT NULL,
	`user_id` text,
	`before` text,
	`after` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`quiz_id`) REFERENCES `result_nights`(`quiz_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `result_changes_quiz_idx` ON `result_changes` (`quiz_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `result_nights` (
	`quiz_id` text PRIMARY KEY NOT NULL,
	`venue_id` text NOT NULL,
	`location_id` text NOT NULL,
	`series_id` text,
	`date` text NOT NULL,
	`team_count` integer NOT NULL,
	`first_posted_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`corrected_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `result_nights_venue_date_idx` ON `result_nights` (`venue_id`,`date`,`quiz_id`);--> statement-breakpoint
CREATE INDEX `result_nights_location_date_idx` ON `result_nights` (`location_id`,`date`);--> statement-breakpoint
CREATE INDEX `result_nights_series_date_idx` ON `result_nights` (`series_id`,`date`);--> statement-breakpoint
CREATE TABLE `results` (
	`quiz_id` text NOT NULL,
	`team_id` text NOT NULL,
	`score` real NOT NULL,
	`rank` integer NOT NULL,
	`date` text NOT NULL,
	`venue_id` text NOT NULL,
	`location_id` text NOT NULL,
	PRIMARY KEY(`quiz_id`, `team_id`),
	FOREIGN KEY (`quiz_id`) REFERENCES `result_nights`(`quiz_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "results_score_ck" CHECK(score >= 0),
	CONSTRAINT "results_rank_ck" CHECK(rank >= 1)
);
--> statement-breakpoint
CREATE INDEX `results_quiz_rank_idx` ON `results` (`quiz_id`,`rank`);--> statement-breakpoint
CREATE INDEX `results_team_date_idx` ON `results` (`team_id`,`date`,`quiz_id`);--> statement-breakpoint
CREATE INDEX `results_venue_team_idx` ON `results` (`venue_id`,`team_id`);--> statement-breakpoint
CREATE TABLE `season_standings` (
	`season_id` text NOT NULL,
	`team_id` text NOT NULL,
	`team_name` text NOT NULL,
	`team_slug` text NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	`points` real NOT NULL,
	`nights` integer NOT NULL,
	`rank` integer,
	`position` integer NOT NULL,
	PRIMARY KEY(`season_id`, `team_id`),
	FOREIGN KEY (`season_id`) REFERENCES `seasons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `season_standings_position_idx` ON `season_standings` (`season_id`,`position`);--> statement-breakpoint
CREATE INDEX `season_standings_team_idx` ON `season_standings` (`team_id`);--> statement-breakpoint
CREATE TABLE `seasons` (
	`id` text PRIMARY KEY NOT NULL,
	`series_id` text,
	`league_id` text,
	`venue_id` text,
	`name` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`preset` text NOT NULL,
	`params` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`league_id`) REFERENCES `leagues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "seasons_owner_ck" CHECK((series_id IS NULL) <> (league_id IS NULL)),
	CONSTRAINT "seasons_range_ck" CHECK(start_date <= end_date)
);
--> statement-breakpoint
CREATE INDEX `seasons_series_idx` ON `seasons` (`series_id`,`start_date`);--> statement-breakpoint
CREATE INDEX `seasons_league_idx` ON `seasons` (`league_id`,`start_date`);--> statement-breakpoint
CREATE INDEX `seasons_venue_idx` ON `seasons` (`venue_id`,`end_date`);--> statement-breakpoint
CREATE TABLE `team_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`reason` text NOT NULL,
	`answered_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `team_reports_open_idx` ON `team_reports` (`answered_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`slug` text NOT NULL,
	`code` text NOT NULL,
	`hidden_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	CONSTRAINT "teams_code_ck" CHECK(length(code) = 6)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teams_name_key_uq` ON `teams` (`name_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `teams_slug_uq` ON `teams` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `teams_code_uq` ON `teams` (`code`);--> statement-breakpoint
ALTER TABLE `follows` ADD `results` integer DEFAULT false NOT NULL;