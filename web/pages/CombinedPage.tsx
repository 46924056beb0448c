import { useState } from 'react';
import { feedPaths } from '../../worker/features/calendar/event';
import { SubscribeCalendar } from '../components/calendar/SubscribeCalendar';
import { ListingSection } from '../components/listing/ListingSection';
import { filteredFeedQuery } from '../components/listing/urls';
import { PageHero } from './PageHero';
import { combinedFaq, type CombinedPageData } from './types';
import { TipPrompt } from '../components/tips/TipPrompt';
import { countText } from '../../worker/lib/swedish';

/** City blurbs of the combined page (spec 01 §2): own texts for four cities, otherwise generic. */
export function cityBlurb(citySlug: string, city: string, weekday: string): string {
  switch (citySlug) {
    case 'goteborg':
      return `Göteborg har en av Sveriges mest levande quizscener – från pubarna runt Järntorget och Linné till krogarna i centrum. Här hittar du quiz på ${weekday} i Göteborg.`;
    case 'stockholm':
      return `I Stockholm finns quiz för alla: klassiska pubquiz på Söder, temakvällar i city och kvartersquiz i förorterna. Här är quizkvällarna på ${weekday} i Stockholm.`;
    case 'malmo':
      return `Malmö bjuder på avslappnade quizkvällar med kontinental känsla, från Möllan till Västra Hamnen. Se vilka quiz som går på ${weekday} i Malmö.`;
    case 'molndal':
      return `Mölndal har mysiga kvarterskrogar med trogna quizlag – perfekt om du vill quizza nära Göteborg men utan trängseln. Här är quizen på ${weekday} i Mölndal.`;
    default:
      return `Letar du efter quiz på ${weekday} i ${city}? Här är alla quizkvällar vi känner till – samla laget och hitta ett bord.`;
  }
}

/** /quiz/{city}/{weekday} and /quiz/{city}-{weekday} (spec 01 §2 "Combined city and weekday page"). */
export function CombinedPage({ data }: { data: CombinedPageData }) {
  const { city, weekday } = data;
  const defaults = { city: city.slug, weekday: weekday.slug, date: '', search: '' };
  const filters = data.filters ?? defaults;
  // The quiz filters as shown (changed in the listing without a reload): the hero's feed follows them.
  const [shownFilters, setShownFilters] = useState(filters);
  const filtered = filteredFeedQuery(shownFilters, { city: true, weekday: true });
  return (
    <>
      <PageHero crumbs={[{ label: city.name, href: `/quiz/${city.slug}` }, { label: weekday.label }]} title={`Quiz på ${weekday.name} i ${city.name}`}>
        <div className="mt-3 sm:mt-5">
          <SubscribeCalendar feedPath={filtered ? feedPaths.listing(filtered) : feedPaths.cityWeekday(city.slug, weekday.slug)} />
        </div>
      </PageHero>
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-4 sm:py-10 lg:gap-5 lg:py-6">
        {/*
          The listing comes first in the document, as on a phone's screen; the intro card follows it and moves above it
          on wide screens only. With the card first in the document (shown second by `order`), a phone that got the
          page in pieces painted the card, then pushed it down when the listing arrived: a layout shift (CLS 0.15 in
          Lighthouse, one load in ten), and a reading order that was not the screen's.
        */}
        <section id="quiz" aria-labelledby="quiz-heading" className="space-y-3 sm:space-y-4">
          <h2 id="quiz-heading" className="text-xl font-bold sm:text-2xl">
            Kommande quiz på {weekday.name} i {city.name}
          </h2>
          <ListingSection
            today={data.today}
            initial={data.result}
            initialFilters={filters}
            defaults={defaults}
            cities={[city]}
            lockCity
            lockWeekday
            hideFilters
            quizFiltersOnly
            ignoredFilters={data.ignoredFilters}
            path={`/quiz/${city.slug}/${weekday.slug}`}
            onFiltersChange={setShownFilters}
            headingId="quiz-heading"
            loadMoreLabel="Visa fler quiz"
            errorVariant="combined"
            mapTileUrl={data.mapTileUrl}
            renderEmpty={() => (
              <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
                <p className="text-lg font-bold">Inga quiz hittades</p>
                <a href="/" className="mt-3 inline-flex rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
                  Visa alla quiz
                </a>
                <TipPrompt />
              </div>
            )}
          />
        </section>
        <section aria-label="Om quizkvällarna" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:order-first">
          <p className="text-slate-800">{cityBlurb(city.slug, city.name, weekday.name)}</p>
          <ul className="mt-4 flex flex-wrap gap-2 text-sm font-semibold" aria-label="Sammanfattning">
            <li className="rounded-full bg-brand-50 px-3 py-1 text-brand-800">{weekday.label}</li>
            <li className="rounded-full bg-brand-50 px-3 py-1 text-brand-800">{city.name}</li>
            {data.result.venueCount !== null && (
              <li className="rounded-full bg-brand-50 px-3 py-1 text-brand-800">{countText(data.result.venueCount, 'ställe', 'ställen')}</li>
            )}
          </ul>
        </section>
        <section aria-labelledby="faq-heading" className="space-y-3">
          <h2 id="faq-heading" className="text-2xl font-bold">
            Vanliga frågor
          </h2>
          {combinedFaq(city.name, weekday.name).map((f) => (
            <details key={f.q} className="rounded-xl border border-slate-200 bg-white p-4">
              <summary className="cursor-pointer font-semibold">{f.q}</summary>
              <p className="mt-2 text-slate-700">{f.a}</p>
            </details>
          ))}
        </section>
        <nav aria-labelledby="related-heading">
          <h2 id="related-heading" className="text-xl font-bold">
            Mer quiz
          </h2>
          <ul className="mt-2 flex flex-wrap gap-4 font-semibold text-brand-700">
            <li>
              <a href={`/quiz/${city.slug}`} className="underline">
                Alla quiz i {city.name}
              </a>
            </li>
            <li>
              <a href={`/quiz/${weekday.slug}`} className="underline">
                Quiz på {weekday.name} i hela Sverige
              </a>
            </li>
            <li>
              <a href="/" className="underline">
                Startsidan
              </a>
            </li>
            <li>
              <a href="/login" className="underline">
                Logga in
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </>
  );
}
