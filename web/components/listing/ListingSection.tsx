import { lazy, Suspense, useCallback, useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { findWeekday, WEEKDAYS } from '../../../worker/lib/swedish';
import { isoWeekday, nextWeekdayOnOrAfter } from '../../../worker/lib/clock';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session';
import { QUIZ_FILTER_KEYS, type CityOption, type ListingFilters, type ListingQuiz, type ListingResponse } from '../../pages/types';
import { Button } from '../ui/Button';
import { QuizCard, SkeletonCard } from './QuizCard';
import { LazyQuizDetailDialog as QuizDetailDialog } from './LazyQuizDetailDialog';
import { FilterPanel } from './FilterPanel';
import { FollowButton } from '../follows/FollowButton';
import { searchLabel } from '../follows/label';
import { QuickChips } from './QuickChips';
import { activeFilterCount, pageQuery } from './urls';
import { useNearMe } from './useNearMe';
import { ErrorPanel } from './ErrorPanel';
import { ListingMapPanel, useListingMap } from './ListingMap';
import { NearMeState } from './NearMeState';
import { useListingLoader } from './useListingLoader';
import { countLine } from './count-line';

const MarketingDialog = lazy(() => import('./MarketingDialog'));

export { MAX_RETRIES, SKELETON_DELAY_MS } from './useListingLoader';
const SEARCH_DEBOUNCE_MS = 300;
/** Placeholders shown while a slow first page loads: 2 premium cards, then these standard ones. */
const STANDARD_SKELETONS = [1, 2, 3, 4, 5, 6] as const;

export interface ListingSectionProps {
  today: string;
  initial: ListingResponse;
  initialFilters: ListingFilters;
  /** The page's defaults: filters equal to them are left out of the URL. */
  defaults: ListingFilters;
  cities: CityOption[];
  /** false: `cities` holds only the largest cities and the selected one; the rest load when a city select is opened. */
  citiesComplete?: boolean;
  lockCity?: boolean;
  lockWeekday?: boolean;
  /** Path of this page (the URL query is written relative to it). */
  path: string;
  /** Told each filter change (the page's hero keeps its "Prenumerera i kalendern" link on the filters shown). */
  onFiltersChange?: ((filters: ListingFilters) => void) | undefined;
  headingId: string;
  loadMoreLabel?: string;
  /** 'legacy' adds 'Uppdatera sida'; 'combined' uses the combined page's error texts. */
  errorVariant?: 'default' | 'legacy' | 'combined';
  renderEmpty: (filters: ListingFilters) => ReactNode;
  /** Hides the filter panel (combined page). */
  hideFilters?: boolean;
  /** Shows only the quiz filters in the panel (the combined page, whose city and weekday are the page). */
  quizFiltersOnly?: boolean;
  /** Labels of URL filters the server ignored as invalid: a friendly notice (issue 20). */
  ignoredFilters?: string[] | undefined;
  /** Incremented by the page's "Hitta quiz nära dig" button: asks for the position (issue 15). */
  nearRequest?: number;
  /** MAP_TILE_URL: shows the "Lista / Karta" toggle (the map is a lazy chunk). */
  mapTileUrl?: string | undefined;
}

/** Filter panel, count, premium cards on top, the grid, load more / infinite scroll, states. */
export function ListingSection(props: ListingSectionProps) {
  const { today, initial, initialFilters, defaults, lockCity, lockWeekday, path } = props;
  const [cities, setCities] = useState<CityOption[]>(props.cities);
  const citiesLoading = useRef(props.citiesComplete !== false);
  // The page lists only the largest cities when there are many: the whole list when a city select opens.
  const loadAllCities = useCallback(() => {
    if (citiesLoading.current) return;
    citiesLoading.current = true;
    api<{ cities: CityOption[] }>('/api/listing/cities').then(
      (res) => setCities(res.cities),
      () => {
        citiesLoading.current = false;
      },
    );
  }, []);
  // A past date lists today's quizzes (the server says so too): the filters show today, not the past date (issue 29.6).
  const [filters, setFilters] = useState<ListingFilters>(() => withoutPastDate(initialFilters, today, !!lockWeekday));
  const { items, total, totalAtLeast, page, hasMore, status, skeleton, loadingMore, load } = useListingLoader(initial);
  const [open, setOpen] = useState<ListingQuiz | null>(null);
  const [marketingOpen, setMarketingOpen] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);
  const searchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [view, setView] = useState<'list' | 'map'>('list');
  const openMarketing = useCallback(() => setMarketingOpen(true), []);

  function apply(next: ListingFilters, debounce = false) {
    setFilters(next);
    props.onFiltersChange?.(next);
    const q = pageQuery(next, defaults, { city: lockCity, weekday: lockWeekday });
    window.history.replaceState(null, '', `${path}${q}`);
    clearTimeout(searchTimer.current);
    if (debounce) searchTimer.current = setTimeout(() => void load(next, 1), SEARCH_DEBOUNCE_MS);
    else void load(next, 1);
  }

  function onChange(change: Partial<ListingFilters>, kind: 'city' | 'weekday' | 'date' | 'search' | 'quiz') {
    const next = { ...filters, ...change };
    // Choosing a city leaves near mode (near replaces the city filter).
    if (kind === 'city' && next.city) next.near = next.radius = undefined;
    if (kind === 'weekday') {
      // A weekday moves the date to today, tomorrow or its next occurrence; 'all' clears the date.
      const wd = findWeekday(next.weekday);
      next.weekday = wd ? wd.slug : 'all';
      next.date = wd ? nextWeekdayOnOrAfter(today, wd.iso) : '';
    }
    if (kind === 'date') {
      if (lockWeekday && next.date) {
        const wd = findWeekday(filters.weekday);
        if (wd) next.date = nextWeekdayOnOrAfter(next.date, wd.iso);
      } else if (next.date) {
        next.weekday = WEEKDAYS[isoWeekday(next.date) - 1]!.slug;
      }
    }
    apply(next, kind === 'search');
  }

  // Near mode (issue 15): the position goes into the listing page's URL (its server-rendered listing
  // request) and nowhere else; a page of its own so it can be shared, reloaded and cached. A page locked
  // to a city or weekday is about that city or day: near mode opens on the start page instead.
  const onPosition = useCallback(
    (near: string) => {
      window.location.assign(`${lockCity || lockWeekday ? '/' : path}?weekday=all&near=${encodeURIComponent(near)}`);
    },
    [lockCity, lockWeekday, path],
  );
  const nearMe = useNearMe(onPosition);
  const lastNearRequest = useRef(props.nearRequest ?? 0);
  useEffect(() => {
    if (!props.nearRequest || props.nearRequest === lastNearRequest.current) return;
    lastNearRequest.current = props.nearRequest;
    nearMe.locate();
  }, [props.nearRequest, nearMe]);

  const loadMore = useCallback(() => {
    if (!hasMore || loadingMore || status.kind !== 'idle') return;
    void load(filters, page + 1);
  }, [hasMore, loadingMore, status.kind, load, filters, page]);

  // Infinite scroll: fires near the bottom (threshold 0.1, 200 px margin; spec 01 §4).
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), { threshold: 0.1, rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, loadMore]);

  useEffect(() => () => clearTimeout(searchTimer.current), []);

  // The URL says what is shown: a past date in it is rewritten (the list is today's). Once, for the URL
  // the page was opened with (an effect event reads the filters without re-running on their changes).
  const rewritePastDate = useEffectEvent(() => {
    const date = new URLSearchParams(window.location.search).get('date');
    if (date && date < today) window.history.replaceState(null, '', `${path}${pageQuery(filters, defaults, { city: lockCity, weekday: lockWeekday })}`);
  });
  useEffect(() => rewritePastDate(), []);

  // The server-rendered list is the anonymous view (it is shared and cached). A signed-in owner also
  // sees their own non-public businesses (spec 01 §6), so reload page 1 once the session is known.
  // The reload with the filters of the moment the user is known (ReloadWhenSignedIn calls it from an effect event).
  const reloadFor = () => void load(filters, 1, true);

  const premium = items.filter((i) => i.tier === 'premium');
  const standard = items.filter((i) => i.tier !== 'premium');
  const showList = status.kind !== 'error' && !skeleton && view === 'list';
  const map = useListingMap(filters, view, setOpen);

  const locked = { city: lockCity, weekday: lockWeekday };
  const radiusKm = filters.radius ?? '10';
  const showPanel = !props.hideFilters || props.quizFiltersOnly;
  return (
    <div className="space-y-4 sm:space-y-6 lg:space-y-4">
      <QuickChips
        today={today}
        filters={filters}
        path={path}
        lockCity={lockCity}
        lockWeekday={lockWeekday}
        onNear={nearMe.locate}
        nearFallback={props.hideFilters ? `/quiz/${filters.city}` : '#filter'}
        filterToggle={
          !showPanel ? undefined : { count: activeFilterCount(filters, defaults, locked), open: filtersOpen, onToggle: () => setFiltersOpen((o) => !o) }
        }
      />
      <ReloadWhenSignedIn reload={reloadFor} />
      <NearMeState state={nearMe.state} cities={cities} onCitiesWanted={loadAllCities} onRetry={nearMe.locate} />
      {filters.near && (
        <p className="flex flex-wrap items-center gap-x-3 text-sm text-slate-700">
          {/* The order as it is (issue 29.7): paid placements lead, as everywhere; then by distance. */}
          <span>
            {items.some((i) => i.tier !== 'standard') ? `Annonser först, sedan närmast dig, inom ${radiusKm} km.` : `Närmast dig först, inom ${radiusKm} km.`}
          </span>
          {Number(radiusKm) < 50 && (
            <a className="font-semibold text-brand-700 underline" href={`${path}${pageQuery({ ...filters, radius: '50' }, defaults, locked)}`}>
              Visa inom 50 km
            </a>
          )}
          <a className="font-semibold text-brand-700 underline" href={path}>
            Sluta visa nära mig
          </a>
        </p>
      )}
      {props.ignoredFilters && props.ignoredFilters.length > 0 && (
        <p role="status" className="rounded-xl bg-amber-50 px-4 py-3 text-amber-950">
          {`Några filter kunde inte användas och visas inte: ${props.ignoredFilters.join(', ')}.`}
        </p>
      )}
      {showPanel && (
        // On a phone the open sheet covers the whole page; its "Visa N quiz" stays in a footer while the filters scroll (issue 44.9).
        <div
          id="filter"
          className={
            filtersOpen
              ? 'fixed inset-0 z-40 flex flex-col bg-slate-50 max-sm:m-0 sm:static sm:z-auto sm:block sm:bg-transparent'
              : 'hidden target:block sm:block'
          }
        >
          {filtersOpen && <p className="border-b border-slate-200 bg-white px-3 py-3 text-lg font-bold sm:hidden">Filter</p>}
          <div className={filtersOpen ? 'min-h-0 flex-1 overflow-y-auto overscroll-contain p-3 sm:overflow-visible sm:p-0' : undefined}>
            {filtersOpen && status.kind === 'error' && (
              <p role="alert" className="mb-2 rounded-xl bg-red-50 px-3 py-2 font-semibold text-red-900 sm:hidden">
                Quiz kunde inte laddas. Stäng filtret för att försöka igen.
              </p>
            )}
            <FilterPanel
              filters={filters}
              today={today}
              cities={cities}
              onCitiesWanted={loadAllCities}
              lockCity={lockCity}
              lockWeekday={lockWeekday}
              action={path}
              onChange={onChange}
              quizFiltersOnly={props.quizFiltersOnly}
            />
          </div>
          {filtersOpen && (
            <div data-testid="filter-sheet-footer" className="border-t border-slate-200 bg-white p-3 sm:hidden">
              {/* No stale count while loading or after a failure (issue 29.6): the count is of the list below. */}
              <Button className="w-full" onClick={() => setFiltersOpen(false)}>
                {status.kind === 'idle' ? `Visa ${total} quiz` : status.kind === 'loading' ? 'Visa quiz' : 'Stäng'}
              </Button>
            </div>
          )}
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-semibold text-slate-700" aria-live="polite">
          {status.kind === 'loading' ? 'Laddar quiz...' : status.kind === 'error' ? '' : countLine(items.length, total, totalAtLeast)}
        </p>
        {props.mapTileUrl && <ViewToggle view={view} onView={setView} />}
        {searchLabel(filters, cities) && (
          <FollowButton
            target={{
              filters: {
                city: filters.city || undefined,
                weekday: filters.weekday || undefined,
                search: filters.search || undefined,
                ...Object.fromEntries(QUIZ_FILTER_KEYS.flatMap((k) => (filters[k] ? [[k, filters[k]]] : []))),
              },
              label: searchLabel(filters, cities)!,
            }}
          />
        )}
      </div>
      {view === 'map' && props.mapTileUrl && status.kind === 'idle' && <ListingMapPanel map={map} tileUrl={props.mapTileUrl} near={!!filters.near} />}
      {/* Between automatic retries the error shows, not placeholders (issue 29.6). */}
      {skeleton && status.kind !== 'error' && (
        <div role="status" aria-busy="true" aria-label="Laddar quiz" className="space-y-4">
          <div className="grid gap-4">
            <SkeletonCard premium />
            <SkeletonCard premium />
          </div>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {STANDARD_SKELETONS.map((n) => (
              <SkeletonCard key={n} />
            ))}
          </div>
        </div>
      )}
      {status.kind === 'error' && (
        <ErrorPanel variant={props.errorVariant ?? 'default'} failures={status.failures} retrying={status.retrying} onRetry={() => void load(filters, 1)} />
      )}
      {showList && items.length === 0 && status.kind === 'idle' && props.renderEmpty(filters)}
      {showList && premium.length > 0 && (
        <section aria-labelledby={`${props.headingId}-premium`} className="space-y-3">
          <h3 id={`${props.headingId}-premium`} className="text-sm font-bold uppercase tracking-wide text-amber-800">
            Premium Utvald
          </h3>
          {premium.map((q, i) => (
            <QuizCard key={q.id} quiz={q} index={i} onOpen={setOpen} onRecommended={openMarketing} />
          ))}
        </section>
      )}
      {showList && standard.length > 0 && (
        <ul className="grid list-none gap-4 p-0 sm:grid-cols-2 lg:grid-cols-3" aria-label="Quiz">
          {standard.map((q, i) => (
            <li key={q.id}>
              <QuizCard quiz={q} index={premium.length + i} onOpen={setOpen} onRecommended={openMarketing} />
            </li>
          ))}
        </ul>
      )}
      {showList && hasMore && (
        <div className="flex justify-center">
          <Button variant="secondary" onClick={loadMore} disabled={loadingMore}>
            {loadingMore ? 'Laddar...' : (props.loadMoreLabel ?? 'Ladda fler quiz')}
          </Button>
        </div>
      )}
      <div ref={sentinel} aria-hidden="true" className="h-px" />
      <QuizDetailDialog quiz={open} onClose={() => setOpen(null)} />
      {marketingOpen && (
        <Suspense fallback={null}>
          <MarketingDialog open={marketingOpen} onClose={() => setMarketingOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * Issue 29.13: what changes right after hydration lives in its own small component, so the change re-renders
 * it alone and not the whole listing (every card, the filter panel) in one long task on a slow phone.
 */
function ReloadWhenSignedIn({ reload }: { reload: () => void }) {
  const session = useSession();
  const userId = session.status === 'ready' ? session.session.user?.id : undefined;
  const reloadedFor = useRef<string | undefined>(undefined);
  // Only when the signed-in user changes: the effect event calls the reload of that moment (its filters).
  const reloadForUser = useEffectEvent(reload);
  useEffect(() => {
    if (!userId || reloadedFor.current === userId) return;
    reloadedFor.current = userId;
    reloadForUser();
  }, [userId]);
  return null;
}

/**
 * "Lista / Karta". It needs JavaScript: shown once hydrated (the server-rendered list works without it). Its
 * place is kept (invisible) before that: hydration runs after the first paint (issue 19 §1), and inserting it
 * then would shift the list below.
 */
function ViewToggle({ view, onView }: { view: 'list' | 'map'; onView: (v: 'list' | 'map') => void }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <fieldset
      aria-label="Visa som"
      className={`inline-flex overflow-hidden rounded-xl border border-slate-300 bg-white text-sm font-semibold ${hydrated ? '' : 'invisible'}`}
    >
      {(['list', 'map'] as const).map((v) => (
        <button
          key={v}
          type="button"
          aria-pressed={view === v}
          onClick={() => onView(v)}
          className={`px-3 py-1.5 ${view === v ? 'bg-brand-700 text-white' : 'text-slate-800 hover:bg-slate-50'}`}
        >
          {v === 'list' ? 'Lista' : 'Karta'}
        </button>
      ))}
    </fieldset>
  );
}

/** The filters with a past date replaced by today (a weekday page drops it: its own day follows). */
function withoutPastDate(f: ListingFilters, today: string, lockWeekday: boolean): ListingFilters {
  if (!f.date || f.date >= today) return f;
  if (lockWeekday) return { ...f, date: '' };
  return { ...f, date: today, weekday: WEEKDAYS[isoWeekday(today) - 1]!.slug };
}
