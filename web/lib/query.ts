/**
 * The SPA's one QueryClient (owner, admin and account screens; never imported by the public entry).
 * Cache times of spec 01 §9 / 02 §9: fresh for 5 min, kept 10 min, one retry after 1 s, no refetch
 * on window focus. Client errors (4xx) are answers, not hiccups: they are never retried.
 */
import { QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

export const STALE_TIME_MS = 5 * 60_000;
export const GC_TIME_MS = 10 * 60_000;
export const QUERY_RETRIES = 1;
export const RETRY_DELAY_MS = 1000;

/** True for errors worth one more try: network failures and 5xx, not 4xx. */
export function isRetryable(err: unknown): boolean {
  return !(err instanceof ApiError && err.status >= 400 && err.status < 500);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        gcTime: GC_TIME_MS,
        retry: (failures, err) => failures < QUERY_RETRIES && isRetryable(err),
        retryDelay: RETRY_DELAY_MS,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * Every owner resource's query key starts with this root. An owner write invalidates the whole
 * family: a quiz change moves the dashboard's counts, a place change the quiz lists, and the owner's
 * data is small enough that refetching what is on screen is cheaper than tracking who depends on what.
 */
export const OWNER_ROOT = ['owner'] as const;

/** A write to the owner's data: on success every owner query is refetched (or marked stale). */
export function useOwnerMutation<TVars, TData>(mutationFn: (vars: TVars) => Promise<TData>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => void qc.invalidateQueries({ queryKey: OWNER_ROOT }) });
}
