CREATE TABLE `quizmaster_announcements` (
	`quizmaster_id` text NOT NULL,
	`location_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`quizmaster_id`, `location_id`),
	FOREIGN KEY (`quizmaster_id`) REFERENCES `quizmasters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `quizmaster_assignments` (
	`unit_key` text NOT NULL,
	`quizmaster_id` text NOT NULL,
	`venue_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`unit_key`, `quizmaster_id`),
	FOREIGN KEY (`quizmaster_id`) REFERENCES `quizmasters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quizmaster_assignments_qm_idx` ON `quizmaster_assignments` (`quizmaster_id`);--> statement-breakpoint
CREATE TABLE `quizmaster_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`quizmaster_id` text NOT NULL,
	`unit_key` text NOT NULL,
	`venue_id` text NOT NULL,
	`email` text NOT NULL,
	`invited_by` text,
	`claimed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`quizmaster_id`) REFERENCES `quizmasters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `quizmaster_invitations_qm_idx` ON `quizmaster_invitations` (`quizmaster_id`);--> statement-breakpoint
CREATE INDEX `quizmaster_invitations_email_idx` ON `quizmaster_invitations` (`email`);--> statement-breakpoint
CREATE TABLE `quizmaster_invite_stops` (
	`email` text PRIMARY KEY NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `quizmaster_links` (
	`unit_key` text PRIMARY KEY NOT NULL,
	`quizmaster_id` text NOT NULL,
	`location_id` text NOT NULL,
	`venue_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`quizmaster_id`) REFERENCES `quizmasters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quizmaster_links_qm_idx` ON `quizmaster_links` (`quizmaster_id`,`location_id`);--> statement-breakpoint
CREATE INDEX `quizmaster_links_venue_idx` ON `quizmaster_links` (`venue_id`);--> statement-breakpoint
CREATE TABLE `quizmasters` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`slug` text NOT NULL,
	`bio` text,
	`photo_key` text,
	`user_id` text,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quizmasters_slug_uq` ON `quizmasters` (`slug`);--> statement-breakpoint
CREATE INDEX `quizmasters_name_key_idx` ON `quizmasters` (`name_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `quizmasters_user_uq` ON `quizmasters` (`user_id`);--> statement-breakpoint
CREATE INDEX `follows_quizmaster_idx` ON `follows` ((filters ->> '$.quizmaster'));