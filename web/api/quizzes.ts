/**
 * The owner's quizzes and series (worker/features/quizzes and worker/features/series, under
 * /api/owner): calls typed by the shared contract, query keys, and the TanStack Query hooks the
 * screens use. Every write invalidates the owner family (OWNER_ROOT), so lists and counts follow.
 */
import { useQuery } from '@tanstack/react-query';
import type {
  AutoExtendResponse,
  CancelQuizResponse,
  CreateQuizData,
  CreateQuizResponse,
  DeleteQuizzesResponse,
  EditQuizData,
  EditQuizResponse,
  EditSeriesData,
  EditSeriesResponse,
  ExtendSeriesResponse,
  PauseSeriesInput,
  PauseSeriesResponse,
  PlaceQuizzesResponse,
  QuizDetailResponse,
  QuizPlacesResponse,
  ResumeSeriesResponse,
  SeriesListResponse,
  SeriesResponse,
  SingleQuizzesResponse,
} from '../../worker/features/quizzes/contract';
import type { HolidayDecisionsInput, HolidayPreviewInput, HolidayPreviewResponse, SeriesHolidaysResponse } from '../../worker/features/holidays/contract';
import type { FreshnessResponse } from '../../worker/features/freshness/contract';
import { api } from '../lib/api';
import { OWNER_ROOT, useOwnerMutation } from '../lib/query';

export type { OwnerQuiz, PlaceSeriesGroup, QuizDetailResponse, SeriesSummary } from '../../worker/features/quizzes/contract';

const enc = encodeURIComponent;

export const quizzesApi = {
  places: () => api<QuizPlacesResponse>('/api/owner/quiz-places'),
  placeQuizzes: (locationId: string) => api<PlaceQuizzesResponse>(`/api/owner/locations/${enc(locationId)}/quizzes`),
  singles: () => api<SingleQuizzesResponse>('/api/owner/quizzes'),
  create: (body: CreateQuizData) => api<CreateQuizResponse>('/api/owner/quizzes', { method: 'POST', body }),
  get: (id: string) => api<QuizDetailResponse>(`/api/owner/quizzes/${enc(id)}`),
  edit: (id: string, body: EditQuizData) => api<EditQuizResponse>(`/api/owner/quizzes/${enc(id)}`, { method: 'PATCH', body }),
  remove: (id: string) => api<DeleteQuizzesResponse>(`/api/owner/quizzes/${enc(id)}`, { method: 'DELETE' }),
  setCancelled: (id: string, cancelled: boolean) => api<CancelQuizResponse>(`/api/owner/quizzes/${enc(id)}/cancel`, { method: 'POST', body: { cancelled } }),
  seriesList: () => api<SeriesListResponse>('/api/owner/series'),
  series: (recurrenceId: string) => api<SeriesResponse>(`/api/owner/series/${enc(recurrenceId)}`),
  editSeries: (recurrenceId: string, body: EditSeriesData) => api<EditSeriesResponse>(`/api/owner/series/${enc(recurrenceId)}`, { method: 'PATCH', body }),
  removeSeries: (recurrenceId: string) => api<DeleteQuizzesResponse>(`/api/owner/series/${enc(recurrenceId)}`, { method: 'DELETE' }),
  extendSeries: (recurrenceId: string) => api<ExtendSeriesResponse>(`/api/owner/series/${enc(recurrenceId)}/extend`, { method: 'POST' }),
  autoExtend: () => api<AutoExtendResponse>('/api/owner/series/auto-extend', { method: 'POST' }),
  pauseSeries: (recurrenceId: string, body: PauseSeriesInput) =>
    api<PauseSeriesResponse>(`/api/owner/series/${enc(recurrenceId)}/pause`, { method: 'POST', body }),
  resumeSeries: (recurrenceId: string, body: PauseSeriesInput) =>
    api<ResumeSeriesResponse>(`/api/owner/series/${enc(recurrenceId)}/resume`, { method: 'POST', body }),
  // Swedish holidays in series and freshness (issue 20)
  holidayPreview: (body: HolidayPreviewInput) => api<HolidayPreviewResponse>('/api/owner/series/holidays/preview', { method: 'POST', body }),
  seriesHolidays: (recurrenceId: string) => api<SeriesHolidaysResponse>(`/api/owner/series/${enc(recurrenceId)}/holidays`),
  decideHolidays: (recurrenceId: string, body: HolidayDecisionsInput) =>
    api<{ skipped: number; kept: number }>(`/api/owner/series/${enc(recurrenceId)}/holidays`, { method: 'POST', body }),
  freshness: (venueId: string) => api<FreshnessResponse>(`/api/owner/freshness/${enc(venueId)}`),
  confirmFreshness: (venueId: string) => api<FreshnessResponse>(`/api/owner/freshness/${enc(venueId)}/confirm`, { method: 'POST' }),
};

export const quizKeys = {
  places: () => [...OWNER_ROOT, 'quiz-places'] as const,
  place: (locationId: string) => [...OWNER_ROOT, 'place-quizzes', locationId] as const,
  singles: () => [...OWNER_ROOT, 'singles'] as const,
  detail: (id: string) => [...OWNER_ROOT, 'quiz', id] as const,
  seriesList: () => [...OWNER_ROOT, 'series'] as const,
  series: (recurrenceId: string) => [...OWNER_ROOT, 'series', recurrenceId] as const,
  seriesHolidays: (recurrenceId: string) => [...OWNER_ROOT, 'series', recurrenceId, 'holidays'] as const,
  holidayPreview: (body: HolidayPreviewInput) => [...OWNER_ROOT, 'holiday-preview', body] as const,
  freshness: (venueId: string) => [...OWNER_ROOT, 'freshness', venueId] as const,
};

export const useQuizPlaces = (enabled = true) => useQuery({ queryKey: quizKeys.places(), queryFn: quizzesApi.places, enabled });
export const usePlaceQuizzes = (locationId: string | null) =>
  useQuery({ queryKey: quizKeys.place(locationId ?? ''), queryFn: () => quizzesApi.placeQuizzes(locationId!), enabled: !!locationId });
export const useSingleQuizzes = () => useQuery({ queryKey: quizKeys.singles(), queryFn: quizzesApi.singles });
export const useQuiz = (id: string) => useQuery({ queryKey: quizKeys.detail(id), queryFn: () => quizzesApi.get(id) });
export const useSeriesList = () => useQuery({ queryKey: quizKeys.seriesList(), queryFn: quizzesApi.seriesList });
export const useSeries = (recurrenceId: string, enabled = true) =>
  useQuery({ queryKey: quizKeys.series(recurrenceId), queryFn: () => quizzesApi.series(recurrenceId), enabled });

export const useCreateQuiz = () => useOwnerMutation(quizzesApi.create);
export const useEditQuiz = () => useOwnerMutation(({ id, body }: { id: string; body: EditQuizData }) => quizzesApi.edit(id, body));
export const useDeleteQuiz = () => useOwnerMutation(quizzesApi.remove);
export const useSetCancelled = () => useOwnerMutation(({ id, cancelled }: { id: string; cancelled: boolean }) => quizzesApi.setCancelled(id, cancelled));
export const useEditSeries = () => useOwnerMutation(({ id, body }: { id: string; body: EditSeriesData }) => quizzesApi.editSeries(id, body));
export const useDeleteSeries = () => useOwnerMutation(quizzesApi.removeSeries);
export const useExtendSeries = () => useOwnerMutation(quizzesApi.extendSeries);
export const useAutoExtend = () => useOwnerMutation(() => quizzesApi.autoExtend());
export const usePauseSeries = () =>
  useOwnerMutation(
    ({ id, kind, body }: { id: string; kind: 'pause' | 'resume'; body: PauseSeriesInput }): Promise<number> =>
      kind === 'pause' ? quizzesApi.pauseSeries(id, body).then((r) => r.cancelled) : quizzesApi.resumeSeries(id, body).then((r) => r.restored),
  );

/** The create form's holiday preview; off until the values make a valid series start. */
export const useHolidayPreview = (body: HolidayPreviewInput, enabled: boolean) =>
  useQuery({ queryKey: quizKeys.holidayPreview(body), queryFn: () => quizzesApi.holidayPreview(body), enabled, placeholderData: (prev) => prev });
export const useSeriesHolidays = (recurrenceId: string) =>
  useQuery({ queryKey: quizKeys.seriesHolidays(recurrenceId), queryFn: () => quizzesApi.seriesHolidays(recurrenceId) });
export const useDecideHolidays = () => useOwnerMutation(({ id, body }: { id: string; body: HolidayDecisionsInput }) => quizzesApi.decideHolidays(id, body));
export const useFreshness = (venueId: string | null | undefined) =>
  useQuery({ queryKey: quizKeys.freshness(venueId ?? ''), queryFn: () => quizzesApi.freshness(venueId!), enabled: !!venueId });
export const useConfirmFreshness = () => useOwnerMutation(quizzesApi.confirmFreshness);
