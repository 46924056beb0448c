-- Custom migration (drizzle-kit generate --custom): what drizzle's schema cannot express.
-- holiday_decisions (migration 0014) is keyed by (recurrence_id, date) of an occurrence but had no link to
-- quizzes, so its rows stayed after the series, the occurrence, the place, the business or the account was
-- deleted. A foreign key cannot do it (recurrence_id may become NULL on a kept occurrence, and the table would
-- have to be rebuilt), so these triggers delete an occurrence's decision with the occurrence on every path
-- (series delete, single delete, "no longer recurring", cascades from places and businesses, account deletion)
-- in the same statement. Each is one primary-key probe per deleted or re-keyed occurrence.

-- Orphans left by deletions before this migration.
DELETE FROM holiday_decisions
WHERE NOT EXISTS (SELECT 1 FROM quizzes q WHERE q.recurrence_id = holiday_decisions.recurrence_id AND q.date = holiday_decisions.date);
--> statement-breakpoint
CREATE TRIGGER holiday_decisions_quiz_ad AFTER DELETE ON quizzes
WHEN OLD.recurrence_id IS NOT NULL
BEGIN
  DELETE FROM holiday_decisions WHERE recurrence_id = OLD.recurrence_id AND date = OLD.date;
END;
--> statement-breakpoint
CREATE TRIGGER holiday_decisions_quiz_au AFTER UPDATE OF recurrence_id, date ON quizzes
WHEN OLD.recurrence_id IS NOT NULL AND (NEW.recurrence_id IS NOT OLD.recurrence_id OR NEW.date IS NOT OLD.date)
BEGIN
  DELETE FROM holiday_decisions WHERE recurrence_id = OLD.recurrence_id AND date = OLD.date;
END;
