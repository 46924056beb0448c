/**
 * The listing's quizmaster filter (`?quizmaster={slug}`, issue 48): the occurrences of the series and single
 * quizzes linked to one profile, at public businesses, in a window. A profile leads a handful of series, so this
 * reads that handful's dates by key (quizmaster_links by profile, quizzes_recurrence_idx per series, the primary
 * key per single quiz) instead of walking the listing.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { CARD_QUIZ_COLUMNS, type DetailRow } from './cards';

/** At most this many linked series and single quizzes are read for one profile. */
export const QUIZMASTER_UNITS_MAX = 50;

export type QuizmasterOccurrenceRow = DetailRow & { unitKey: string; profileName: string; profileSlug: string; locationId: string };

const PLACE_COLUMNS = sql`l.id AS lId, l.name AS lName, l.address AS lAddress, l.city AS lCity, l.city_slug AS lCitySlug, l.phone AS lPhone,
  l.website AS lWebsite, l.latitude AS lLat, l.longitude AS lLng,
  v.id AS vId, v.name AS vName, v.slug AS vSlug, v.description AS vDescription, v.website AS vWebsite`;

/**
 * Occurrences of the profile's series from `from` to `to` and of its single quizzes from `from` (any later date),
 * at public businesses, in no particular order.
 */
export function quizmasterOccurrences(db: Db, slug: string, from: string, to: string, houseEmail: string): Promise<QuizmasterOccurrenceRow[]> {
  // Units first, each with its place and business (read once a unit, not once a date), then the unit's dates.
  const head = sql`FROM (SELECT k.unit_key, k.location_id, k.venue_id, p.name AS pname, p.slug AS pslug
      FROM quizmasters p CROSS JOIN quizmaster_links k ON k.quizmaster_id = p.id WHERE p.slug = ${slug} LIMIT ${QUIZMASTER_UNITS_MAX}) u
    CROSS JOIN locations l ON l.id = u.location_id
    CROSS JOIN venues v ON v.id = u.venue_id AND v.is_public = 1`;
  const columns = sql`${CARD_QUIZ_COLUMNS}, ${PLACE_COLUMNS}, (v.user_id = (SELECT id FROM users WHERE email = ${houseEmail})) AS house,
    u.unit_key AS unitKey, u.pname AS profileName, u.pslug AS profileSlug`;
  // Not sorted in SQL (a temporary b-tree would count every row twice): the caller sorts the bounded set.
  return db.all<QuizmasterOccurrenceRow>(sql`
    SELECT ${columns} ${head}
      CROSS JOIN quizzes q ON q.recurrence_id = u.unit_key AND q.date >= ${from} AND q.date <= ${to} AND q.location_id = u.location_id
    UNION ALL
    SELECT ${columns} ${head}
      CROSS JOIN quizzes q ON q.id = u.unit_key AND q.recurrence_id IS NULL AND q.date >= ${from}`);
}
