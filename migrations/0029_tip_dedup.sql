ALTER TABLE `tips` ADD `dedup_key` text;--> statement-breakpoint
ALTER TABLE `tips` ADD `seen_count` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `tips` ADD `last_seen_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `tips_pending_dedup_uq` ON `tips` (`dedup_key`) WHERE status = 'pending';