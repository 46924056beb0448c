/**
 * The counting beacon of the public pages (issue 18). Part of the public first-load bundle, so tiny
 * and without zod: the shape is EventsBatchSchema of worker/features/events/contract.ts (keep in step).
 *
 * Privacy: no cookie, storage or id of its own — only "this quiz/business was seen or clicked". Events
 * queue in memory and leave with navigator.sendBeacon: the first request ~1 s after the first event of
 * a page view, then at most one every 10 s, ≤ 50 events each; whatever is queued leaves when the page
 * is hidden.
 *
 * Hooks: `track()` from components; `data-track="<metric>"` plus `data-track-quiz` or
 * `data-track-venue` on any link or button (one delegated click listener); every
 * `article[data-quiz-id]` card is counted once per page view when half of it is in the viewport.
 */
import {
  ANALYTICS_METRICS,
  EVENTS_FLUSH_INTERVAL_MS as INTERVAL_MS,
  MAX_EVENTS_PER_BATCH as MAX_EVENTS,
  sourceMetric,
  type AnalyticsMetric,
} from '../../../worker/lib/analytics-metrics';

const ENDPOINT = '/api/events';
const FIRST_DELAY_MS = 1_000;

/** The one metric list (worker/lib/analytics-metrics.ts, zod-free): the same as the events contract's. */
export type TrackedMetric = AnalyticsMetric;
interface BeaconEvent {
  t: TrackedMetric;
  q?: string;
  v?: string;
}

let queue: BeaconEvent[] = [];
let lastSent = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/** What a tracked click counts against: one quiz occurrence or one business. */
export interface TrackTarget {
  quizId?: string | undefined;
  venueId?: string | undefined;
}

/**
 * The data attributes that make the delegated click listener count a click on this element as `t`
 * (nothing without a target: an event always names a quiz or a business).
 */
export function trackAttrs(t: TrackedMetric, target: TrackTarget | undefined): Record<string, string> {
  if (target?.quizId) return { 'data-track': t, 'data-track-quiz': target.quizId };
  if (target?.venueId) return { 'data-track': t, 'data-track-venue': target.venueId };
  return {};
}

export function track(t: TrackedMetric, target: { quizId?: string; venueId?: string }): void {
  if (typeof window === 'undefined') return;
  if (target.quizId) queue.push({ t, q: target.quizId });
  else if (target.venueId) queue.push({ t, v: target.venueId });
  else return;
  schedule();
}

function schedule(): void {
  if (timer !== undefined || queue.length === 0) return;
  const wait = lastSent ? Math.max(0, lastSent + INTERVAL_MS - Date.now()) : FIRST_DELAY_MS;
  timer = setTimeout(() => {
    timer = undefined;
    send();
    schedule();
  }, wait);
}

function send(): void {
  if (queue.length === 0) return;
  const events = queue.slice(0, MAX_EVENTS);
  queue = queue.slice(MAX_EVENTS);
  lastSent = Date.now();
  const body = JSON.stringify({ events });
  try {
    if (navigator.sendBeacon?.(ENDPOINT, new Blob([body], { type: 'application/json' }))) return;
  } catch {
    // fall through to fetch
  }
  void fetch(ENDPOINT, { method: 'POST', body, headers: { 'content-type': 'application/json' }, keepalive: true, credentials: 'same-origin' }).catch(
    () => undefined,
  );
}

/** The page is going away: send what is queued (in ≤ 50-event requests). */
function flushAll(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  while (queue.length) send();
}

/** Starts counting on a hydrated public page: card impressions, tracked clicks, the final flush. */
export function startCounting(root: HTMLElement, page: { venueId?: string | undefined; resultsVenueId?: string | undefined }): void {
  if (page.venueId) {
    track('venue_view', { venueId: page.venueId });
    // A visit from the owner kit's poster, table tent or Instagram (?src=…, issue 48.7) also counts as its source.
    const source = sourceMetric(new URLSearchParams(window.location.search).get('src'));
    if (source) track(source, { venueId: page.venueId });
  }
  if (page.resultsVenueId) track('results_view', { venueId: page.resultsVenueId });

  document.addEventListener('click', (e) => {
    const el = (e.target as Element | null)?.closest?.('[data-track]');
    if (!el) return;
    const metric = el.getAttribute('data-track') as TrackedMetric;
    if (!ANALYTICS_METRICS.includes(metric)) return;
    track(metric, { quizId: el.getAttribute('data-track-quiz') ?? undefined, venueId: el.getAttribute('data-track-venue') ?? undefined });
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushAll();
  });
  window.addEventListener('pagehide', flushAll);

  if (!('IntersectionObserver' in window)) return;
  const seen = new Set<string>();
  const io = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        io.unobserve(entry.target);
        const id = (entry.target as HTMLElement).dataset.quizId;
        if (id && !seen.has(id)) {
          seen.add(id);
          track('impression', { quizId: id });
        }
      }
    },
    { threshold: 0.5 },
  );
  const observeAll = () => {
    for (const el of root.querySelectorAll<HTMLElement>('article[data-quiz-id]')) io.observe(el);
  };
  observeAll();
  // Cards added later ("Visa fler", filters) are observed too; observing an element twice is a no-op.
  new MutationObserver(observeAll).observe(root, { childList: true, subtree: true });
}
