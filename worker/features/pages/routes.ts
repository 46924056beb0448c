import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { withEdgeCache } from '../../middleware/edge-cache';
import { listingContext } from '../../lib/listing-context';
import { slugify } from '../../lib/slug';
import { countText, findWeekday } from '../../lib/swedish';
import { combinedFaq } from './contract';
import type { PublicPageData } from './contract';
import { ogImagePath } from '../share/service';
import { listingDayTrigger } from '../listing/service';
import { renderPublicPage, type PageHead } from './render';
import { MAX_SLOTS_PER_DAY, priceText, TIER_LABELS, VOLUME_DISCOUNT_MIN_WEEKS, VOLUME_DISCOUNT_PERCENT } from '../promotion/contract';
import { getPricing } from '../promotion/service';
import { findProfile, profilePage } from '../quizmasters/service';
import { ICS_CONTENT_TYPE, quizmasterFeed } from '../calendar/service';
import { buildLeaguePage, buildResultsPage, buildTeamPage } from '../results/service';
import { findPublicVenueWithPlaces } from '../listing/service';
import { breadcrumbJsonLd, DEFAULT_DESCRIPTION, eventsJsonLd, faqJsonLd, KEYWORDS, mainListingHead, websiteJsonLd } from './seo';
import {
  buildCombinedPage,
  buildListingPage,
  buildVenuePage,
  findCity,
  pageEffectiveQuery,
  sitemapChild,
  sitemapIndex,
  weekdayRef,
  type PageCtx,
  type SitemapEntry,
  type SitemapKind,
} from './service';

type C = Context<AppEnv>;

function ctxOf(c: C): PageCtx {
  return { ...listingContext(c.var, { onStale: listingDayTrigger(c.env, () => c.executionCtx) }), viewerId: null, mapTileUrl: c.var.config.mapTileUrl };
}

async function html(c: C, head: Omit<PageHead, 'jsonLd'> & { jsonLd?: unknown[] }, data: PublicPageData, status: 200 | 404 = 200) {
  const origin = c.var.config.appUrl;
  const page = await renderPublicPage(c.env.ASSETS, { keywords: KEYWORDS, ...head, jsonLd: [websiteJsonLd(origin), ...(head.jsonLd ?? [])] }, data);
  return c.html(page, status);
}

function notFoundPage(c: C, message?: string) {
  const origin = c.var.config.appUrl;
  return html(
    c,
    { title: 'Sidan hittades inte | Quizkväll', description: DEFAULT_DESCRIPTION, canonical: `${origin}/`, robots: 'noindex' },
    { kind: 'notFound', message },
    404,
  );
}

/** Path segment as typed (decoded); null when it is not valid percent-encoding. */
function segment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** å/ä/ö or capitals in a slug: 301 to the ASCII spelling (query kept). */
function redirectIfNotAscii(c: C, parts: string[]): Response | null {
  const ascii = parts.map((p) => slugify(p));
  if (ascii.some((a) => a === '')) return null;
  if (ascii.every((a, i) => a === parts[i])) return null;
  const q = new URL(c.req.url).search;
  return c.redirect(`/quiz/${ascii.join('/')}${q}`, 301);
}

async function mainListing(c: C, variant: 'home' | 'legacy', citySlug?: string) {
  const origin = c.var.config.appUrl;
  const ctx = ctxOf(c);
  const query = c.req.query();
  if (citySlug) {
    const city = await findCity(c.var.db, citySlug);
    if (!city) return notFoundPage(c);
    query.city = city.slug;
  }
  const data = await buildListingPage(c.var.db, variant, query, ctx);
  const cityName = data.filters.city ? data.cities.find((x) => x.slug === data.filters.city)?.name : undefined;
  const head = mainListingHead({
    search: data.filters.search || undefined,
    cityName,
    citySlug: data.filters.city,
    date: data.filters.date || undefined,
    today: ctx.today,
  });
  const path = variant === 'legacy' ? '/legacy' : citySlug ? `/stad/${citySlug}` : '/';
  const crumbs = [{ name: 'Quizkväll', path: '/' }];
  if (citySlug && cityName) crumbs.push({ name: cityName, path });
  return html(
    c,
    {
      ...head,
      canonical: `${origin}${path}`,
      // A position in the URL (near mode) is one visitor's view: never indexed (canonical stays the page).
      robots: variant === 'legacy' || data.filters.near ? 'noindex' : undefined,
      image: origin + ogImagePath(citySlug ? { kind: 'city', city: citySlug } : { kind: 'start' }),
      jsonLd: [breadcrumbJsonLd(origin, crumbs), ...eventsJsonLd(origin, data.result.items, ctx.today)],
    },
    data,
  );
}

async function cityPage(c: C, citySlug: string) {
  const origin = c.var.config.appUrl;
  const ctx = ctxOf(c);
  const city = await findCity(c.var.db, citySlug);
  if (!city) return notFoundPage(c);
  const data = await buildListingPage(c.var.db, 'city', c.req.query(), ctx, { city });
  return html(
    c,
    {
      title: `Quiz i ${city.name} – pubquiz och quizkvällar | Quizkväll`,
      description: `Alla kommande quizkvällar och pubquiz i ${city.name}: dag, tid, pris och ställe. Hitta ett quiz nära dig i ${city.name}.`,
      canonical: `${origin}/quiz/${city.slug}`,
      keywords: `quiz ${city.name}, pubquiz ${city.name}, quizkväll ${city.name}, ${KEYWORDS}`,
      image: origin + ogImagePath({ kind: 'city', city: city.slug }),
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: city.name, path: `/quiz/${city.slug}` },
        ]),
        ...eventsJsonLd(origin, data.result.items, ctx.today),
      ],
    },
    data,
  );
}

async function weekdayPage(c: C, slug: string) {
  const origin = c.var.config.appUrl;
  const ctx = ctxOf(c);
  const weekday = weekdayRef(slug)!;
  const data = await buildListingPage(c.var.db, 'weekday', c.req.query(), ctx, { weekday });
  return html(
    c,
    {
      title: `Quiz på ${weekday.name} – pubquiz i hela Sverige | Quizkväll`,
      description: `Alla pubquiz och quizkvällar på ${weekday.name}. Välj stad och hitta ett quiz på ${weekday.name} nära dig.`,
      keywords: `quiz ${weekday.name}, pubquiz ${weekday.name}, quizkväll ${weekday.name}, ${KEYWORDS}`,
      canonical: `${origin}/quiz/${weekday.slug}`,
      image: origin + ogImagePath({ kind: 'weekday', weekday: weekday.slug }),
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: weekday.label, path: `/quiz/${weekday.slug}` },
        ]),
        ...eventsJsonLd(origin, data.result.items, ctx.today),
      ],
    },
    data,
  );
}

async function combinedPage(c: C, citySlug: string, weekdaySlug: string) {
  const origin = c.var.config.appUrl;
  const ctx = ctxOf(c);
  const city = await findCity(c.var.db, citySlug);
  const weekday = weekdayRef(weekdaySlug);
  if (!city || !weekday) return notFoundPage(c);
  const data = await buildCombinedPage(c.var.db, city, weekday, ctx, c.req.query());
  return html(
    c,
    {
      title: `Quiz på ${weekday.name} i ${city.name} – pubquiz ${weekday.name}skväll | Quizkväll`,
      description: `Pubquiz och quizkvällar på ${weekday.name} i ${city.name}: ${countText(data.result.venueCount ?? 0, 'ställe', 'ställen')}, tider, priser och quizmasters. Samla laget!`,
      canonical: `${origin}/quiz/${city.slug}/${weekday.slug}`,
      image: origin + ogImagePath({ kind: 'combined', city: city.slug, weekday: weekday.slug }),
      keywords: `quiz ${weekday.name} ${city.name}, pubquiz ${city.name}, quiz ${city.name} ${weekday.name}, ${KEYWORDS}`,
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: city.name, path: `/quiz/${city.slug}` },
          { name: weekday.label, path: `/quiz/${city.slug}/${weekday.slug}` },
        ]),
        faqJsonLd(combinedFaq(city.name, weekday.name)),
        ...eventsJsonLd(origin, data.result.items, ctx.today),
      ],
    },
    data,
  );
}

async function venuePage(c: C, citySlug: string, venueSlug: string) {
  const origin = c.var.config.appUrl;
  const ctx = ctxOf(c);
  const data = await buildVenuePage(c.var.db, citySlug, venueSlug, ctx);
  if (!data) return notFoundPage(c, 'Verksamheten hittades inte');
  const path = `/quiz/${data.city.slug}/${venueSlug}`;
  const upcoming = [...data.recurring.slice(0, 6), ...data.specials.slice(0, 6)];
  return html(
    c,
    {
      title: `${data.venue.name} – quiz i ${data.city.name} | Quizkväll`,
      description: (data.venue.description ?? `Quizkvällar på ${data.venue.name} i ${data.city.name}.`).slice(0, 155),
      canonical: `${origin}${path}`,
      image: origin + ogImagePath({ kind: 'venue', city: data.city.slug, venue: venueSlug }),
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: data.city.name, path: `/quiz/${data.city.slug}` },
          { name: data.venue.name, path },
        ]),
        ...eventsJsonLd(origin, upcoming, ctx.today),
      ],
    },
    data,
  );
}

/** /quizmaster/{slug} (issue 48): the profile, its photo and bio, and the next quiz of each series it leads. */
async function quizmasterPage(c: C, slug: string) {
  const origin = c.var.config.appUrl;
  const ctx = ctxOf(c);
  const data = await profilePage(c.var.db, slug, ctx.today, ctx.houseEmail);
  if (!data) return notFoundPage(c, 'Quizmastern hittades inte');
  const { profile, upcoming } = data;
  const path = `/quizmaster/${profile.slug}`;
  const venues = [...new Set(upcoming.map((q) => q.venue.name))];
  const fallback = venues.length ? `${profile.name} leder quiz på ${venues.join(', ')}.` : `${profile.name} är quizmaster på Quizkväll.`;
  return html(
    c,
    {
      title: `${profile.name} – quizmaster | Quizkväll`,
      description: (profile.bio ?? fallback).replace(/\s+/g, ' ').slice(0, 155),
      canonical: `${origin}${path}`,
      image: origin + ogImagePath({ kind: 'quizmaster', slug: profile.slug }),
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: profile.name, path },
        ]),
        {
          '@context': 'https://schema.org',
          '@type': 'Person',
          name: profile.name,
          url: `${origin}${path}`,
          ...(profile.bio ? { description: profile.bio } : {}),
          ...(profile.photoUrl ? { image: origin + profile.photoUrl } : {}),
        },
        ...eventsJsonLd(origin, upcoming, ctx.today),
      ],
    },
    { kind: 'quizmaster', today: ctx.today, profile, upcoming },
  );
}

/** /quiz/{city}/{venue}/resultat (issue 46): the latest night, the current season's table, earlier nights and seasons. */
async function resultsPage(c: C, citySlug: string, venueSlug: string) {
  const origin = c.var.config.appUrl;
  const ctx = ctxOf(c);
  const found = await findPublicVenueWithPlaces(c.var.db, venueSlug, ctx.houseEmail);
  const here = found?.places.find((p) => p.citySlug === citySlug);
  if (!found || !here) return notFoundPage(c, 'Verksamheten hittades inte');
  const venue = { id: found.venue.id, name: found.venue.name, slug: found.venue.slug };
  const city = { slug: here.citySlug, name: here.city };
  const data = await buildResultsPage(c.var.deps, { today: ctx.today, city, venue, query: c.req.query() });
  const venuePath = `/quiz/${city.slug}/${venue.slug}`;
  const path = `${venuePath}/resultat`;
  const winner = data.night?.rows[0];
  return html(
    c,
    {
      title: `Resultat – ${venue.name}, ${city.name} | Quizkväll`,
      description: (winner
        ? `Quizresultat från ${venue.name} i ${city.name}: ${winner.team} vann senast. Säsongens tabell och tidigare kvällar.`
        : `Quizresultat från ${venue.name} i ${city.name}: säsongens tabell och tidigare kvällar.`
      ).slice(0, 155),
      canonical: `${origin}${path}`,
      // Paged and chosen views are the same page for search engines.
      robots: Object.keys(c.req.query()).length ? 'noindex' : undefined,
      image: origin + ogImagePath({ kind: 'results', city: city.slug, venue: venue.slug }),
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: city.name, path: `/quiz/${city.slug}` },
          { name: venue.name, path: venuePath },
          { name: 'Resultat', path },
        ]),
      ],
    },
    data,
  );
}

/** /lag/{slug} (issue 46): a team's nights across venues and its seasons. */
async function teamPage(c: C, slug: string) {
  const origin = c.var.config.appUrl;
  const data = await buildTeamPage(c.var.deps, { slug, query: c.req.query() });
  if (!data) return notFoundPage(c, 'Laget hittades inte');
  const path = `/lag/${data.team.slug}`;
  return html(
    c,
    {
      title: `${data.team.name} – quizlag | Quizkväll`,
      description: `${data.team.name}: quizkvällar, placeringar och säsonger på Quizkväll.`.slice(0, 155),
      canonical: `${origin}${path}`,
      robots: Object.keys(c.req.query()).length ? 'noindex' : undefined,
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: data.team.name, path },
        ]),
      ],
    },
    data,
  );
}

/** /liga/{slug} (issue 46): a league's season table across its venues, its venues and its seasons. */
async function leaguePage(c: C, slug: string) {
  const origin = c.var.config.appUrl;
  const ctx = ctxOf(c);
  const data = await buildLeaguePage(c.var.deps, { today: ctx.today, slug, query: c.req.query() });
  if (!data) return notFoundPage(c, 'Ligan hittades inte');
  const path = `/liga/${data.league.slug}`;
  const leader = data.season?.rows[0];
  return html(
    c,
    {
      title: `${data.league.name} – quizliga | Quizkväll`,
      description: (leader
        ? `${data.league.name}: ligatabellen för ${data.season!.name}, ${leader.team} leder. ${data.venues.length} ställen.`
        : `${data.league.name}: ligatabell och säsonger för ${data.venues.length} ställen.`
      ).slice(0, 155),
      canonical: `${origin}${path}`,
      robots: Object.keys(c.req.query()).length ? 'noindex' : undefined,
      image: origin + ogImagePath({ kind: 'league', slug: data.league.slug }),
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: data.league.name, path },
        ]),
      ],
    },
    data,
  );
}

/** /annonsera (issue 18): tiers, live (or fallback) prices, the caps and how the listing is ranked. Not edge-cached: prices come from Stripe. */
async function advertisePage(c: C) {
  const origin = c.var.config.appUrl;
  const pricing = await getPricing(c.var.deps);
  const tiers = (['premium', 'recommended'] as const).map((id) => ({
    id,
    label: TIER_LABELS[id],
    weeklyPriceSek: pricing[id].weeklyPriceSek,
    maxPerDay: MAX_SLOTS_PER_DAY[id],
    options: pricing[id].options.map((o) => ({ weeks: o.weeks, priceSek: o.priceSek })),
  }));
  return html(
    c,
    {
      title: 'Annonsera – betald placering och så rangordnas listan | Quizkväll',
      description: `Synas mer på Quizkväll: ${TIER_LABELS.recommended} från ${priceText(pricing.recommended.weeklyPriceSek)} och ${TIER_LABELS.premium} från ${priceText(pricing.premium.weeklyPriceSek)} per vecka. Så rangordnas quizlistan.`,
      canonical: `${origin}/annonsera`,
      jsonLd: [
        breadcrumbJsonLd(origin, [
          { name: 'Quizkväll', path: '/' },
          { name: 'Annonsera', path: '/annonsera' },
        ]),
      ],
    },
    {
      kind: 'advertise',
      tiers,
      priceSource: pricing.source,
      volumeDiscountPercent: VOLUME_DISCOUNT_PERCENT,
      volumeDiscountMinWeeks: VOLUME_DISCOUNT_MIN_WEEKS,
    },
  );
}

const escXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const entry = (e: SitemapEntry) => `<loc>${escXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${escXml(e.lastmod)}</lastmod>` : ''}`;
const xml = (c: C, body: string) => c.body(`<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`, 200, { 'content-type': 'application/xml; charset=utf-8' });

/** The results page's and the team page's keys: the query values they read (a night, a page cursor, a season, a table page). */
const RESULTS_PAGE = { effective: (q: Record<string, string>) => ({ kvall: q.kvall, fore: q.fore, sasong: q.sasong, tabell: q.tabell }) };
const TEAM_PAGE = { effective: (q: Record<string, string>) => ({ fore: q.fore }) };
const LEAGUE_PAGE = { effective: (q: Record<string, string>) => ({ fore: q.fore, sasong: q.sasong, tabell: q.tabell }) };

/** The edge-cache options of a page that reads the listing filters from its query (the values it acts on). */
const PAGE = { effective: pageEffectiveQuery };

/** Server-rendered public pages (spec 01 §2, 02 §2.8). Anonymous requests are edge-cached. */
export const pagesRoutes = new Hono<AppEnv>()
  .get('/', (c) => withEdgeCache(c, () => mainListing(c, 'home'), PAGE))
  .get('/legacy', (c) => withEdgeCache(c, () => mainListing(c, 'legacy'), PAGE))
  .get('/annonsera', (c) => advertisePage(c))
  .get('/stad/:city', (c) =>
    withEdgeCache(
      c,
      async () => {
        const raw = segment(c.req.param('city'));
        if (raw === null) return notFoundPage(c);
        const ascii = slugify(raw);
        if (ascii && ascii !== raw) return c.redirect(`/stad/${ascii}${new URL(c.req.url).search}`, 301);
        return mainListing(c, 'home', raw);
      },
      PAGE,
    ),
  )
  .get('/quiz/:slug', (c) =>
    withEdgeCache(
      c,
      async () => {
        const raw = segment(c.req.param('slug'));
        if (raw === null) return notFoundPage(c);
        const redirect = redirectIfNotAscii(c, [raw]);
        if (redirect) return redirect;
        // A weekday slug is the weekday page, never a city (the old app's route-order bug).
        if (findWeekday(raw)) return weekdayPage(c, raw);
        const combined = /^(.+)-(mandag|tisdag|onsdag|torsdag|fredag|lordag|sondag)$/.exec(raw);
        if (combined && !(await findCity(c.var.db, raw))) return combinedPage(c, combined[1]!, combined[2]!);
        return cityPage(c, raw);
      },
      PAGE,
    ),
  )
  .get('/quiz/:city/:second', (c) =>
    withEdgeCache(
      c,
      async () => {
        const city = segment(c.req.param('city'));
        const second = segment(c.req.param('second'));
        if (city === null || second === null) return notFoundPage(c);
        const redirect = redirectIfNotAscii(c, [city, second]);
        if (redirect) return redirect;
        if (findWeekday(second)) return combinedPage(c, city, second);
        return venuePage(c, city, second);
      },
      PAGE,
    ),
  )
  .get('/quizmaster/:slug', (c) =>
    withEdgeCache(c, async () => {
      const raw = segment(c.req.param('slug'));
      // /quizmaster/{slug}.ics: the quizmaster's calendar feed (webcal), issue 48.
      const feedSlug = raw?.endsWith('.ics') ? raw.slice(0, -4) : null;
      if (feedSlug !== null && /^[a-z0-9-]{1,120}$/.test(feedSlug)) {
        const profile = await findProfile(c.var.db, feedSlug);
        if (!profile) return c.text('Quizmastern hittades inte.', 404);
        const file = await quizmasterFeed(c.var.deps, profile);
        return c.body(file.body, 200, { 'content-type': ICS_CONTENT_TYPE, 'content-disposition': `inline; filename="${file.filename}"` });
      }
      if (raw === null || !/^[a-z0-9-]{1,120}$/.test(raw)) return notFoundPage(c, 'Quizmastern hittades inte');
      return quizmasterPage(c, raw);
    }),
  )
  .get('/quiz/:city/:venue/resultat', (c) =>
    withEdgeCache(
      c,
      async () => {
        const city = segment(c.req.param('city'));
        const venue = segment(c.req.param('venue'));
        if (city === null || venue === null) return notFoundPage(c);
        const ascii = [slugify(city), slugify(venue)];
        if (ascii.every(Boolean) && (ascii[0] !== city || ascii[1] !== venue))
          return c.redirect(`/quiz/${ascii.join('/')}/resultat${new URL(c.req.url).search}`, 301);
        return resultsPage(c, city, venue);
      },
      RESULTS_PAGE,
    ),
  )
  .get('/lag/:slug', (c) =>
    withEdgeCache(
      c,
      async () => {
        const slug = segment(c.req.param('slug'));
        if (slug === null || !/^[a-z0-9-]{1,80}$/.test(slug)) return notFoundPage(c, 'Laget hittades inte');
        return teamPage(c, slug);
      },
      TEAM_PAGE,
    ),
  )
  .get('/liga/:slug', (c) =>
    withEdgeCache(
      c,
      async () => {
        const slug = segment(c.req.param('slug'));
        if (slug === null || !/^[a-z0-9-]{1,80}$/.test(slug)) return notFoundPage(c, 'Ligan hittades inte');
        return leaguePage(c, slug);
      },
      LEAGUE_PAGE,
    ),
  )
  // Issue 19 §4: a sitemap index; each child is a bounded slice, edge- and HTTP-cached like a page.
  .get('/sitemap.xml', (c) =>
    withEdgeCache(c, async () => {
      const children = await sitemapIndex(c.var.db, c.var.config.appUrl);
      return xml(
        c,
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children.map((e) => `  <sitemap>${entry(e)}</sitemap>`).join('\n')}\n</sitemapindex>`,
      );
    }),
  )
  .get('/sitemaps/:file', (c) =>
    withEdgeCache(c, async () => {
      const m = /^(sidor|stallen|quizmasters|lag)-([1-9][0-9]{0,5})\.xml$/.exec(c.req.param('file'));
      const urls = m ? await sitemapChild(c.var.db, c.var.config.appUrl, m[1] as SitemapKind, Number(m[2])) : null;
      if (!urls) return c.text('Sitemap hittades inte', 404);
      return xml(c, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((e) => `  <url>${entry(e)}</url>`).join('\n')}\n</urlset>`);
    }),
  )
  .get('/robots.txt', (c) =>
    c.text(
      `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /admin\nDisallow: /superadmin\nDisallow: /legacy\n\nSitemap: ${c.var.config.appUrl}/sitemap.xml\n`,
    ),
  );
