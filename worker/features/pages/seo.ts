/**
 * Search visibility of the public pages (spec 01 §1, §2 "Page titles"): Swedish titles and
 * descriptions, and the JSON-LD objects (WebSite, BreadcrumbList, Event, FAQPage). The objects are
 * serialised by worker/lib/json-ld.ts serializeForScript in render.tsx.
 */
import { displayDate, displayTime } from '../../lib/swedish';
import { normalizeTime, stockholmOffset } from '../../lib/clock';
import { inLanguageOf } from '../../lib/quiz-filters';
import type { ListingQuiz } from '../listing/contract';

export const SITE_NAME = 'Quizkväll';
export const DEFAULT_TITLE = 'Quizkväll – Hitta pubquiz och quizkvällar i din stad';
export const DEFAULT_DESCRIPTION = 'Hitta pubquiz och quizkvällar nära dig. Sök på stad, veckodag, datum eller ställe bland quiz i hela Sverige.';
export const KEYWORDS = 'quiz, pubquiz, quizkväll, quiz ikväll, musikquiz, tema-quiz';

/** Title and description of the main listing by search term, city (not göteborg) or a date other than today. */
export function mainListingHead(opts: {
  search?: string | undefined;
  cityName?: string | undefined;
  citySlug?: string | undefined;
  date?: string | undefined;
  today: string;
}): { title: string; description: string } {
  if (opts.search) {
    return {
      title: `Quiz som matchar ”${opts.search}” | ${SITE_NAME}`,
      description: `Quizkvällar och pubquiz som matchar ”${opts.search}” – ställen, platser och quizmasters i hela Sverige.`,
    };
  }
  if (opts.cityName && opts.citySlug !== 'goteborg') {
    return {
      title: `Quiz i ${opts.cityName} – pubquiz och quizkvällar | ${SITE_NAME}`,
      description: `Hitta pubquiz och quizkvällar i ${opts.cityName}. Se dag, tid, pris och ställe för kommande quiz.`,
    };
  }
  if (opts.date && opts.date !== opts.today) {
    return {
      title: `Quiz ${displayDate(opts.date)} – pubquiz och quizkvällar | ${SITE_NAME}`,
      description: `Alla pubquiz och quizkvällar ${displayDate(opts.date)}. Hitta ett quiz nära dig.`,
    };
  }
  return { title: DEFAULT_TITLE, description: DEFAULT_DESCRIPTION };
}

export function websiteJsonLd(origin: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: SITE_NAME,
    url: `${origin}/`,
    inLanguage: 'sv-SE',
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${origin}/?search={search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  };
}

export function breadcrumbJsonLd(origin: string, items: Array<{ name: string; path: string }>) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((it, i) => ({ '@type': 'ListItem', position: i + 1, name: it.name, item: `${origin}${it.path}` })),
  };
}

/** startDate with the real offset of that date in Stockholm (+01:00 winter, +02:00 summer). */
export function eventStartDate(date: string, startTime: string | null): string {
  const time = normalizeTime(displayTime(startTime));
  return `${date}T${time}${stockholmOffset(date, time)}`;
}

export function eventJsonLd(origin: string, q: ListingQuiz) {
  const place: Record<string, unknown> = {
    '@type': 'Place',
    name: q.location.name,
    address: {
      '@type': 'PostalAddress',
      streetAddress: q.location.address,
      addressLocality: q.location.city,
      addressCountry: 'SE',
    },
  };
  if (q.location.latitude != null && q.location.longitude != null) {
    place.geo = { '@type': 'GeoCoordinates', latitude: q.location.latitude, longitude: q.location.longitude };
  }
  const url = `${origin}/quiz/${q.location.citySlug}/${q.venue.slug}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: q.title || `Quiz på ${q.venue.name}`,
    description: q.description ?? undefined,
    startDate: eventStartDate(q.date, q.startTime),
    eventStatus: q.isCancelled ? 'https://schema.org/EventCancelled' : 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    inLanguage: inLanguageOf(q.language),
    location: place,
    // An unknown price (null) states nothing (issue 44.3): no isAccessibleForFree and an Offer without a price.
    ...(q.price === 0 ? { isAccessibleForFree: true } : {}),
    offers: {
      '@type': 'Offer',
      ...(q.price != null ? { price: q.price, priceCurrency: 'SEK' } : {}),
      availability: 'https://schema.org/InStock',
      url,
    },
    organizer: { '@type': 'Organization', name: q.venue.name, url: q.venue.website || q.location.website || url },
    ...(q.quizmasterProfile
      ? { performer: { '@type': 'Person', name: q.quizmasterProfile.name, url: `${origin}/quizmaster/${encodeURIComponent(q.quizmasterProfile.slug)}` } }
      : {}),
    url,
    // Issue 47: tables left when the owner gave a capacity (as of the page's render).
    ...(typeof q.tablesLeft === 'number' ? { remainingAttendeeCapacity: q.tablesLeft } : {}),
  };
}

export function faqJsonLd(faq: Array<{ q: string; a: string }>) {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faq.map((f) => ({ '@type': 'Question', name: f.q, acceptedAnswer: { '@type': 'Answer', text: f.a } })),
  };
}

/** Events for the listed occurrences that are upcoming (today or later). */
export function eventsJsonLd(origin: string, items: ListingQuiz[], today: string) {
  return items.filter((q) => q.date >= today).map((q) => eventJsonLd(origin, q));
}
