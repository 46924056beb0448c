import { lazy, Suspense } from 'react';
import type { ListingQuiz } from '../../../worker/features/listing/contract';

/**
 * The quiz's detail dialog, loaded when a card is first opened: it is not needed for the first paint, and the public
 * page's first-load JavaScript has a budget (test/e2e/budgets.test.ts). Nothing is rendered while no quiz is open
 * (the server renders the same), so the page and its hydration stay as they were.
 */
const QuizDetailDialog = lazy(() => import('./QuizDetailDialog').then((m) => ({ default: m.QuizDetailDialog })));

export function LazyQuizDetailDialog({ quiz, onClose }: { quiz: ListingQuiz | null; onClose: () => void }) {
  if (!quiz) return null;
  return (
    <Suspense fallback={null}>
      <QuizDetailDialog quiz={quiz} onClose={onClose} />
    </Suspense>
  );
}
