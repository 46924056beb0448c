import type { ListingQuiz } from '../../pages/types';

/** "Quizmaster: Namn" — a link to the profile page when the quiz links a profile (issue 48), else the free text. */
export function QuizmasterLink({ quiz, className }: { quiz: Pick<ListingQuiz, 'quizmaster' | 'quizmasterProfile'>; className?: string }) {
  const profile = quiz.quizmasterProfile;
  if (!profile && !quiz.quizmaster) return null;
  return (
    <span className={className}>
      Quizmaster:{' '}
      {profile ? (
        <a href={`/quizmaster/${encodeURIComponent(profile.slug)}`} className="font-semibold text-brand-700 underline">
          {profile.name}
        </a>
      ) : (
        quiz.quizmaster
      )}
    </span>
  );
}
