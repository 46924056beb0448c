/**
 * The owner's quizzes and series (worker/features/quizzes and worker/features/series, under
 * /api/owner). Types come from the shared contract; `useApiData` is a tiny loader with reload().
 */
import { useCallback, useEffect, useState } from 'react';
import type {
  CreateQuizInput,
  CreateQuizResponse,
  EditQuizInput,
  EditSeriesInput,
  PauseSeriesInput,
  PlaceQuizzesResponse,
  QuizDetailResponse,
  QuizPlacesResponse,
  SeriesSummary,
  SingleQuizzesResponse,
} from '../../worker/features/quizzes/contract';
import { api, ApiError, type ApiIssue } from '../lib/api';

export type { OwnerQuiz, PlaceQuizzesResponse, PlaceSeriesGroup, QuizDetailResponse } from '../../worker/features/quizzes/contract';
export type { SeriesSummary };

const enc = encodeURIComponent;

export const quizzesApi = {
  places: () => api<QuizPlacesResponse>('/api/owner/quiz-places'),
  placeQuizzes: (locationId: string) => api<PlaceQuizzesResponse>(`/api/owner/locations/${enc(locationId)}/quizzes`),
  singles: () => api<SingleQuizzesResponse>('/api/owner/quizzes'),
  create: (body: CreateQuizInput) => api<CreateQuizResponse>('/api/owner/quizzes', { method: 'POST', body }),
  get: (id: string) => api<QuizDetailResponse>(`/api/owner/quizzes/${enc(id)}`),
  edit: (id: string, body: EditQuizInput) =>
    api<{ updated: number; created: number; deleted: number; recurrenceId: string | null }>(`/api/owner/quizzes/${enc(id)}`, { method: 'PATCH', body }),
  remove: (id: string) => api<{ deleted: number }>(`/api/owner/quizzes/${enc(id)}`, { method: 'DELETE' }),
  setCancelled: (id: string, cancelled: boolean) => api<{ id: string; isCancelled: boolean }>(`/api/owner/quizzes/${enc(id)}/cancel`, { method: 'POST', body: { cancelled } }),
  seriesList: () => api<{ today: string; series: SeriesSummary[] }>('/api/owner/series'),
  series: (recurrenceId: string) => api<{ series: SeriesSummary }>(`/api/owner/series/${enc(recurrenceId)}`),
  editSeries: (recurrenceId: string, body: EditSeriesInput) => api<{ updated: number }>(`/api/owner/series/${enc(recurrenceId)}`, { method: 'PATCH', body }),
  removeSeries: (recurrenceId: string) => api<{ deleted: number }>(`/api/owner/series/${enc(recurrenceId)}`, { method: 'DELETE' }),
  extendSeries: (recurrenceId: string) => api<{ added: number; count: number }>(`/api/owner/series/${enc(recurrenceId)}/extend`, { method: 'POST' }),
  autoExtend: () => api<{ extendedCount: number; added: number }>('/api/owner/series/auto-extend', { method: 'POST' }),
  pauseSeries: (recurrenceId: string, body: PauseSeriesInput) => api<{ cancelled: number }>(`/api/owner/series/${enc(recurrenceId)}/pause`, { method: 'POST', body }),
  resumeSeries: (recurrenceId: string, body: PauseSeriesInput) => api<{ restored: number }>(`/api/owner/series/${enc(recurrenceId)}/resume`, { method: 'POST', body }),
};

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: ApiError | Error };

/** Loads `load()` on mount and whenever `key` changes; reload() refetches (keeping the old data visible). */
export function useApiData<T>(key: string | null, load: () => Promise<T>) {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    load().then(
      (data) => live && setState({ status: 'ready', data }),
      (error: Error) => live && setState({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { state, reload };
}

/** Field errors by first path segment, from zod issues or the API's issues. */
export function issuesToErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> | string; message: string }> | ApiIssue[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues ?? []) {
    const key = typeof i.path === 'string' ? i.path.split('.')[0]! : String(i.path[0] ?? '');
    if (key && !out[key]) out[key] = i.message;
  }
  return out;
}
