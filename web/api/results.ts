/**
 * Results (issue 46) for owners: a place's recent nights, a night's results (read, post, correct) and a series'
 * seasons. Typed by the shared contract; every write invalidates the owner family (useOwnerMutation).
 */
import { useQuery } from '@tanstack/react-query';
import type { CreateSeasonInput, LocationNight, NightResults, OwnerSeason, PostResultsInput } from '../../worker/features/results/contract';
import { api } from '../lib/api';
import { OWNER_ROOT, useOwnerMutation } from '../lib/query';

export type { LocationNight, NightResults, OwnerSeason, TeamSuggestion } from '../../worker/features/results/contract';

const enc = encodeURIComponent;

export const resultsApi = {
  placeNights: (locationId: string) => api<{ nights: LocationNight[] }>(`/api/owner/locations/${enc(locationId)}/results`),
  night: (quizId: string) => api<NightResults>(`/api/owner/quizzes/${enc(quizId)}/results`),
  post: (quizId: string, body: PostResultsInput) => api<NightResults>(`/api/owner/quizzes/${enc(quizId)}/results`, { method: 'PUT', body }),
  seasons: (seriesId: string) => api<{ seasons: OwnerSeason[] }>(`/api/owner/series/${enc(seriesId)}/seasons`),
  createSeason: (seriesId: string, body: CreateSeasonInput) => api<OwnerSeason>(`/api/owner/series/${enc(seriesId)}/seasons`, { method: 'POST', body }),
};

export const resultKeys = {
  placeNights: (locationId: string) => [...OWNER_ROOT, 'result-nights', locationId] as const,
  night: (quizId: string) => [...OWNER_ROOT, 'results', quizId] as const,
  seasons: (seriesId: string) => [...OWNER_ROOT, 'seasons', seriesId] as const,
};

export const usePlaceNights = (locationId: string) =>
  useQuery({ queryKey: resultKeys.placeNights(locationId), queryFn: () => resultsApi.placeNights(locationId) });
export const useNightResults = (quizId: string | null) =>
  useQuery({ queryKey: resultKeys.night(quizId ?? ''), queryFn: () => resultsApi.night(quizId!), enabled: !!quizId });
export const usePostResults = () => useOwnerMutation(({ quizId, body }: { quizId: string; body: PostResultsInput }) => resultsApi.post(quizId, body));
export const useSeasons = (seriesId: string) => useQuery({ queryKey: resultKeys.seasons(seriesId), queryFn: () => resultsApi.seasons(seriesId) });
export const useCreateSeason = () =>
  useOwnerMutation(({ seriesId, body }: { seriesId: string; body: CreateSeasonInput }) => resultsApi.createSeason(seriesId, body));
