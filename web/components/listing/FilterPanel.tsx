import type { ReactNode } from 'react';
import { WEEKDAYS } from '../../../worker/lib/swedish';
import { LANGUAGE_FILTERS, PRICE_FILTERS, TEAM_FILTER_CHOICES, TIME_FILTERS, TOPIC_FILTERS } from '../../../worker/lib/quiz-filters';
import { DatePicker } from './DatePicker';
import type { CityOption, ListingFilters } from '../../pages/types';

interface Props {
  filters: ListingFilters;
  today: string;
  cities: CityOption[];
  lockCity?: boolean;
  lockWeekday?: boolean;
  /** Fixed form action for the no-JavaScript fallback (a plain GET form). */
  action: string;
  onChange: (next: Partial<ListingFilters>, kind: 'city' | 'weekday' | 'date' | 'search' | 'quiz') => void;
  /** Only the quiz filters (the combined page: its city and weekday are the page). */
  quizFiltersOnly?: boolean;
  /** Called when the city select is about to open (focus, pointer down): load the whole city list if `cities` is a part of it. */
  onCitiesWanted?: () => void;
}

/** The quiz filters (issue 20): value '' = every quiz ('alla' in the URL is the same). */
const QUIZ_SELECTS = [
  { key: 'price', label: 'Pris', all: 'Alla priser', options: PRICE_FILTERS.map((o) => ({ value: o.value, label: o.label })) },
  { key: 'team', label: 'Lagstorlek', all: 'Alla lagstorlekar', options: TEAM_FILTER_CHOICES.map((n) => ({ value: String(n), label: `Vi är ${n}` })) },
  { key: 'category', label: 'Kategori', all: 'Alla kategorier', options: TOPIC_FILTERS.map((o) => ({ value: o.value, label: o.label })) },
  { key: 'time', label: 'Starttid', all: 'Alla tider', options: TIME_FILTERS.map((o) => ({ value: o.value, label: o.label })) },
  // Issue 31.3: the quiz's language; a quiz in both languages is listed under either.
  { key: 'sprak', label: 'Språk', all: 'Alla språk', options: LANGUAGE_FILTERS.map((o) => ({ value: o.value, label: o.label })) },
] as const;

const FIELD = 'w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-slate-900 disabled:bg-slate-100 lg:h-10 lg:py-2';
/**
 * A compact bar on a desktop (issue 44.4): from `lg` the labels are read by screen readers only (each field names itself:
 * "Alla priser", "Alla språk", the chosen day…), and the fields stand in two rows of five, so the first card is on the
 * first screen at 1280 × 800. On a phone and a tablet the labels stand above their fields.
 */
const LABEL = 'block text-sm font-semibold text-slate-800 lg:sr-only';
const CELL = 'space-y-1 lg:space-y-0';

/**
 * Filter panel (spec 01 §2, §4): search, weekday (Swedish labels + 'Alla dagar'), city ('Alla städer' +
 * the distinct cities) and date (past days disabled, weeks start on Monday); then the quiz
 * filters (issue 20): price, team size, category and start time, and the language (issue 31.3).
 * Without JavaScript it is an ordinary GET form.
 */
export function FilterPanel({ filters, today, cities, lockCity, lockWeekday, action, onChange, quizFiltersOnly, onCitiesWanted }: Props) {
  const quizSelects = QUIZ_SELECTS.map((f) => (
    <div key={f.key} className={CELL}>
      <label htmlFor={`filter-${f.key}`} className={LABEL}>
        {f.label}
      </label>
      <select
        id={`filter-${f.key}`}
        name={f.key}
        className={FIELD}
        value={filters[f.key] ?? ''}
        onChange={(e) => onChange({ [f.key]: e.target.value }, 'quiz')}
      >
        <option value="">{f.all}</option>
        {f.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  ));
  // Without JavaScript the form is sent by "Filtrera": on a desktop in the first row (beside the search field, or last in
  // the combined page's one row), so the bar keeps its two rows; below `lg` after the last filter.
  const submit = (className = '') => (
    <noscript>
      <button type="submit" className={`rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white lg:h-10 lg:py-2 ${className}`}>
        Filtrera
      </button>
    </noscript>
  );
  // A plain GET form: without JavaScript it submits (the noscript button); with it, onChange drives the listing.
  const form = (children: ReactNode, columns: string) => (
    <search aria-label="Filtrera quiz" className="block">
      <form
        method="get"
        action={action}
        onSubmit={(e) => e.preventDefault()}
        className={`grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:gap-2 lg:p-3 ${columns}`}
      >
        {children}
      </form>
    </search>
  );
  if (quizFiltersOnly) {
    return form(
      <>
        {quizSelects}
        {submit()}
      </>,
      'lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]',
    );
  }
  return form(
    <>
      {/* First and two columns wide (issue 44.9): in one of four desktop columns its placeholder was cut off. */}
      <div className={`${CELL} sm:col-span-2`}>
        <label htmlFor="filter-search" className={LABEL}>
          Sök
        </label>
        <div className="flex gap-2">
          <input
            id="filter-search"
            name="search"
            type="search"
            className={FIELD}
            placeholder="Sök ställe, plats eller quizmaster"
            value={filters.search}
            onChange={(e) => onChange({ search: e.target.value }, 'search')}
          />
          {submit('hidden lg:block')}
        </div>
      </div>
      <div className={CELL}>
        <label htmlFor="filter-weekday" className={LABEL}>
          Veckodag
        </label>
        <select
          id="filter-weekday"
          name="weekday"
          className={FIELD}
          value={filters.weekday || 'all'}
          disabled={lockWeekday}
          onChange={(e) => onChange({ weekday: e.target.value }, 'weekday')}
        >
          <option value="all">Alla dagar</option>
          {WEEKDAYS.map((w) => (
            <option key={w.slug} value={w.slug}>
              {w.label}
            </option>
          ))}
        </select>
      </div>
      <div className={CELL}>
        <label htmlFor="filter-city" className={LABEL}>
          Stad
        </label>
        <select
          id="filter-city"
          name="city"
          className={FIELD}
          value={filters.city}
          disabled={lockCity}
          onFocus={onCitiesWanted}
          onPointerDown={onCitiesWanted}
          onChange={(e) => onChange({ city: e.target.value }, 'city')}
        >
          <CityOptions cities={cities} />
        </select>
      </div>
      <div className={CELL}>
        <label htmlFor="filter-date" className={LABEL}>
          Datum
        </label>
        <DatePicker id="filter-date" name="date" value={filters.date} today={today} onChange={(date) => onChange({ date }, 'date')} />
      </div>
      {quizSelects}
      {submit('lg:hidden')}
    </>,
    'lg:grid-cols-5',
  );
}

/** "Alla städer" and one option per city: the filter panel's city select and near mode's fallback form. */
export function CityOptions({ cities }: { cities: CityOption[] }) {
  return (
    <>
      <option value="">Alla städer</option>
      {cities.map((c) => (
        <option key={c.slug} value={c.slug}>
          {c.name}
        </option>
      ))}
    </>
  );
}
