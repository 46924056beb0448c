CREATE TABLE `holiday_decisions` (
	`recurrence_id` text NOT NULL,
	`date` text NOT NULL,
	`holiday` text NOT NULL,
	`decision` text,
	`asked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`recurrence_id`, `date`),
	CONSTRAINT "holiday_decisions_decision_ck" CHECK(decision IS NULL OR decision IN ('run','skip'))
);
--> statement-breakpoint
CREATE INDEX `holiday_decisions_date_idx` ON `holiday_decisions` (`date`);--> statement-breakpoint
ALTER TABLE `feedback` ADD `quiz_id` text REFERENCES quizzes(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `feedback` ADD `report_unit` text;--> statement-breakpoint
CREATE INDEX `feedback_quiz_idx` ON `feedback` (`quiz_id`);--> statement-breakpoint
CREATE INDEX `feedback_report_unit_idx` ON `feedback` (`report_unit`,`created_at`);--> statement-breakpoint
ALTER TABLE `venues` ADD `confirmed_at` text;--> statement-breakpoint
ALTER TABLE `venues` ADD `freshness_stage` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `venues` ADD `stale_hidden_at` text;--> statement-breakpoint
-- Freshness starts at the deploy: existing businesses get a fresh 90 days instead of being hidden at once.
UPDATE `venues` SET `confirmed_at` = strftime('%Y-%m-%dT%H:%M:%fZ','now');
