/** Quizmaster profiles (issue 48): the owner's typeahead, creation, link, invitation and the quizmaster's own profile. */
import { useQuery } from '@tanstack/react-query';
import type { QuizmasterSuggestion, QuizmasterSummary } from '../../worker/features/quizmasters/contract';
import { api } from '../lib/api';
import { OWNER_ROOT, useOwnerMutation } from '../lib/query';

export type { QuizmasterSuggestion, QuizmasterSummary };
const enc = encodeURIComponent;

export const quizmastersApi = {
  search: (q: string) => api<QuizmasterSummary[]>(`/api/owner/quizmasters?q=${enc(q)}`),
  create: (body: { name: string; bio?: string | null }) => api<QuizmasterSummary>('/api/owner/quizmasters', { method: 'POST', body }),
  suggestions: () => api<QuizmasterSuggestion[]>('/api/owner/quizmaster-suggestions'),
  /** `id`: a quiz id or a series' id. */
  ofQuiz: (id: string) => api<{ quizmaster: QuizmasterSummary | null; assigned: boolean }>(`/api/owner/quizzes/${enc(id)}/quizmaster`),
  link: (id: string, quizmasterId: string | null) =>
    api<{ quizmaster: QuizmasterSummary | null }>(`/api/owner/quizzes/${enc(id)}/quizmaster`, { method: 'PUT', body: { quizmasterId } }),
  invite: (id: string, email: string) =>
    api<{ sent: boolean; assigned: boolean }>(`/api/owner/quizzes/${enc(id)}/quizmaster/invite`, { method: 'POST', body: { email } }),
  removeAssignment: (id: string) => api<{ ok: true }>(`/api/owner/quizzes/${enc(id)}/quizmaster/assignment`, { method: 'DELETE' }),
  me: () => api<QuizmasterSummary | null>('/api/quizmaster/me'),
  editMe: (bio: string | null) => api<QuizmasterSummary>('/api/quizmaster/me', { method: 'PATCH', body: { bio } }),
};

export const quizmasterKeys = {
  search: (q: string) => [...OWNER_ROOT, 'quizmasters', q] as const,
  suggestions: () => [...OWNER_ROOT, 'quizmaster-suggestions'] as const,
  ofQuiz: (id: string) => [...OWNER_ROOT, 'quiz-quizmaster', id] as const,
  me: () => [...OWNER_ROOT, 'quizmaster-me'] as const,
};

export const useQuizmasterSearch = (q: string) =>
  useQuery({ queryKey: quizmasterKeys.search(q), queryFn: () => quizmastersApi.search(q), enabled: q.trim().length >= 2, placeholderData: (p) => p });
export const useQuizmasterSuggestions = () => useQuery({ queryKey: quizmasterKeys.suggestions(), queryFn: quizmastersApi.suggestions });
export const useQuizQuizmaster = (id: string) => useQuery({ queryKey: quizmasterKeys.ofQuiz(id), queryFn: () => quizmastersApi.ofQuiz(id) });
export const useMyQuizmasterProfile = () => useQuery({ queryKey: quizmasterKeys.me(), queryFn: quizmastersApi.me });
export const useCreateQuizmaster = () => useOwnerMutation(quizmastersApi.create);
export const useLinkQuizmaster = () =>
  useOwnerMutation(({ id, quizmasterId }: { id: string; quizmasterId: string | null }) => quizmastersApi.link(id, quizmasterId));
export const useInviteQuizmaster = () => useOwnerMutation(({ id, email }: { id: string; email: string }) => quizmastersApi.invite(id, email));
export const useRemoveAssignment = () => useOwnerMutation(quizmastersApi.removeAssignment);
export const useEditMyProfile = () => useOwnerMutation(quizmastersApi.editMe);
