CREATE TABLE `rsvp_counts` (
	`quiz_id` text PRIMARY KEY NOT NULL,
	`teams` integer DEFAULT 0 NOT NULL,
	`seats` integer DEFAULT 0 NOT NULL,
	`held` integer DEFAULT 0 NOT NULL,
	`queued` integer DEFAULT 0 NOT NULL,
	`capacity_tables` integer,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rsvp_counts_queued_idx` ON `rsvp_counts` (`quiz_id`) WHERE queued > 0;--> statement-breakpoint
CREATE TABLE `rsvp_settings` (
	`series_key` text PRIMARY KEY NOT NULL,
	`rsvp_off` integer DEFAULT false NOT NULL,
	`booking_url` text,
	`booking_phone` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rsvps` (
	`id` text PRIMARY KEY NOT NULL,
	`quiz_id` text NOT NULL,
	`user_id` text,
	`email` text,
	`team_size` integer NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`confirmed_at` text,
	`queued_at` text,
	`offered_at` text,
	`offer_expires_at` text,
	`cancelled_at` text,
	`reminder_mail_at` text,
	`reminder_push_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "rsvps_team_size_ck" CHECK(team_size BETWEEN 1 AND 8),
	CONSTRAINT "rsvps_state_ck" CHECK(state IN ('pending','confirmed','queued','offered','cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rsvps_live_uq` ON `rsvps` (`quiz_id`,`email`) WHERE state <> 'cancelled' AND email IS NOT NULL;--> statement-breakpoint
CREATE INDEX `rsvps_quiz_state_idx` ON `rsvps` (`quiz_id`,`state`,`queued_at`);--> statement-breakpoint
CREATE INDEX `rsvps_state_offer_idx` ON `rsvps` (`state`,`offer_expires_at`);--> statement-breakpoint
CREATE INDEX `rsvps_email_quiz_idx` ON `rsvps` (`quiz_id`) WHERE email IS NOT NULL;--> statement-breakpoint
ALTER TABLE `quizzes` ADD `capacity_tables` integer;