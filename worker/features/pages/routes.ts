import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { renderPublicPage } from './render';

const WEBSITE_JSON_LD = (origin: string) => ({
  '@context': 'https://schema.org',
  '@type': 'WebSite',
  name: 'Quizkväll',
  url: `${origin}/`,
  inLanguage: 'sv-SE',
  potentialAction: {
    '@type': 'SearchAction',
    target: { '@type': 'EntryPoint', urlTemplate: `${origin}/?search={search_term_string}` },
    'query-input': 'required name=search_term_string',
  },
});

/** Server-rendered public pages (spec 01 §2). */
export const pagesRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const origin = c.var.config.appUrl;
  const html = await renderPublicPage(
    c.env.ASSETS,
    {
      title: 'Quizkväll – Hitta pubquiz och quizkvällar i din stad',
      description: 'Hitta pubquiz och quizkvällar nära dig. Sök på stad, veckodag, datum eller ställe bland quiz i hela Sverige.',
      canonical: `${origin}/`,
      jsonLd: [WEBSITE_JSON_LD(origin)],
    },
    { kind: 'home' },
  );
  return c.html(html);
});
