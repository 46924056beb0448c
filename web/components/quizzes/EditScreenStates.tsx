import { Link } from 'react-router';
import { buttonClass } from '../ui/Button';

/** 'Quizet hittades inte' (404) or 'Ett fel uppstod' with the message, and a way back. */
export function QuizLoadFailed({ error }: { error: Error }) {
  const missing = 'status' in error && (error as { status: number }).status === 404;
  return (
    <div className="mx-auto max-w-xl px-4 py-12 text-center">
      <h1 className="text-2xl font-bold">{missing ? 'Quizet hittades inte' : 'Ett fel uppstod'}</h1>
      {!missing && <p className="mt-2 text-slate-700">{error.message}</p>}
      <Link to="/admin" className={buttonClass('primary', 'mt-6')}>
        Till översikten
      </Link>
    </div>
  );
}

/** Where the edit screens go back to: a superadmin to the business they opened, an owner to /admin. */
export const backTo = (isSuperadmin: boolean, venueId: string) => (isSuperadmin ? `/admin/venue/${venueId}` : '/admin');
