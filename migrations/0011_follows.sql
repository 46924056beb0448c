CREATE TABLE `dead_letters` (
	`id` text PRIMARY KEY NOT NULL,
	`queue` text NOT NULL,
	`message_id` text NOT NULL,
	`body` text NOT NULL,
	`attempts` integer NOT NULL,
	`reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dead_letters_created_idx` ON `dead_letters` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `dead_letters_message_uq` ON `dead_letters` (`queue`,`message_id`);--> statement-breakpoint
CREATE TABLE `follow_addresses` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`confirmed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `follow_addresses_email_uq` ON `follow_addresses` (`email`);--> statement-breakpoint
CREATE TABLE `follows` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`address_id` text,
	`kind` text NOT NULL,
	`location_id` text,
	`filters` text,
	`target_key` text NOT NULL,
	`reminders` integer DEFAULT true NOT NULL,
	`confirmed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`address_id`) REFERENCES `follow_addresses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "follows_owner_ck" CHECK((user_id IS NULL) <> (address_id IS NULL)),
	CONSTRAINT "follows_kind_ck" CHECK((kind = 'place' AND location_id IS NOT NULL AND filters IS NULL) OR (kind = 'search' AND location_id IS NULL AND filters IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `follows_user_target_uq` ON `follows` (`user_id`,`target_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `follows_address_target_uq` ON `follows` (`address_id`,`target_key`);--> statement-breakpoint
CREATE INDEX `follows_location_idx` ON `follows` (`location_id`);--> statement-breakpoint
CREATE INDEX `follows_confirmed_idx` ON `follows` (`confirmed_at`);--> statement-breakpoint
CREATE TABLE `used_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `used_links_expires_idx` ON `used_links` (`expires_at`);--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `headers` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `send_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_send_key_uq` ON `mail_outbox` (`send_key`);