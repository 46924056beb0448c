DROP INDEX `seasons_league_idx`;--> statement-breakpoint
CREATE INDEX `seasons_league_idx` ON `seasons` (`league_id`,`start_date`,`id`);