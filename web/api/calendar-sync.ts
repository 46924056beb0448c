/** A place's calendar addresses (worker/features/calendar-sync, issue 31.2): calls, keys and hooks. */
import { useQuery } from '@tanstack/react-query';
import type { CalendarFeed, CalendarFeedsResponse, CalendarPreview } from '../../worker/features/calendar-sync/contract';
import { api } from '../lib/api';
import { OWNER_ROOT, useOwnerMutation } from '../lib/query';

export type { CalendarFeed, CalendarPreview, PreviewEvent, SyncResult } from '../../worker/features/calendar-sync/contract';

const enc = encodeURIComponent;
const base = (locationId: string) => `/api/owner/locations/${enc(locationId)}/calendar-feeds`;

export const calendarSyncApi = {
  list: (locationId: string) => api<CalendarFeedsResponse>(base(locationId)),
  preview: (locationId: string, url: string) => api<CalendarPreview>(`${base(locationId)}/preview`, { method: 'POST', body: { url } }),
  add: (locationId: string, url: string) => api<{ feed: CalendarFeed }>(base(locationId), { method: 'POST', body: { url } }),
  sync: (locationId: string, feedId: string) => api<{ feed: CalendarFeed }>(`${base(locationId)}/${enc(feedId)}/sync`, { method: 'POST' }),
  remove: (locationId: string, feedId: string) => api<{ removed: true }>(`${base(locationId)}/${enc(feedId)}`, { method: 'DELETE' }),
};

export const calendarSyncKeys = { list: (locationId: string) => [...OWNER_ROOT, 'calendar-feeds', locationId] as const };

export const useCalendarFeeds = (locationId: string) =>
  useQuery({ queryKey: calendarSyncKeys.list(locationId), queryFn: () => calendarSyncApi.list(locationId) });
export const useAddCalendarFeed = () => useOwnerMutation(({ locationId, url }: { locationId: string; url: string }) => calendarSyncApi.add(locationId, url));
export const useSyncCalendarFeed = () =>
  useOwnerMutation(({ locationId, feedId }: { locationId: string; feedId: string }) => calendarSyncApi.sync(locationId, feedId));
export const useRemoveCalendarFeed = () =>
  useOwnerMutation(({ locationId, feedId }: { locationId: string; feedId: string }) => calendarSyncApi.remove(locationId, feedId));
