/** Calls of the owner analytics, slot calendar and superadmin overview (worker/features/analytics). */
import type { AnalyticsResponse, OverviewResponse, Period, SlotCalendarResponse } from '../../../worker/features/analytics/contract';
import { api } from '../../lib/api';

const query = (venueId: string | undefined, days: Period) => `?days=${days}${venueId ? `&venueId=${encodeURIComponent(venueId)}` : ''}`;

export const analyticsApi = {
  get: (venueId: string | undefined, days: Period) => api<AnalyticsResponse>(`/api/analytics${query(venueId, days)}`),
  csvUrl: (venueId: string | undefined, days: Period) => `/api/analytics/export.csv${query(venueId, days)}`,
  slots: (quizId: string) => api<SlotCalendarResponse>(`/api/analytics/slots?quizId=${encodeURIComponent(quizId)}`),
  overview: () => api<OverviewResponse>('/api/analytics/overview'),
};
