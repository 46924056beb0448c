/**
 * Results (issue 46) for owners: a place's recent nights, a night's results (read, post, correct) and a series'
 * seasons. Typed by the shared contract; every write invalidates the owner family (useOwnerMutation).
 */
import { useQuery } from '@tanstack/react-query';
import type {
  CreateLeagueInput,
  CreateSeasonInput,
  LeagueInvitation,
  LocationNight,
  NightResults,
  OwnerLeague,
  OwnerSeason,
  PostResultsInput,
} from '../../worker/features/results/contract';
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

// ---- Leagues (issue 46.3) ----

export type { LeagueInvitation, OwnerLeague } from '../../worker/features/results/contract';

export const leaguesApi = {
  list: () => api<{ leagues: OwnerLeague[]; invitations: LeagueInvitation[] }>('/api/owner/leagues'),
  create: (body: CreateLeagueInput) => api<OwnerLeague>('/api/owner/leagues', { method: 'POST', body }),
  addSeries: (leagueId: string, seriesId: string) => api<OwnerLeague>(`/api/owner/leagues/${enc(leagueId)}/series`, { method: 'POST', body: { seriesId } }),
  removeSeries: (leagueId: string, seriesId: string) => api<OwnerLeague>(`/api/owner/leagues/${enc(leagueId)}/series/${enc(seriesId)}`, { method: 'DELETE' }),
  answer: (leagueId: string, seriesId: string, accept: boolean) =>
    api<{ accepted: boolean }>(`/api/owner/leagues/${enc(leagueId)}/series/${enc(seriesId)}/answer`, { method: 'POST', body: { accept } }),
  createSeason: (leagueId: string, body: CreateSeasonInput) => api<OwnerSeason>(`/api/owner/leagues/${enc(leagueId)}/seasons`, { method: 'POST', body }),
};

export const useLeagues = () => useQuery({ queryKey: [...OWNER_ROOT, 'leagues'] as const, queryFn: leaguesApi.list });
export const useCreateLeague = () => useOwnerMutation((body: CreateLeagueInput) => leaguesApi.create(body));
export const useRemoveLeagueSeries = () =>
  useOwnerMutation(({ leagueId, seriesId }: { leagueId: string; seriesId: string }) => leaguesApi.removeSeries(leagueId, seriesId));
export const useAnswerLeague = () =>
  useOwnerMutation(({ leagueId, seriesId, accept }: { leagueId: string; seriesId: string; accept: boolean }) => leaguesApi.answer(leagueId, seriesId, accept));
export const useCreateLeagueSeason = () =>
  useOwnerMutation(({ leagueId, body }: { leagueId: string; body: CreateSeasonInput }) => leaguesApi.createSeason(leagueId, body));
