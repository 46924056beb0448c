/**
 * A page of cards' quizmaster profiles, resolved at read time (issue 48): the stored card JSON and the listing
 * triggers know nothing of profiles. One bounded statement per page, driven by the page's keys
 * (`json_each(?) j CROSS JOIN …`, one probe a key): a series' recurrence_id or a single quiz's id.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export interface QuizmasterRefRow {
  key: string;
  name: string;
  slug: string;
}

/** Profiles linked to the given unit keys (series id or single quiz id): key → { name, slug }. */
export async function quizmasterRefsByKeys(db: Db, keys: readonly string[]): Promise<Map<string, { name: string; slug: string }>> {
  const unique = [...new Set(keys)];
  if (!unique.length) return new Map();
  const rows = await db.all<QuizmasterRefRow>(sql`
    SELECT k.unit_key AS key, p.name AS name, p.slug AS slug
    FROM json_each(${JSON.stringify(unique)}) j
      CROSS JOIN quizmaster_links k ON k.unit_key = j.value
      CROSS JOIN quizmasters p ON p.id = k.quizmaster_id`);
  return new Map(rows.map((r) => [r.key, { name: r.name, slug: r.slug }]));
}
