CREATE TABLE `analytics_salts` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_seen` (
	`day` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`day`, `hash`)
);
