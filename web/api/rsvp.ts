/**
 * "Vi kommer" for the owner (worker/features/rsvp, under /api/owner/rsvp; issue 47): one date's teams, queue and
 * cancellations, and the series' RSVP settings. Writes go through useOwnerMutation (the owner family is invalidated).
 */
import { useQuery } from '@tanstack/react-query';
import type { OwnerRsvpView, RsvpSettingsInput } from '../../worker/features/rsvp/contract';
import type { EditQuizData, OwnerQuiz } from '../../worker/features/quizzes/contract';
import { formTheme } from '../../worker/features/quizzes/contract';
import { api } from '../lib/api';
import { OWNER_ROOT, useOwnerMutation } from '../lib/query';

const enc = encodeURIComponent;

export const rsvpApi = {
  view: (quizId: string) => api<OwnerRsvpView>(`/api/owner/rsvp/quizzes/${enc(quizId)}`),
  csvPath: (quizId: string) => `/api/owner/rsvp/quizzes/${enc(quizId)}/export.csv`,
  settings: (quizId: string, body: RsvpSettingsInput) =>
    api<{ settings: RsvpSettingsInput }>(`/api/owner/rsvp/quizzes/${enc(quizId)}/settings`, { method: 'PUT', body }),
  /** The date's tables through the quiz edit (its other fields as they are). */
  capacity: (quiz: OwnerQuiz, capacityTables: number | null) => {
    const { theme, customTheme } = formTheme(quiz.theme);
    const body: EditQuizData = {
      date: quiz.date,
      startTime: (quiz.startTime ?? '19:00').slice(0, 5),
      category: (quiz.category ?? 'allmänbildning') as EditQuizData['category'],
      theme: theme || null,
      customTheme: customTheme || null,
      quizmaster: quiz.quizmaster,
      teamSize: quiz.teamSize,
      price: quiz.price,
      description: quiz.description,
      language: quiz.language,
      capacityTables,
    } as EditQuizData;
    return api(`/api/owner/quizzes/${enc(quiz.id)}`, { method: 'PATCH', body });
  },
};

export const useOwnerRsvp = (quizId: string) => useQuery({ queryKey: [...OWNER_ROOT, 'rsvp', quizId], queryFn: () => rsvpApi.view(quizId) });
export const useRsvpSettings = () => useOwnerMutation(({ quizId, body }: { quizId: string; body: RsvpSettingsInput }) => rsvpApi.settings(quizId, body));
export const useRsvpCapacity = () =>
  useOwnerMutation(({ quiz, capacityTables }: { quiz: OwnerQuiz; capacityTables: number | null }) => rsvpApi.capacity(quiz, capacityTables));
