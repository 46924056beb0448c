-- Issue 48: a quizmaster's link and assignments belong to a unit (a series' recurrence_id or a single quiz's id),
-- which no foreign key can name. When the unit's last quiz is deleted (a series deleted, a single quiz deleted,
-- whichever path deletes), they go with it.
CREATE TRIGGER `quizzes_quizmaster_unit_cleanup`
AFTER DELETE ON `quizzes`
FOR EACH ROW WHEN OLD.`recurrence_id` IS NULL
  OR NOT EXISTS (SELECT 1 FROM `quizzes` q WHERE q.`recurrence_id` = OLD.`recurrence_id`)
BEGIN
  DELETE FROM `quizmaster_links` WHERE `unit_key` = coalesce(OLD.`recurrence_id`, OLD.`id`);
  DELETE FROM `quizmaster_assignments` WHERE `unit_key` = coalesce(OLD.`recurrence_id`, OLD.`id`);
END;
--> statement-breakpoint
-- A series made single (its other dates deleted, this quiz's recurrence_id cleared) keeps its quizmaster under the
-- quiz's id; a single quiz made the first date of a new series keeps it under the series' id. Never onto a unit that
-- has its own link or assignment (then the old ones are dropped).
CREATE TRIGGER `quizzes_quizmaster_unit_move`
AFTER UPDATE OF `recurrence_id` ON `quizzes`
FOR EACH ROW WHEN OLD.`recurrence_id` IS NOT NEW.`recurrence_id`
  AND (OLD.`recurrence_id` IS NULL OR NOT EXISTS (SELECT 1 FROM `quizzes` q WHERE q.`recurrence_id` = OLD.`recurrence_id`))
BEGIN
  UPDATE `quizmaster_links` SET `unit_key` = coalesce(NEW.`recurrence_id`, NEW.`id`)
    WHERE `unit_key` = coalesce(OLD.`recurrence_id`, OLD.`id`)
      AND NOT EXISTS (SELECT 1 FROM `quizmaster_links` k WHERE k.`unit_key` = coalesce(NEW.`recurrence_id`, NEW.`id`));
  UPDATE `quizmaster_assignments` SET `unit_key` = coalesce(NEW.`recurrence_id`, NEW.`id`)
    WHERE `unit_key` = coalesce(OLD.`recurrence_id`, OLD.`id`)
      AND NOT EXISTS (SELECT 1 FROM `quizmaster_assignments` a
        WHERE a.`unit_key` = coalesce(NEW.`recurrence_id`, NEW.`id`) AND a.`quizmaster_id` = `quizmaster_assignments`.`quizmaster_id`);
  DELETE FROM `quizmaster_links` WHERE `unit_key` = coalesce(OLD.`recurrence_id`, OLD.`id`);
  DELETE FROM `quizmaster_assignments` WHERE `unit_key` = coalesce(OLD.`recurrence_id`, OLD.`id`);
END;
