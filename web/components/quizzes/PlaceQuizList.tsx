/**
 * SEAM (owned by the quizzes/series work of issue 5): the collapsible list of a place's upcoming
 * quizzes inside the owner's place card. The place card (venues work) renders it; this initial version
 * is replaced by the quizzes feature.
 */
export interface PlaceQuizListProps {
  locationId: string;
  venueId: string;
  city: string;
}
export default function PlaceQuizList(_props: PlaceQuizListProps) {
  return null;
}
