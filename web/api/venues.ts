/**
 * The owner's businesses, places and contact profile (worker/features/venues, mounted at /api/owner):
 * calls typed by the shared contract, query keys and the TanStack Query hooks the screens use.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  VENUE_LOOKUP_ATTEMPTS,
  VENUE_LOOKUP_DELAY_MS,
  type CreateVenueInput,
  type DashboardResponse,
  type DeleteLocationResponse,
  type LocationData,
  type LocationSavedResponse,
  type OwnerVenue,
  type ProfileInput,
  type ProfileResponse,
  type RegisterVenueData,
  type RegisterVenueResponse,
  type UpdateVenueData,
} from '../../worker/features/venues/contract';
import { api } from '../lib/api';
import { OWNER_ROOT, useOwnerMutation } from '../lib/query';

export type { DashboardResponse, OwnerPlace, OwnerVenue } from '../../worker/features/venues/contract';

const enc = encodeURIComponent;

export const venuesApi = {
  dashboard: (venueId?: string, signal?: AbortSignal) => api<DashboardResponse>(`/api/owner/dashboard${venueId ? `?venueId=${enc(venueId)}` : ''}`, { signal }),
  createVenue: (body: CreateVenueInput) => api<OwnerVenue>('/api/owner/venues', { method: 'POST', body }),
  registerVenue: (body: RegisterVenueData) => api<RegisterVenueResponse>('/api/owner/venues/register', { method: 'POST', body }),
  updateVenue: (id: string, body: UpdateVenueData) => api<OwnerVenue>(`/api/owner/venues/${enc(id)}`, { method: 'PATCH', body }),
  createLocation: (venueId: string, body: LocationData) => api<LocationSavedResponse>(`/api/owner/venues/${enc(venueId)}/locations`, { method: 'POST', body }),
  updateLocation: (id: string, body: LocationData) => api<LocationSavedResponse>(`/api/owner/locations/${enc(id)}`, { method: 'PATCH', body }),
  deleteLocation: (id: string) => api<DeleteLocationResponse>(`/api/owner/locations/${enc(id)}`, { method: 'DELETE' }),
  profile: () => api<ProfileResponse>('/api/owner/profile'),
  saveProfile: (body: ProfileInput) => api<ProfileResponse>('/api/owner/profile', { method: 'PUT', body }),
};

export const venueKeys = {
  dashboard: (venueId: string | undefined) => [...OWNER_ROOT, 'dashboard', venueId ?? null] as const,
  profile: () => [...OWNER_ROOT, 'profile'] as const,
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/**
 * Dashboard data, shown at once (issue 29.3). Only right after a takeover (`waitForVenue`, the
 * ?takeoverVenue= return of spec 02 §2.9) does the first lookup of the owner's own business try up to
 * 3 times, 1 s apart, while nothing is found: that business may land a moment later. A new owner
 * without a business sees onboarding after one lookup. `reload()` refetches in the background;
 * `retry()` starts over with the spinner (the error screens' 'Försök igen').
 */
export function useDashboard(venueId: string | undefined, enabled = true, waitForVenue = false) {
  const qc = useQueryClient();
  const queryKey = venueKeys.dashboard(venueId);
  const query = useQuery({
    queryKey,
    enabled,
    queryFn: async ({ signal }) => {
      const attempts = waitForVenue && !venueId && qc.getQueryData(queryKey) === undefined ? VENUE_LOOKUP_ATTEMPTS : 1;
      for (let i = 1; ; i++) {
        const data = await venuesApi.dashboard(venueId, signal);
        if (data.venue || i >= attempts || signal.aborted) return data;
        await sleep(VENUE_LOOKUP_DELAY_MS, signal);
      }
    },
  });
  const reload = useCallback(() => void qc.invalidateQueries({ queryKey: OWNER_ROOT }), [qc]);
  const retry = useCallback(() => void qc.resetQueries({ queryKey: venueKeys.dashboard(venueId) }), [qc, venueId]);
  return { query, reload, retry };
}

/** Loads the owner's dashboard into the cache (after creating a business, so /admin shows it at once). */
export function prefetchOwnDashboard(qc: ReturnType<typeof useQueryClient>) {
  return qc.fetchQuery({ queryKey: venueKeys.dashboard(undefined), queryFn: ({ signal }) => venuesApi.dashboard(undefined, signal), staleTime: 0 });
}

export const useProfile = () => useQuery({ queryKey: venueKeys.profile(), queryFn: venuesApi.profile });

export const useCreateVenue = () => useOwnerMutation(venuesApi.createVenue);
export const useRegisterVenue = () => useOwnerMutation(venuesApi.registerVenue);
export const useUpdateVenue = () => useOwnerMutation(({ id, body }: { id: string; body: UpdateVenueData }) => venuesApi.updateVenue(id, body));
/** Adds a place to `venueId`, or edits the place `placeId`. */
export const useSavePlace = () =>
  useOwnerMutation(({ venueId, placeId, body }: { venueId: string; placeId?: string | undefined; body: LocationData }) =>
    placeId ? venuesApi.updateLocation(placeId, body) : venuesApi.createLocation(venueId, body),
  );
export const useDeletePlace = () => useOwnerMutation(venuesApi.deleteLocation);
export const useSaveProfile = () => useOwnerMutation(venuesApi.saveProfile);
