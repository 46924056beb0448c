import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { withEdgeCache } from '../../middleware/edge-cache';
import { cityEmbed, venueEmbed } from './service';
import { renderEmbed, type EmbedData, type EmbedOptions } from './view';

type C = Context<AppEnv>;

/** ?theme=dark and ?compact=1; anything else is the default (light, full). */
function optionsOf(query: Record<string, string | undefined>): EmbedOptions {
  return { theme: query.theme === 'dark' ? 'dark' : 'light', compact: query.compact === '1' };
}
const options = (c: C) => optionsOf(c.req.query());

/** A widget's edge-cache key: the options it acts on, so `?theme=x` shares the light widget's entry (issue 43.8). */
const EMBED_CACHE = {
  effective: (query: Record<string, string>) => {
    const o = optionsOf(query);
    return { theme: o.theme === 'dark' ? 'dark' : undefined, compact: o.compact ? '1' : undefined };
  },
};

async function page(c: C, data: EmbedData | null) {
  if (!data)
    return c.html(
      await renderEmbed(
        { heading: 'Hittades inte', moreUrl: c.var.config.appUrl, moreLabel: 'Till Quizkväll', rows: [], showVenue: false, origin: c.var.config.appUrl },
        options(c),
      ),
      404,
    );
  return c.html(await renderEmbed(data, options(c)));
}

/**
 * Embeddable widgets for other sites' <iframe>s (issue 16): /embed/{city}/{venue} and /embed/{city}.
 * May be framed by any site (worker/app.ts relaxes frame-ancestors for /embed/* only); sets no cookie;
 * edge-cached like the pages (theme and compact are part of the key, no other parameter).
 */
export const embedRoutes = new Hono<AppEnv>()
  .get('/:city', (c) => withEdgeCache(c, async () => page(c, await cityEmbed(c.var.deps, { citySlug: c.req.param('city') })), EMBED_CACHE))
  .get('/:city/:venue', (c) =>
    withEdgeCache(c, async () => page(c, await venueEmbed(c.var.deps, { citySlug: c.req.param('city'), venueSlug: c.req.param('venue') })), EMBED_CACHE),
  );
