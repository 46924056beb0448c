-- Issue 26.2: what an open checkout holds cannot move away under it. A quiz with a slot held for an
-- open checkout keeps its date and place, and a place with such a quiz keeps its city, whichever path
-- writes (the services check first and answer 409; this is the backstop for a checkout opened between
-- their check and their write). The abort carries the same marker as the delete guard of migration
-- 0008 ('open_checkout_hold'), which services map to a 409 with a Swedish message.
CREATE TRIGGER `quizzes_open_checkout_move_guard`
BEFORE UPDATE OF `date`, `location_id` ON `quizzes`
FOR EACH ROW WHEN (NEW.`date` IS NOT OLD.`date` OR NEW.`location_id` IS NOT OLD.`location_id`)
  AND EXISTS (SELECT 1 FROM `promotion_slot_claims` c JOIN `checkout_orders` o ON o.`id` = c.`order_id`
              WHERE c.`quiz_id` = OLD.`id` AND c.`state` = 'held' AND o.`status` = 'open')
BEGIN
  SELECT RAISE(ABORT, 'open_checkout_hold');
END;
--> statement-breakpoint
CREATE TRIGGER `locations_open_checkout_city_guard`
BEFORE UPDATE OF `city_slug` ON `locations`
FOR EACH ROW WHEN NEW.`city_slug` IS NOT OLD.`city_slug`
  AND EXISTS (SELECT 1 FROM `promotion_slot_claims` c JOIN `checkout_orders` o ON o.`id` = c.`order_id`
              JOIN `quizzes` q ON q.`id` = c.`quiz_id`
              WHERE q.`location_id` = OLD.`id` AND c.`state` = 'held' AND o.`status` = 'open')
BEGIN
  SELECT RAISE(ABORT, 'open_checkout_hold');
END;
