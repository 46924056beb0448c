import { Link } from 'react-router';
import type { OwnerPlace } from '../../api/venues';
import { buttonClass } from '../ui/Button';

/**
 * The empty dashboard's one next step (issue 44.6): a business with a place and no quiz yet is asked for its first
 * quiz, high on the page (above the places, clear of the toast at the bottom), with the only primary button.
 * Without a place, the places section's "Lägg till din första plats" is the step instead.
 */
export function NextStep({ places }: { places: OwnerPlace[] }) {
  const first = places[0];
  if (!first) return null;
  return (
    <section aria-labelledby="next-step-heading" className="rounded-2xl border-2 border-brand-600 bg-brand-50 p-5">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Nästa steg</p>
      <h2 id="next-step-heading" className="mt-1 text-xl font-bold">
        Lägg upp ditt första quiz
      </h2>
      <p className="mt-1 text-slate-800">
        Ett enstaka quiz eller en serie varje vecka{places.length === 1 ? ` på ${first.name}` : ''}. Det syns för besökare direkt.
      </p>
      <Link to={`/admin/create-quiz?location=${encodeURIComponent(first.id)}`} className={buttonClass('primary', 'mt-4 w-full px-6 py-3 text-base sm:w-auto')}>
        Skapa ditt första quiz
      </Link>
    </section>
  );
}
