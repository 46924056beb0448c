-- Issue 48: a quizmaster's link and assignments belong to a unit (a series' recurrence_id or a
-- single quiz's id), which no foreign key can name. When the unit's last quiz is deleted (a series deleted, a single
-- quiz deleted, whichever path deletes), they go with it.
CREATE TRIGGER `quizzes_quizmaster_unit_cleanup`
AFTER DELETE ON `quizzes`
FOR EACH ROW WHEN OLD.`recurrence_id` IS NULL
  OR NOT EXISTS (SELECT 1 FROM `quizzes` q WHERE q.`recurrence_id` = OLD.`recurrence_id`)
BEGIN
  DELETE FROM `quizmaster_links` WHERE `unit_key` = coalesce(OLD.`recurrence_id`, OLD.`id`);
  DELETE FROM `quizmaster_assignments` WHERE `unit_key` = coalesce(OLD.`recurrence_id`, OLD.`id`);
END;
