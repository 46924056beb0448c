-- "Vi kommer" (issue 47): rsvp_counts follows rsvps. Each row contributes: teams/seats when confirmed, held
-- when confirmed or offered (it holds a table), queued when queued. The guarded confirm reads one row here.
CREATE TRIGGER rsvps_counts_ai AFTER INSERT ON rsvps BEGIN
  INSERT OR IGNORE INTO rsvp_counts (quiz_id) VALUES (NEW.quiz_id);
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
  INSERT OR IGNORE INTO rsvp_counts (quiz_id) VALUES (NEW.quiz_id);
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
