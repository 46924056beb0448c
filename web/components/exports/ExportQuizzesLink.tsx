import { buttonClass } from '../ui/Button';

/** /admin/quizzes: "Exportera quiz (CSV)" — every quiz date of the owner's businesses (or of one business). */
export function ExportQuizzesLink({ venueId }: { venueId?: string }) {
  const href = venueId ? `/api/exports/quizzes.csv?venueId=${encodeURIComponent(venueId)}` : '/api/exports/quizzes.csv';
  return (
    <a href={href} download className={buttonClass('secondary')}>
      Exportera quiz (CSV)
    </a>
  );
}
