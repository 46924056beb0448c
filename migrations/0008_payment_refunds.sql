CREATE TABLE `payment_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`stripe_session_id` text,
	`payment_intent_id` text,
	`provider_refund_id` text,
	`error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `checkout_orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_refunds_order_uq` ON `payment_refunds` (`order_id`);--> statement-breakpoint
CREATE INDEX `payment_refunds_status_idx` ON `payment_refunds` (`status`,`created_at`);--> statement-breakpoint
-- Issue 13.2: a slot held for an open checkout cannot disappear, whichever path deletes it (quiz,
-- series, place, business or account deletion and their foreign-key cascades). Hold release and
-- expiry first move the order forward (open → expired | failed) in the same batch, so they pass.
-- Services map the abort (marker 'open_checkout_hold') to a 409 with a Swedish message.
CREATE TRIGGER `promotion_slot_claims_open_checkout_guard`
BEFORE DELETE ON `promotion_slot_claims`
FOR EACH ROW WHEN OLD.`state` = 'held'
  AND EXISTS (SELECT 1 FROM `checkout_orders` o WHERE o.`id` = OLD.`order_id` AND o.`status` = 'open')
BEGIN
  SELECT RAISE(ABORT, 'open_checkout_hold');
END;
