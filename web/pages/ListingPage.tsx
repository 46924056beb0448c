import { WEEKDAYS } from '../../worker/lib/swedish';
import { isoWeekday } from '../../worker/lib/clock';
import { feedPaths } from '../../worker/features/calendar/event';
import { SubscribeCalendar } from '../components/calendar/SubscribeCalendar';
import { ListingSection } from '../components/listing/ListingSection';
import { activeFilterLabels, filteredFeedQuery } from '../components/listing/urls';
import { useState } from 'react';
import { PageHero } from './PageHero';
import type { ListingFilters, ListingPageData } from './types';
import { TipPrompt } from '../components/tips/TipPrompt';

/** The page's defaults (spec 01 §4): main listing today; city page all upcoming; weekday page its day. */
export function listingDefaults(data: Pick<ListingPageData, 'variant' | 'today' | 'city' | 'weekday'>): ListingFilters {
  const city = data.city?.slug ?? '';
  if (data.variant === 'city') return { city, weekday: 'all', date: '', search: '' };
  if (data.variant === 'weekday') return { city: '', weekday: data.weekday?.slug ?? 'mandag', date: '', search: '' };
  return { city: '', weekday: WEEKDAYS[isoWeekday(data.today) - 1]!.slug, date: data.today, search: '' };
}

/**
 * The hero's calendar feed: the city's or weekday's, or — with quiz filters — the filtered listing feed, for the
 * filters shown: as loaded, then as changed in the listing (its city or weekday select and the quiz filters), so
 * "Prenumerera i kalendern" subscribes to what is listed.
 */
function feedPathOf(data: ListingPageData, filters: ListingFilters): string {
  const filtered = filteredFeedQuery(filters, { city: data.variant === 'city', weekday: data.variant === 'weekday' });
  if (filtered) return feedPaths.listing(filtered);
  if (data.variant === 'city') return feedPaths.city(filters.city || data.city!.slug);
  return feedPaths.listing(`weekday=${filters.weekday && filters.weekday !== 'all' ? filters.weekday : data.weekday!.slug}`);
}

/** The start page's hero: its button asks for the position (after the tap) and lists the nearest quizzes. */
function Hero({ onNear }: { onNear: () => void }) {
  return (
    <PageHero size="home" title="Upptäck quizkvällar i din stad" subtitle="Pubquiz på stan – sök på stad, veckodag, datum eller ställe.">
      {/* biome-ignore lint/a11y/useValidAnchor: without JavaScript the link leads to the filter (#filter); with it, the handler asks for the position */}
      <a
        href="#filter"
        onClick={(e) => {
          e.preventDefault();
          onNear();
        }}
        className="mt-3 inline-flex rounded-xl bg-white px-4 py-2.5 font-bold text-brand-800 shadow hover:bg-brand-50 sm:mt-8 sm:px-5 sm:py-3 lg:mt-5"
      >
        Hitta quiz nära dig
      </a>
    </PageHero>
  );
}

/** Start page, /stad/{city}, /legacy, city page and weekday page (spec 01 §1, §2). */
export function ListingPage({ data }: { data: ListingPageData }) {
  const defaults = listingDefaults(data);
  const isMain = data.variant === 'home' || data.variant === 'legacy';
  const path = isMain ? (data.variant === 'legacy' ? '/legacy' : '/') : data.variant === 'city' ? `/quiz/${data.city!.slug}` : `/quiz/${data.weekday!.slug}`;
  const cityName = data.city?.name;
  const heading = data.result.near ? 'Quizkvällar nära dig' : data.variant === 'city' ? `Kommande quizkvällar i ${cityName}` : 'Kommande quizkvällar';
  const [nearRequest, setNearRequest] = useState(0);
  const [shownFilters, setShownFilters] = useState(data.filters);
  return (
    <>
      {isMain ? (
        <Hero onNear={() => setNearRequest((n) => n + 1)} />
      ) : (
        <PageHero
          crumbs={[{ label: data.variant === 'city' ? cityName! : data.weekday!.name }]}
          title={data.variant === 'city' ? `Quiz i ${cityName}` : `Quiz på ${data.weekday!.name}`}
        >
          <div className="mt-3 sm:mt-5">
            <SubscribeCalendar feedPath={feedPathOf(data, shownFilters)} />
          </div>
          {data.variant === 'city' && <TipPrompt city={cityName} className="mt-3 text-sm text-brand-100 [&_a]:text-white" />}
        </PageHero>
      )}
      <section id="quiz" aria-labelledby="quiz-heading" className="mx-auto max-w-6xl scroll-mt-4 space-y-3 px-4 py-4 sm:space-y-4 sm:py-10 lg:py-6">
        <h2 id="quiz-heading" className="text-xl font-bold sm:text-2xl">
          {heading}
        </h2>
        <ListingSection
          today={data.today}
          initial={data.result}
          initialFilters={data.filters}
          defaults={defaults}
          cities={data.cities}
          citiesComplete={data.citiesComplete !== false}
          lockCity={data.variant === 'city'}
          lockWeekday={data.variant === 'weekday'}
          path={path}
          onFiltersChange={isMain ? undefined : setShownFilters}
          headingId="quiz-heading"
          errorVariant={data.variant === 'legacy' ? 'legacy' : 'default'}
          nearRequest={nearRequest}
          mapTileUrl={data.mapTileUrl}
          ignoredFilters={data.ignoredFilters}
          renderEmpty={(f) => <Empty data={data} filters={f} defaults={defaults} path={path} />}
        />
      </section>
    </>
  );
}

function Empty(props: { data: ListingPageData; filters: ListingFilters; defaults: ListingFilters; path: string }) {
  return (
    <div className="space-y-3">
      <EmptyReason {...props} />
      <TipPrompt className="text-center text-slate-700" city={props.data.variant === 'city' ? props.data.city?.name : undefined} />
    </div>
  );
}

function EmptyReason({ data, filters, defaults, path }: { data: ListingPageData; filters: ListingFilters; defaults: ListingFilters; path: string }) {
  const box = 'rounded-2xl border border-slate-200 bg-white p-6 text-center';
  // Chosen filters excluded everything: name them and offer to clear them (issue 29.6), not "nothing in Stockholm".
  const chosen = filters.near ? [] : activeFilterLabels(filters, defaults, { city: data.variant === 'city', weekday: data.variant === 'weekday' }, data.cities);
  if (chosen.length > 0) {
    const where = data.variant === 'city' ? ` i ${data.city!.name}` : data.variant === 'weekday' ? ` på ${data.weekday!.name}` : '';
    const named = `${chosen.length === 1 ? 'filtret' : 'filtren'} ${chosen.join(' · ')}`;
    return (
      <div className={box}>
        {where ? (
          <p className="text-lg font-bold">{`Inga quiz hittades${where} med ${named}.`}</p>
        ) : (
          <>
            <p className="text-lg font-bold">Inga quiz hittades som matchar dina kriterier.</p>
            <p className="mt-1 text-slate-700">{`Du har valt ${named}.`}</p>
          </>
        )}
        <p className="mt-1 text-slate-700">Prova att justera dina filter eller söktermer.</p>
        <a href={path} className="mt-3 inline-flex rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
          Rensa filter
        </a>
      </div>
    );
  }
  if (data.variant === 'city') {
    return (
      <div className={box}>
        <p className="text-lg font-bold">Inga quiz hittades i {data.city!.name}</p>
        <a href="/" className="mt-3 inline-flex rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
          Visa alla quiz
        </a>
      </div>
    );
  }
  if (data.variant === 'weekday') {
    return (
      <div className={box}>
        <p className="text-lg font-bold">Inga quiz hittades på {data.weekday!.name}</p>
        <a href="/" className="mt-3 inline-flex rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
          Visa alla quiz
        </a>
      </div>
    );
  }
  if (filters.near) {
    return (
      <div className={box}>
        <p className="text-lg font-bold">Inga quiz hittades nära dig.</p>
        <p className="mt-1 text-slate-700">Prova en större radie, en annan dag eller välj en stad i filtret.</p>
      </div>
    );
  }
  const unfilteredToday = filters.date === defaults.date && filters.weekday === defaults.weekday && !filters.city && !filters.search.trim();
  if (unfilteredToday) {
    return (
      <div className={box}>
        <p className="text-lg font-bold">
          Inga quiz idag –{' '}
          <a href="/?weekday=all" className="text-brand-700 underline">
            Se kommande istället
          </a>
        </p>
        <p className="mt-1 text-slate-700">Ändra ditt dagfilter för att se quiz andra dagar.</p>
      </div>
    );
  }
  return (
    <div className={box}>
      <p className="text-lg font-bold">Inga quiz hittades som matchar dina kriterier.</p>
      <p className="mt-1 text-slate-700">Prova att justera dina filter eller söktermer.</p>
    </div>
  );
}
