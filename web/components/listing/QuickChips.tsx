import type { ListingFilters } from '../../pages/types';
import { chipDates, chipHref } from './urls';

const CHIP = 'inline-flex shrink-0 items-center gap-1 rounded-full border px-3 py-2 text-sm font-semibold';
const OFF = `${CHIP} border-slate-300 bg-white text-slate-800 hover:border-brand-500`;
const ON = `${CHIP} border-brand-700 bg-brand-700 text-white`;

interface Props {
  today: string;
  filters: ListingFilters;
  path: string;
  lockCity?: boolean | undefined;
  lockWeekday?: boolean | undefined;
  /** Asks for the position (after this tap only). Without JavaScript the chip jumps to `nearFallback`. */
  onNear: () => void;
  nearFallback: string;
  /** The "Filter (n)" toggle; absent where the page has no filter panel. */
  filterToggle?: { count: number; open: boolean; onToggle: () => void } | undefined;
}

/**
 * Quick choices above the results (issue 15): Ikväll, Imorgon, I helgen (plain links, so they work
 * without JavaScript and can be shared), Nära mig, and the button of the filter panel on phones.
 */
export function QuickChips({ today, filters, path, lockCity, lockWeekday, onNear, nearFallback, filterToggle }: Props) {
  const d = chipDates(today);
  const ctx = { path, lockCity, lockWeekday };
  const chips: Array<[label: string, date: string]> = [
    ['Ikväll', d.tonight],
    ['Imorgon', d.tomorrow],
    ['I helgen', d.weekend],
  ];
  return (
    <nav aria-label="Snabbval" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0">
      {filterToggle && (
        // biome-ignore lint/a11y/useValidAnchor: without JavaScript the link opens the panel through #filter (:target); with it, the handler toggles it
        <a
          href="#filter"
          className={`${OFF} sm:hidden`}
          aria-controls="filter"
          aria-expanded={filterToggle.open}
          onClick={(e) => {
            e.preventDefault();
            filterToggle.onToggle();
          }}
        >
          Filter{filterToggle.count ? ` (${filterToggle.count})` : ''}
        </a>
      )}
      {chips.map(([label, date]) => {
        const on = !filters.search.trim() && filters.date === date && !(label === 'I helgen' && date === d.tonight);
        return (
          <a key={label} href={chipHref(date, filters, ctx)} className={on ? ON : OFF} aria-current={on ? 'true' : undefined}>
            {label}
          </a>
        );
      })}
      <a
        href={nearFallback}
        className={filters.near ? ON : OFF}
        aria-current={filters.near ? 'true' : undefined}
        onClick={(e) => {
          e.preventDefault();
          onNear();
        }}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" fill="currentColor">
          <path d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z" />
        </svg>
        Nära mig
      </a>
    </nav>
  );
}
