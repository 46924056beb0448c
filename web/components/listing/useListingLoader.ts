import { useCallback, useRef, useState } from 'react';
import { api } from '../../lib/api';
import type { ListingFilters, ListingQuiz, ListingResponse } from '../../pages/types';
import { listingApiUrl } from './urls';

/** Spec 01 §9: skeleton after 300 ms; 3 automatic retries with back-off 1 s, 2 s, 4 s. */
export const SKELETON_DELAY_MS = 300;
export const MAX_RETRIES = 3;
const LOAD_MORE_MIN_MS = 500;

export type ListingStatus = { kind: 'idle' } | { kind: 'loading' } | { kind: 'error'; failures: number; retrying: boolean };

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The listing's loader (spec 01 §4, §9): the shown page of results, starting from the server-rendered one,
 * and `load(filters, page, quiet?)` — page 1 replaces the list, a later page appends; automatic retries with
 * back-off; a skeleton only after SKELETON_DELAY_MS; a newer request makes an older answer count for nothing.
 */
export function useListingLoader(initial: ListingResponse) {
  const [items, setItems] = useState<ListingQuiz[]>(initial.items);
  const [total, setTotal] = useState(initial.total);
  // Near mode in a dense area counts only as far as it read: "minst N".
  const [totalAtLeast, setTotalAtLeast] = useState(!!initial.totalAtLeast);
  const [page, setPage] = useState(initial.page);
  const [hasMore, setHasMore] = useState(initial.hasMore);
  const [status, setStatus] = useState<ListingStatus>({ kind: 'idle' });
  const [skeleton, setSkeleton] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const requestNo = useRef(0);

  /** Loads page `p` for `f` with automatic retries; replaces the list for page 1, appends otherwise. */
  const load = useCallback(async (f: ListingFilters, p: number, quiet = false) => {
    const no = ++requestNo.current;
    const first = p === 1;
    if (first && !quiet) setStatus({ kind: 'loading' });
    else if (!first) setLoadingMore(true);
    const skeletonTimer = first && !quiet ? setTimeout(() => no === requestNo.current && setSkeleton(true), SKELETON_DELAY_MS) : undefined;
    let failures = 0;
    try {
      for (;;) {
        try {
          // Spec 01 §4: load-more shows its loading state for at least about half a second.
          const [res] = await Promise.all([api<ListingResponse>(listingApiUrl(f, p)), first ? null : sleep(LOAD_MORE_MIN_MS)]);
          if (no !== requestNo.current) return;
          setItems((prev) => (first ? res.items : [...prev, ...res.items.filter((i) => !prev.some((x) => x.id === i.id))]));
          setTotal(res.total);
          setTotalAtLeast(!!res.totalAtLeast);
          setPage(res.page);
          setHasMore(res.hasMore);
          setStatus({ kind: 'idle' });
          return;
        } catch {
          if (no !== requestNo.current || quiet) return;
          failures++;
          const retrying = failures <= MAX_RETRIES;
          setStatus({ kind: 'error', failures: Math.min(failures, MAX_RETRIES), retrying });
          if (!retrying) return;
          await sleep(1000 * 2 ** (failures - 1));
          if (no !== requestNo.current) return;
        }
      }
    } finally {
      clearTimeout(skeletonTimer);
      if (no === requestNo.current) {
        setSkeleton(false);
        setLoadingMore(false);
      }
    }
  }, []);
  return { items, total, totalAtLeast, page, hasMore, status, skeleton, loadingMore, load };
}
