/**
 * Superadmin calls (worker/features/admin): typed by the shared contracts, query keys and the
 * TanStack Query hooks of /superadmin. Writes invalidate the admin family (ADMIN_ROOT).
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  VENUE_PAGE_SIZE,
  type AdminFeedback,
  type AdminFeedbackList,
  type AdminVenueCreated,
  type AdminVenueList,
  type CreateVenueInput,
  type DeleteUserResponse,
  type FixTakeoverResponse,
  type TakeoverIssuesResponse,
} from '../../worker/features/admin/contract';
import type { DeadLettersResponse, FollowStatsResponse } from '../../worker/features/follows/contract';
import type { OpsStatusResponse } from '../../worker/features/ops/contract';
import { api, ApiError } from '../lib/api';
import { useOwnerMutation } from '../lib/query';

const enc = encodeURIComponent;

export const adminApi = {
  venues: (q: string, offset: number, limit: number) =>
    api<AdminVenueList>(`/api/admin/venues?${new URLSearchParams({ q, offset: String(offset), limit: String(limit) })}`),
  createVenue: (body: CreateVenueInput) => api<AdminVenueCreated>('/api/admin/venues', { body }),
  deleteVenue: (id: string) => api<{ deleted: true }>(`/api/admin/venues/${enc(id)}`, { method: 'DELETE' }),
  deleteUser: (id: string) => api<DeleteUserResponse>(`/api/admin/users/${enc(id)}`, { method: 'DELETE' }),
  feedback: (offset: number) => api<AdminFeedbackList>(`/api/admin/feedback?offset=${offset}`),
  setHandled: (id: string, handled: boolean) => api<AdminFeedback>(`/api/admin/feedback/${enc(id)}`, { method: 'PATCH', body: { handled } }),
  takeoverIssues: () => api<TakeoverIssuesResponse>('/api/admin/takeover-issues'),
  fixTakeover: (body: { userId: string; venueId: string }) => api<FixTakeoverResponse>('/api/admin/takeover-issues/fix', { body }),
  followStats: () => api<FollowStatsResponse>('/api/admin/follows/stats'),
  deadLetters: () => api<DeadLettersResponse>('/api/admin/dead-letters'),
  status: () => api<OpsStatusResponse>('/api/admin/status'),
};

export const ADMIN_ROOT = ['admin'] as const;
export const adminKeys = {
  venues: (q: string) => [...ADMIN_ROOT, 'venues', q] as const,
  feedback: () => [...ADMIN_ROOT, 'feedback'] as const,
  takeoverIssues: () => [...ADMIN_ROOT, 'takeover-issues'] as const,
  followStats: () => [...ADMIN_ROOT, 'follow-stats'] as const,
  deadLetters: () => [...ADMIN_ROOT, 'dead-letters'] as const,
  status: () => [...ADMIN_ROOT, 'status'] as const,
};

/** Every business matching `q`, in pages of VENUE_PAGE_SIZE ('Ladda fler'). */
export const useAdminVenues = (q: string) =>
  useInfiniteQuery({
    queryKey: adminKeys.venues(q),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => adminApi.venues(q, pageParam, VENUE_PAGE_SIZE).then((r) => r.data),
    getNextPageParam: (last, pages) => {
      const shown = pages.reduce((n, p) => n + p.venues.length, 0);
      return shown < last.matched && last.venues.length > 0 ? shown : undefined;
    },
  });

/** The feedback inbox, newest first, in pages. */
export const useFeedback = () =>
  useInfiniteQuery({
    queryKey: adminKeys.feedback(),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => adminApi.feedback(pageParam),
    getNextPageParam: (last, pages) => {
      const shown = pages.reduce((n, p) => n + p.items.length, 0);
      return shown < last.total && last.items.length > 0 ? shown : undefined;
    },
  });

/** Follow mail in the 'Översikt' tab (read only): counts, never addresses, and the parked queue messages. */
export const useFollowStats = () => useQuery({ queryKey: adminKeys.followStats(), queryFn: adminApi.followStats });
export const useDeadLetters = () => useQuery({ queryKey: adminKeys.deadLetters(), queryFn: adminApi.deadLetters });
/** The 'Drift' tab (issue 30 §4): refreshed every minute while it is open. */
export const useOpsStatus = () => useQuery({ queryKey: adminKeys.status(), queryFn: adminApi.status, refetchInterval: 60_000 });
export const useTakeoverIssues = () => useQuery({ queryKey: adminKeys.takeoverIssues(), queryFn: adminApi.takeoverIssues });

/** A superadmin write: every admin query (and the owner screens' data) is refetched or marked stale. */
function useAdminMutation<TVars, TData>(mutationFn: (vars: TVars) => Promise<TData>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ADMIN_ROOT });
    },
  });
}

export const useCreateAdminVenue = () => useAdminMutation(adminApi.createVenue);
export const useDeleteAdminVenue = () => useAdminMutation(adminApi.deleteVenue);
export const useDeleteUser = () => useAdminMutation(adminApi.deleteUser);
export const useSetFeedbackHandled = () => useAdminMutation(({ id, handled }: { id: string; handled: boolean }) => adminApi.setHandled(id, handled));
export const useFixTakeover = () => useAdminMutation(adminApi.fixTakeover);
/** Reading a CSV stores nothing: a plain mutation without invalidation. */

/** A superadmin deletes a business from its profile editor; the owner's queries go stale. */
export const useDeleteVenue = () => useOwnerMutation(adminApi.deleteVenue);

/** Delete-user messages of spec 02 §8. */
export function deleteUserErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 403) return 'Du har inte behörighet att ta bort denna användare.';
    if (err.status === 404) return 'Användaren kunde inte hittas. Kontot kan redan ha tagits bort.';
    if (err.status >= 500) return 'Serverfel vid radering. Kontrollera att du har behörighet.';
    if (err.message) return `Fel: ${err.message}`;
  }
  return 'Kunde inte ta bort användaren. Försök igen.';
}
