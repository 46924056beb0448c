/** Calls of the owner analytics, slot calendar and superadmin overview (worker/features/analytics). */
import type { AnalyticsResponse, OverviewResponse, Period, SlotCalendarResponse } from '../../../worker/features/analytics/contract';
import { useQuery } from '@tanstack/react-query';
import { ADMIN_ROOT } from '../../api/admin';
import { api } from '../../lib/api';
import { OWNER_ROOT } from '../../lib/query';

const query = (venueId: string | undefined, days: Period) => `?days=${days}${venueId ? `&venueId=${encodeURIComponent(venueId)}` : ''}`;

export const analyticsApi = {
  get: (venueId: string | undefined, days: Period) => api<AnalyticsResponse>(`/api/analytics${query(venueId, days)}`),
  csvUrl: (venueId: string | undefined, days: Period) => `/api/analytics/export.csv${query(venueId, days)}`,
  slots: (quizId: string) => api<SlotCalendarResponse>(`/api/analytics/slots?quizId=${encodeURIComponent(quizId)}`),
  overview: () => api<OverviewResponse>('/api/analytics/overview'),
};

/** The owner's numbers: under the owner family, so any owner write refetches them too. */
export function useAnalytics(venueId: string | undefined, days: Period) {
  return useQuery({ queryKey: [...OWNER_ROOT, 'analytics', venueId ?? '', days], queryFn: () => analyticsApi.get(venueId, days) });
}

export function useOverview() {
  return useQuery({ queryKey: [...ADMIN_ROOT, 'overview'], queryFn: () => analyticsApi.overview() });
}
