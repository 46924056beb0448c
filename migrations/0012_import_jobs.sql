CREATE TABLE `import_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`created_by` text,
	`file_name` text NOT NULL,
	`file_key` text NOT NULL,
	`rows_key` text NOT NULL,
	`encoding` text NOT NULL,
	`status` text DEFAULT 'uploaded' NOT NULL,
	`total_rows` integer NOT NULL,
	`processed_rows` integer DEFAULT 0 NOT NULL,
	`created_count` integer DEFAULT 0 NOT NULL,
	`duplicate_count` integer DEFAULT 0 NOT NULL,
	`invalid_count` integer DEFAULT 0 NOT NULL,
	`review_count` integer DEFAULT 0 NOT NULL,
	`preview` text NOT NULL,
	`today` text,
	`error` text,
	`started_at` text,
	`finished_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `import_jobs_created_idx` ON `import_jobs` (`created_at`);--> statement-breakpoint
CREATE TABLE `import_rows` (
	`job_id` text NOT NULL,
	`row_no` integer NOT NULL,
	`result` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`venue_id` text,
	`data` text,
	`resolved_at` text,
	PRIMARY KEY(`job_id`, `row_no`),
	FOREIGN KEY (`job_id`) REFERENCES `import_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_rows_job_result_idx` ON `import_rows` (`job_id`,`result`,`row_no`);