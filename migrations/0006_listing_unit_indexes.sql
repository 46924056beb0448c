DROP INDEX `listing_series_live_idx`;--> statement-breakpoint
DROP INDEX `listing_series_city_idx`;--> statement-breakpoint
CREATE INDEX `listing_series_live_idx` ON `listing_series` (`last_date`,`is_public`,`owner_id`,`days_mask`,`shuffle`,`location_id`,`recurrence_id`,`pattern`);--> statement-breakpoint
CREATE INDEX `listing_series_city_idx` ON `listing_series` (`city_slug`,`last_date`,`is_public`,`owner_id`,`days_mask`,`shuffle`,`location_id`,`recurrence_id`,`pattern`);--> statement-breakpoint
CREATE INDEX `quizzes_unit_weekday_date_idx` ON `quizzes` (`recurrence_id`,`location_id`,`weekday`,`date`);