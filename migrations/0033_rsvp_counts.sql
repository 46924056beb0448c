-- "Vi kommer" (issue 47): rsvp_counts follows rsvps. Each row contributes: teams/seats when confirmed, held
-- when confirmed or offered (it holds a table), queued when queued. The guarded confirm reads one row here.
-- A row is made by the first RSVP (with the quiz's capacity) or by a capacity set on the quiz.
CREATE TRIGGER rsvps_counts_ai AFTER INSERT ON rsvps BEGIN
  INSERT OR IGNORE INTO rsvp_counts (quiz_id, capacity_tables) VALUES (NEW.quiz_id, (SELECT capacity_tables FROM quizzes WHERE id = NEW.quiz_id));
  UPDATE rsvp_counts SET
    teams = teams + (NEW.state = 'confirmed'),
    seats = seats + CASE WHEN NEW.state = 'confirmed' THEN NEW.team_size ELSE 0 END,
    held = held + (NEW.state IN ('confirmed', 'offered')),
    queued = queued + (NEW.state = 'queued')
  WHERE quiz_id = NEW.quiz_id;
END;
--> statement-breakpoint
CREATE TRIGGER rsvps_counts_au AFTER UPDATE OF state, team_size, quiz_id ON rsvps BEGIN
  UPDATE rsvp_counts SET
    teams = teams - (OLD.state = 'confirmed'),
    seats = seats - CASE WHEN OLD.state = 'confirmed' THEN OLD.team_size ELSE 0 END,
    held = held - (OLD.state IN ('confirmed', 'offered')),
    queued = queued - (OLD.state = 'queued')
  WHERE quiz_id = OLD.quiz_id;
  INSERT OR IGNORE INTO rsvp_counts (quiz_id, capacity_tables) VALUES (NEW.quiz_id, (SELECT capacity_tables FROM quizzes WHERE id = NEW.quiz_id));
  UPDATE rsvp_counts SET
    teams = teams + (NEW.state = 'confirmed'),
    seats = seats + CASE WHEN NEW.state = 'confirmed' THEN NEW.team_size ELSE 0 END,
    held = held + (NEW.state IN ('confirmed', 'offered')),
    queued = queued + (NEW.state = 'queued')
  WHERE quiz_id = NEW.quiz_id;
END;
--> statement-breakpoint
CREATE TRIGGER rsvps_counts_ad AFTER DELETE ON rsvps BEGIN
  UPDATE rsvp_counts SET
    teams = teams - (OLD.state = 'confirmed'),
    seats = seats - CASE WHEN OLD.state = 'confirmed' THEN OLD.team_size ELSE 0 END,
    held = held - (OLD.state IN ('confirmed', 'offered')),
    queued = queued - (OLD.state = 'queued')
  WHERE quiz_id = OLD.quiz_id;
END;
--> statement-breakpoint
-- The capacity is copied into rsvp_counts, so a page's figures (the listing) read only rsvp_counts.
CREATE TRIGGER quizzes_rsvp_capacity_ai AFTER INSERT ON quizzes WHEN NEW.capacity_tables IS NOT NULL BEGIN
  INSERT OR IGNORE INTO rsvp_counts (quiz_id) VALUES (NEW.id);
  UPDATE rsvp_counts SET capacity_tables = NEW.capacity_tables WHERE quiz_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER quizzes_rsvp_capacity_au AFTER UPDATE OF capacity_tables ON quizzes
WHEN NEW.capacity_tables IS NOT OLD.capacity_tables BEGIN
  INSERT OR IGNORE INTO rsvp_counts (quiz_id) VALUES (NEW.id);
  UPDATE rsvp_counts SET capacity_tables = NEW.capacity_tables WHERE quiz_id = NEW.id;
END;
