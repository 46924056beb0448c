/**
 * A page of cards' quizmaster profiles, resolved at read time (issue 48): the stored card JSON and the listing
 * triggers know nothing of profiles. One bounded read per page, driven by the page's keys (a series'
 * recurrence_id or a single quiz's id): a batch of key reads (a card without a profile reads nothing), or for a
 * long list (a feed's page) one `json_each(?) j CROSS JOIN …` join.
 */
import { sql } from 'drizzle-orm';
import { batchAll } from '../db/batch';
import type { Db } from '../db/client';

export interface QuizmasterRefRow {
  key: string;
  name: string;
  slug: string;
}

/** Up to this many keys are looked up as a batch of key reads (a miss reads no row); more go as one json_each join. */
const BATCHED_KEYS_MAX = 24;

/** Profiles linked to the given unit keys (series id or single quiz id): key → { name, slug }. */
export async function quizmasterRefsByKeys(db: Db, keys: readonly string[]): Promise<Map<string, { name: string; slug: string }>> {
  const unique = [...new Set(keys)];
  if (!unique.length) return new Map();
  const one = (key: string) => sql`
    SELECT k.unit_key AS key, p.name AS name, p.slug AS slug
    FROM quizmaster_links k CROSS JOIN quizmasters p ON p.id = k.quizmaster_id WHERE k.unit_key = ${key}`;
  const rows =
    unique.length <= BATCHED_KEYS_MAX
      ? (await batchAll<QuizmasterRefRow>(db, unique.map(one))).flat()
      : await db.all<QuizmasterRefRow>(sql`
          SELECT k.unit_key AS key, p.name AS name, p.slug AS slug
          FROM json_each(${JSON.stringify(unique)}) j
            CROSS JOIN quizmaster_links k ON k.unit_key = j.value
            CROSS JOIN quizmasters p ON p.id = k.quizmaster_id`);
  return new Map(rows.map((r) => [r.key, { name: r.name, slug: r.slug }]));
}
