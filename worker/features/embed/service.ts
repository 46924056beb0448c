/** Data of the embeddable widgets (issue 16): a venue's next 5 quizzes, a city's next 10. Public only. */
import type { Db } from '../../db/client';
import { upcomingAtVenue, upcomingInCity } from '../calendar/service';
import type { EmbedData } from './view';

export const VENUE_EMBED_COUNT = 5;
export const CITY_EMBED_COUNT = 10;

export async function venueEmbed(db: Db, citySlug: string, venueSlug: string, today: string, origin: string): Promise<EmbedData | null> {
  const v = await upcomingAtVenue(db, citySlug, venueSlug, today, VENUE_EMBED_COUNT);
  if (!v) return null;
  return { heading: `Quiz på ${v.name}`, moreUrl: `${origin}/quiz/${citySlug}/${v.slug}`, moreLabel: `Alla quiz på ${v.name}`, rows: v.rows, showVenue: false, origin };
}

export async function cityEmbed(db: Db, citySlug: string, today: string, origin: string): Promise<EmbedData | null> {
  const c = await upcomingInCity(db, citySlug, today, CITY_EMBED_COUNT);
  if (!c) return null;
  return { heading: `Quiz i ${c.name}`, moreUrl: `${origin}/quiz/${citySlug}`, moreLabel: `Alla quiz i ${c.name}`, rows: c.rows, showVenue: true, origin };
}
