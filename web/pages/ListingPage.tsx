import { WEEKDAYS } from '../../worker/lib/swedish';
import { isoWeekday } from '../../worker/lib/clock';
import { feedPaths } from '../../worker/features/calendar/event';
import { SubscribeCalendar } from '../components/calendar/SubscribeCalendar';
import { ListingSection } from '../components/listing/ListingSection';
import type { ListingFilters, ListingPageData } from './types';

/** The page's defaults (spec 01 §4): main listing today; city page all upcoming; weekday page its day. */
export function listingDefaults(data: Pick<ListingPageData, 'variant' | 'today' | 'city' | 'weekday'>): ListingFilters {
  const city = data.city?.slug ?? '';
  if (data.variant === 'city') return { city, weekday: 'all', date: '', search: '' };
  if (data.variant === 'weekday') return { city: '', weekday: data.weekday?.slug ?? 'mandag', date: '', search: '' };
  return { city: '', weekday: WEEKDAYS[isoWeekday(data.today) - 1]!.slug, date: data.today, search: '' };
}

function Hero() {
  return (
    <section className="bg-gradient-to-br from-brand-700 to-brand-800 text-white">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:py-20">
        <h1 className="max-w-2xl text-4xl font-extrabold tracking-tight sm:text-5xl">Upptäck quizkvällar i din stad</h1>
        <p className="mt-4 max-w-xl text-lg text-brand-100">Pubquiz på stan – sök på stad, veckodag, datum eller ställe.</p>
        <a href="#quiz" className="mt-8 inline-flex rounded-xl bg-white px-5 py-3 font-bold text-brand-800 shadow hover:bg-brand-50">
          Hitta quiz nära dig
        </a>
      </div>
    </section>
  );
}

/** Start page, /stad/{city}, /legacy, city page and weekday page (spec 01 §1, §2). */
export function ListingPage({ data }: { data: ListingPageData }) {
  const defaults = listingDefaults(data);
  const isMain = data.variant === 'home' || data.variant === 'legacy';
  const path = isMain ? (data.variant === 'legacy' ? '/legacy' : '/') : data.variant === 'city' ? `/quiz/${data.city!.slug}` : `/quiz/${data.weekday!.slug}`;
  const cityName = data.city?.name;
  const heading = data.variant === 'city' ? `Kommande quizkvällar i ${cityName}` : 'Kommande quizkvällar';
  return (
    <>
      {isMain ? (
        <Hero />
      ) : (
        <section className="bg-gradient-to-br from-brand-700 to-brand-800 text-white">
          <div className="mx-auto max-w-6xl px-4 py-10">
            <nav aria-label="Brödsmulor" className="text-sm text-brand-100">
              <a href="/" className="underline">
                Start
              </a>{' '}
              / <span>{data.variant === 'city' ? cityName : data.weekday!.name}</span>
            </nav>
            <h1 className="mt-2 text-4xl font-extrabold tracking-tight">{data.variant === 'city' ? `Quiz i ${cityName}` : `Quiz på ${data.weekday!.name}`}</h1>
            <div className="mt-5">
              <SubscribeCalendar feedPath={data.variant === 'city' ? feedPaths.city(data.city!.slug) : feedPaths.listing(`weekday=${data.weekday!.slug}`)} />
            </div>
          </div>
        </section>
      )}
      <section id="quiz" aria-labelledby="quiz-heading" className="mx-auto max-w-6xl scroll-mt-4 space-y-4 px-4 py-10">
        <h2 id="quiz-heading" className="text-2xl font-bold">
          {heading}
        </h2>
        <ListingSection
          today={data.today}
          initial={data.result}
          initialFilters={data.filters}
          defaults={defaults}
          cities={data.cities}
          lockCity={data.variant === 'city'}
          lockWeekday={data.variant === 'weekday'}
          path={path}
          headingId="quiz-heading"
          errorVariant={data.variant === 'legacy' ? 'legacy' : 'default'}
          renderEmpty={(f) => <Empty data={data} filters={f} defaults={defaults} />}
        />
      </section>
    </>
  );
}

function Empty({ data, filters, defaults }: { data: ListingPageData; filters: ListingFilters; defaults: ListingFilters }) {
  const box = 'rounded-2xl border border-slate-200 bg-white p-6 text-center';
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
