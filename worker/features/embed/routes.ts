import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { withEdgeCache } from '../../lib/cache';
import { cityEmbed, venueEmbed } from './service';
import { renderEmbed, type EmbedData, type EmbedOptions } from './view';

type C = Context<AppEnv>;

/** The parameters a widget reads (its edge-cache key): ?theme=dark and ?compact=1. */
const EMBED_QUERY_KEYS = ['theme', 'compact'] as const;

/** ?theme=dark and ?compact=1; anything else is the default (light, full). */
function options(c: C): EmbedOptions {
  return { theme: c.req.query('theme') === 'dark' ? 'dark' : 'light', compact: c.req.query('compact') === '1' };
}

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
  .get('/:city', (c) => withEdgeCache(c, async () => page(c, await cityEmbed(c.var.deps, { citySlug: c.req.param('city') })), { query: EMBED_QUERY_KEYS }))
  .get('/:city/:venue', (c) =>
    withEdgeCache(c, async () => page(c, await venueEmbed(c.var.deps, { citySlug: c.req.param('city'), venueSlug: c.req.param('venue') })), {
      query: EMBED_QUERY_KEYS,
    }),
  );
