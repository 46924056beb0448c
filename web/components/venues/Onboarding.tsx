import { Link } from 'react-router';
import { buttonClass } from '../ui/Button';

const STEPS = [
  { title: 'Registrera verksamheten', text: 'Namnet och adressen där quizet hålls – verksamheten och dess första plats i ett steg.' },
  { title: 'Publicera quiz', text: 'Ett enstaka quiz eller en återkommande serie, varje vecka eller varannan.' },
  { title: 'Fler platser när du vill', text: 'Har ni flera lokaler lägger du till dem på din sida efteråt.' },
];

/**
 * Dashboard for a signed-in user without a business (spec 02 §2.1): three steps and one way in
 * (issue 29.3) — the register form that creates the business with its first place.
 */
export function Onboarding() {
  return (
    <section aria-labelledby="onboarding-heading" className="mx-auto max-w-3xl space-y-6 text-center">
      <div>
        <h1 id="onboarding-heading" className="text-3xl font-extrabold">
          Välkommen till Quizkväll!
        </h1>
        <p className="mt-2 text-slate-700">Kom igång på några minuter.</p>
      </div>
      <ol className="grid gap-4 text-left sm:grid-cols-3">
        {STEPS.map((s, i) => (
          <li key={s.title} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
            <span aria-hidden="true" className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-600 font-bold text-white">
              {i + 1}
            </span>
            <h2 className="mt-3 font-bold">
              <span className="sr-only">Steg {i + 1}: </span>
              {s.title}
            </h2>
            <p className="mt-1 text-sm text-slate-700">{s.text}</p>
          </li>
        ))}
      </ol>
      <Link to="/admin/create-venue" className={buttonClass('primary', 'w-full px-6 py-3 text-base sm:w-auto')}>
        Registrera din verksamhet
      </Link>
    </section>
  );
}
