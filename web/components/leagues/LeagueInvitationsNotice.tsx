import { Link } from 'react-router';
import { useLeagues } from '../../api/results';
import { buttonClass } from '../ui/Button';

/** The dashboard's notice of league invitations awaiting the owner's answer (issue 46.3); nothing when there are none. */
export function LeagueInvitationsNotice() {
  const leagues = useLeagues();
  const n = leagues.data?.invitations.length ?? 0;
  if (!n) return null;
  return (
    <section
      aria-label="Inbjudningar till ligor"
      className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4"
    >
      <p className="font-semibold text-amber-950">
        {n === 1 ? 'En liga vill ha med din quizserie.' : `${n} ligor vill ha med dina quizserier.`} Den räknas först när du har svarat ja.
      </p>
      <Link to="/admin/ligor" className={buttonClass('secondary')}>
        Svara
      </Link>
    </section>
  );
}
