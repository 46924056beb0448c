/**
 * The owner's businesses, places and contact profile (worker/features/venues, mounted at /api/owner).
 * Types come from the shared contract.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  VENUE_LOOKUP_ATTEMPTS,
  VENUE_LOOKUP_DELAY_MS,
  type CreateVenueInput,
  type DashboardResponse,
  type LocationInput,
  type OwnerPlace,
  type OwnerVenue,
  type ProfileInput,
  type ProfileResponse,
  type RegisterVenueInput,
  type UpdateVenueInput,
} from '../../worker/features/venues/contract';
import { api, ApiError } from '../lib/api';

export type { DashboardResponse, OwnerPlace, OwnerVenue, ProfileResponse };

export const venuesApi = {
  dashboard: (venueId?: string, signal?: AbortSignal) =>
    api<DashboardResponse>(`/api/owner/dashboard${venueId ? `?venueId=${encodeURIComponent(venueId)}` : ''}`, { signal }),
  createVenue: (body: CreateVenueInput) => api<OwnerVenue>('/api/owner/venues', { method: 'POST', body }),
  registerVenue: (body: RegisterVenueInput) => api<{ venue: OwnerVenue; locationId: string }>('/api/owner/venues/register', { method: 'POST', body }),
  updateVenue: (id: string, body: UpdateVenueInput) => api<OwnerVenue>(`/api/owner/venues/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
  createLocation: (venueId: string, body: LocationInput) => api<{ id: string }>(`/api/owner/venues/${encodeURIComponent(venueId)}/locations`, { method: 'POST', body }),
  updateLocation: (id: string, body: LocationInput) => api<{ id: string }>(`/api/owner/locations/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
  deleteLocation: (id: string) => api<{ deletedQuizzes: number }>(`/api/owner/locations/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  profile: () => api<ProfileResponse>('/api/owner/profile'),
  saveProfile: (body: ProfileInput) => api<ProfileResponse>('/api/owner/profile', { method: 'PUT', body }),
};

type DashboardState =
  | { status: 'loading' }
  | { status: 'ready'; data: DashboardResponse }
  | { status: 'not-found' }
  | { status: 'error'; error: ApiError | Error };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/**
 * Dashboard data. Looking up the owner's business by user retries up to 3 attempts, 1 s apart, when
 * nothing is found (spec 02 §2.1: a business created by a takeover may land a moment later).
 * `reload()` refetches without the retries.
 */
export function useDashboard(venueId: string | undefined, enabled = true) {
  const [state, setState] = useState<DashboardState>({ status: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    const ctl = new AbortController();
    // Retries only on the first load of the owner's own business, not after reload().
    const attempts = version === 0 && !venueId ? VENUE_LOOKUP_ATTEMPTS : 1;
    (async () => {
      for (let i = 1; i <= attempts; i++) {
        try {
          const data = await venuesApi.dashboard(venueId, ctl.signal);
          if (ctl.signal.aborted) return;
          if (data.venue || i === attempts) {
            setState({ status: 'ready', data });
            return;
          }
          await sleep(VENUE_LOOKUP_DELAY_MS, ctl.signal);
          if (ctl.signal.aborted) return;
        } catch (err) {
          if (ctl.signal.aborted) return;
          if (err instanceof ApiError && err.status === 404) setState({ status: 'not-found' });
          else setState({ status: 'error', error: err as Error });
          return;
        }
      }
    })();
    return () => ctl.abort();
  }, [venueId, version, enabled]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setVersion((v) => v + 1);
  }, []);
  return { state, reload, retry };
}

/** Field errors from a zod issue list or an ApiError (first segment of the path → message). */
export function fieldErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> | string; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = typeof i.path === 'string' ? (i.path.split('.')[0] ?? '') : String(i.path[0] ?? '');
    out[key] ??= i.message;
  }
  return out;
}
