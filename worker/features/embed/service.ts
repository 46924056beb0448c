/** Data of the embeddable widgets (issue 16): a venue's next 5 quizzes, a city's next 10. Public only. */
import type { Deps } from '../../ports/deps';
import { upcomingAtVenue, upcomingInCity } from '../calendar/service';
import type { EmbedData } from './view';

export const VENUE_EMBED_COUNT = 5;
export const CITY_EMBED_COUNT = 10;

export async function venueEmbed(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { citySlug: string; venueSlug: string }): Promise<EmbedData | null> {
  const { citySlug } = input;
  const origin = deps.config.appUrl;
  const v = await upcomingAtVenue(deps, { ...input, n: VENUE_EMBED_COUNT });
  if (!v) return null;
  return {
    heading: `Quiz på ${v.name}`,
    moreUrl: `${origin}/quiz/${citySlug}/${v.slug}`,
    moreLabel: `Alla quiz på ${v.name}`,
    rows: v.rows,
    showVenue: false,
    origin,
  };
}

export async function cityEmbed(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { citySlug: string }): Promise<EmbedData | null> {
  const { citySlug } = input;
  const origin = deps.config.appUrl;
  const c = await upcomingInCity(deps, { citySlug, n: CITY_EMBED_COUNT });
  if (!c) return null;
  return { heading: `Quiz i ${c.name}`, moreUrl: `${origin}/quiz/${citySlug}`, moreLabel: `Alla quiz i ${c.name}`, rows: c.rows, showVenue: true, origin };
}
