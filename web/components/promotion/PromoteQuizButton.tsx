/**
 * SEAM (owned by the promotion work of issue 6): the 'Marknadsför' button of one single quiz and its
 * purchase dialog (1, 2 or 4 weeks). Rendered by the owner's quiz list; replaced by the promotion feature.
 */
export interface PromoteQuizButtonProps {
  quiz: { id: string; date: string; startTime: string | null; category: string | null; theme: string | null };
  city: string;
  venueId: string;
  /** Current promotion state of the quiz: already promoted quizzes cannot be promoted again. */
  promotion: 'premium' | 'recommended' | null;
}
export default function PromoteQuizButton(_props: PromoteQuizButtonProps) {
  return null;
}
