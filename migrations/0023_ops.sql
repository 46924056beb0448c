CREATE TABLE `ops_counters` (
	`name` text NOT NULL,
	`hour` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`name`, `hour`)
);
--> statement-breakpoint
CREATE INDEX `ops_counters_hour_idx` ON `ops_counters` (`hour`);--> statement-breakpoint
CREATE TABLE `ops_incidents` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`summary` text NOT NULL,
	`opened_at` text NOT NULL,
	`resolved_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ops_incidents_open_uq` ON `ops_incidents` (`key`) WHERE resolved_at IS NULL;--> statement-breakpoint
CREATE INDEX `ops_incidents_opened_idx` ON `ops_incidents` (`opened_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_unsent_idx` ON `mail_outbox` (`status`,`created_at`) WHERE status <> 'sent';