/**
 * Data invariants as plain SQL (no imports, so the soak can run them through `wrangler d1 execute` and
 * the integration tests through D1). Each query returns the rows that VIOLATE the invariant; an empty
 * result means it holds. `scope` is a city slug (or a table name) so a test can look at its own rows.
 */
export interface Invariant {
  name: string;
  sql: string;
}

export const INVARIANTS: Invariant[] = [
  {
    name: 'at most 1 Premium and 3 Rekommenderat slot claims per city and day',
    sql: `SELECT city_slug AS scope, date, tier, COUNT(*) AS n FROM promotion_slot_claims
          GROUP BY city_slug, date, tier
          HAVING (tier = 'premium' AND COUNT(*) > 1) OR (tier = 'recommended' AND COUNT(*) > 3)`,
  },
  {
    name: 'never two owners of one slot: at most 1 Premium and 3 Rekommenderat active bought promotions per city and day',
    sql: `SELECT l.city_slug AS scope, p.start_date AS date, p.product_type AS tier, COUNT(*) AS n
          FROM promotions p JOIN quizzes q ON q.id = p.quiz_id JOIN locations l ON l.id = q.location_id
          WHERE p.status = 'active' AND p.order_id IS NOT NULL
          GROUP BY l.city_slug, p.start_date, p.product_type
          HAVING (p.product_type = 'premium' AND COUNT(*) > 1) OR (p.product_type = 'recommended' AND COUNT(*) > 3)`,
  },
  {
    // Issue 26.2. "Delivered" = a promotion of the order for the bought date whose period still covers
    // the quiz's current date (a quiz moved away from what was bought is not delivered). A quiz deleted
    // after its promotion ran takes the promotion with it (foreign key), so items whose quiz is gone are
    // left to the refund of the webhook that found them gone.
    name: 'every paid order has delivered promotions or a refund row',
    sql: `SELECT json_extract(j.value, '$.citySlug') AS scope, o.id AS order_id, json_extract(j.value, '$.quizId') AS quiz_id
          FROM checkout_orders o, json_each(o.items) j
          WHERE o.status = 'paid'
            AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.order_id = o.id)
            AND EXISTS (SELECT 1 FROM quizzes q WHERE q.id = json_extract(j.value, '$.quizId'))
            AND NOT EXISTS (SELECT 1 FROM promotions p JOIN quizzes q ON q.id = p.quiz_id
                            WHERE p.order_id = o.id AND p.quiz_id = json_extract(j.value, '$.quizId')
                              AND p.start_date = json_extract(j.value, '$.date')
                              AND q.date BETWEEN p.start_date AND p.end_date)`,
  },
  {
    name: 'a refunded order keeps no sold slot it did not deliver',
    sql: `SELECT c.city_slug AS scope, c.id AS claim_id, c.order_id
          FROM promotion_slot_claims c JOIN payment_refunds r ON r.order_id = c.order_id
          WHERE c.state = 'sold'
            AND NOT EXISTS (SELECT 1 FROM promotions p WHERE p.order_id = c.order_id AND p.quiz_id = c.quiz_id)`,
  },
  {
    name: 'never a promotion without a paid order',
    sql: `SELECT l.city_slug AS scope, p.id AS promotion_id, o.status AS order_status
          FROM promotions p JOIN quizzes q ON q.id = p.quiz_id JOIN locations l ON l.id = q.location_id
          LEFT JOIN checkout_orders o ON o.id = p.order_id
          WHERE o.id IS NULL OR o.status <> 'paid'`,
  },
  {
    name: 'sold slots belong to paid orders, held slots to open ones',
    sql: `SELECT c.city_slug AS scope, c.id AS claim_id, c.state, o.status
          FROM promotion_slot_claims c JOIN checkout_orders o ON o.id = c.order_id
          WHERE (c.state = 'sold' AND o.status <> 'paid') OR (c.state = 'held' AND o.status <> 'open')`,
  },
  {
    name: 'every item of a paid order holds a sold slot',
    sql: `SELECT json_extract(j.value, '$.citySlug') AS scope, o.id AS order_id
          FROM checkout_orders o, json_each(o.items) j
          WHERE o.status = 'paid'
            AND EXISTS (SELECT 1 FROM quizzes q WHERE q.id = json_extract(j.value, '$.quizId'))
            AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.order_id = o.id)
            AND NOT EXISTS (SELECT 1 FROM promotion_slot_claims c WHERE c.order_id = o.id
                            AND c.quiz_id = json_extract(j.value, '$.quizId') AND c.state = 'sold')`,
  },
  {
    name: 'one occurrence per series and date',
    sql: `SELECT l.city_slug AS scope, q.recurrence_id, q.date, COUNT(*) AS n
          FROM quizzes q JOIN locations l ON l.id = q.location_id
          WHERE q.recurrence_id IS NOT NULL GROUP BY q.recurrence_id, q.date HAVING COUNT(*) > 1`,
  },
  {
    name: 'no orphans: places without a business',
    sql: `SELECT 'locations' AS scope, id FROM locations WHERE venue_id NOT IN (SELECT id FROM venues)`,
  },
  {
    name: 'no orphans: quizzes without a place',
    sql: `SELECT 'quizzes' AS scope, id FROM quizzes WHERE location_id NOT IN (SELECT id FROM locations)`,
  },
  {
    name: 'no orphans: promotions without a quiz',
    sql: `SELECT 'promotions' AS scope, id FROM promotions WHERE quiz_id NOT IN (SELECT id FROM quizzes)`,
  },
  {
    name: 'no orphans: slot claims without a quiz or an order',
    sql: `SELECT 'promotion_slot_claims' AS scope, id FROM promotion_slot_claims WHERE quiz_id NOT IN (SELECT id FROM quizzes) OR order_id NOT IN (SELECT id FROM checkout_orders)`,
  },
  {
    name: 'no orphans: businesses without an owner',
    sql: `SELECT 'venues' AS scope, id FROM venues WHERE user_id NOT IN (SELECT id FROM users)`,
  },
  {
    name: 'no orphans: sessions without a user',
    sql: `SELECT 'sessions' AS scope, id FROM sessions WHERE user_id NOT IN (SELECT id FROM users)`,
  },
  {
    name: 'the listing index (listing_series, kept by triggers) has every quiz unit with its latest date, and nothing else',
    sql: `SELECT coalesce(e.city_slug, 'listing_series') AS scope, u.k AS unit, u.last AS expected, e.last_date AS stored
          FROM (SELECT CASE WHEN recurrence_id IS NULL THEN id ELSE recurrence_id || '@' || location_id END AS k, max(date) AS last
                FROM quizzes GROUP BY k) u
          LEFT JOIN listing_series e ON e.key = u.k
          WHERE e.key IS NULL OR e.last_date <> u.last
          UNION ALL
          SELECT e.city_slug AS scope, e.key AS unit, NULL, e.last_date FROM listing_series e
          WHERE NOT EXISTS (SELECT 1 FROM quizzes q WHERE q.id = e.key AND q.recurrence_id IS NULL)
            AND NOT EXISTS (SELECT 1 FROM quizzes q WHERE q.recurrence_id = e.recurrence_id AND q.location_id = e.location_id)`,
  },
  {
    name: 'an import job counts exactly the rows it wrote (progress = import_rows, counts add up)',
    sql: `SELECT 'import_jobs' AS scope, j.id, j.processed_rows, (SELECT COUNT(*) FROM import_rows r WHERE r.job_id = j.id) AS n
          FROM import_jobs j
          WHERE j.processed_rows <> (SELECT COUNT(*) FROM import_rows r WHERE r.job_id = j.id)
             OR j.processed_rows > j.total_rows
             OR j.created_count + j.duplicate_count + j.invalid_count + j.review_count
                <> (SELECT COUNT(*) FROM import_rows r WHERE r.job_id = j.id AND r.result <> 'merged')`,
  },
  {
    name: 'an imported row created its business in the same batch (no import_rows row without its data)',
    sql: `SELECT 'import_rows' AS scope, r.job_id, r.row_no FROM import_rows r
          WHERE r.result = 'created' AND r.resolved_at IS NULL AND r.venue_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM venues v WHERE v.id = r.venue_id)
            AND r.job_id IN (SELECT id FROM import_jobs WHERE status = 'running')`,
  },
  {
    name: 'no duplicate send key (each queued mail written once)',
    sql: `SELECT send_key AS scope, COUNT(*) AS n FROM mail_outbox WHERE send_key IS NOT NULL GROUP BY send_key HAVING COUNT(*) > 1`,
  },
  {
    name: 'no follow without a confirmed address is mailed (reminders and digests)',
    sql: `SELECT m.send_key AS scope, f.id AS follow_id FROM mail_outbox m
          JOIN follows f ON f.id = CASE WHEN m.send_key LIKE 'reminder:%' THEN substr(m.send_key, 10, 36)
                                        WHEN m.send_key LIKE 'digest:%' THEN substr(m.send_key, 8, 36) END
          LEFT JOIN follow_addresses a ON a.id = f.address_id
          WHERE f.confirmed_at IS NULL OR (f.address_id IS NOT NULL AND a.confirmed_at IS NULL)`,
  },
];
