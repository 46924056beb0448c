/** Superadmin API calls (worker/features/admin); types come from the shared contracts. */
import type { AdminFeedback, AdminVenueList } from '../../worker/features/admin/contract';
import type { ImportPreview, ImportResult } from '../../worker/features/admin/import-contract';
import { api, ApiError } from '../lib/api';
import { useOwnerMutation } from '../lib/query';

/** Venue search: 1 retry after 1 s (spec 02 §9); never for 4xx (auth or input errors). */
export const VENUE_RETRY = { retries: 1, delayMs: 1000 };

export async function withRetry<T>(run: () => Promise<T>, { retries, delayMs }: { retries: number; delayMs: number }): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const clientError = err instanceof ApiError && err.status >= 400 && err.status < 500;
      if (clientError || attempt >= retries) throw err;
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}

export const adminApi = {
  venues: (q: string, offset: number, limit: number) =>
    withRetry(() => api<AdminVenueList>(`/api/admin/venues?${new URLSearchParams({ q, offset: String(offset), limit: String(limit) })}`), VENUE_RETRY),
  createVenue: (body: { name: string; ownerEmail: string }) =>
    api<{ venue: { id: string; name: string }; ownerEmail: string | null }>('/api/admin/venues', { body }),
  deleteVenue: (id: string) => api<{ deleted: true }>(`/api/admin/venues/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  deleteUser: (id: string) => api<{ deleted: true; email: string }>(`/api/admin/users/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  feedback: (offset: number) =>
    api<{ items: AdminFeedback[]; total: number; open: number; offset: number; pageSize: number }>(`/api/admin/feedback?offset=${offset}`),
  setHandled: (id: string, handled: boolean) => api<AdminFeedback>(`/api/admin/feedback/${encodeURIComponent(id)}`, { method: 'PATCH', body: { handled } }),
  takeoverIssues: () =>
    api<{ issues: Array<{ userId: string; email: string; venueId: string; venueName: string | null; problems: string[] }> }>('/api/admin/takeover-issues'),
  fixTakeover: (body: { userId: string; venueId: string }) =>
    api<{ success: boolean; message: string; fixed: string[]; errors: string[] }>('/api/admin/takeover-issues/fix', { body }),
  importPreview: (csv: string) => api<ImportPreview>('/api/admin/import/preview', { body: { csv } }),
  importCommit: (csv: string) => api<ImportResult>('/api/admin/import', { body: { csv } }),
};

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

/** A superadmin deletes a business (from its profile editor); the owner's queries go stale. */
export const useDeleteVenue = () => useOwnerMutation(adminApi.deleteVenue);
