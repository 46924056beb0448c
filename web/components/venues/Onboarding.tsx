import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../ui/Button';
import { CreateVenueDialog } from './CreateVenueDialog';

const STEPS = [
  { title: 'Lägg till verksamhet', text: 'Namnet på puben, restaurangen eller quizarrangören.' },
  { title: 'Lägg till platser', text: 'Var quizet hålls: adress och stad, en eller flera lokaler.' },
  { title: 'Publicera quiz', text: 'Ett enstaka quiz eller en återkommande serie, varje vecka eller varannan.' },
];

/** Dashboard for a signed-in user without a business (spec 02 §2.1): three steps and the create dialog. */
export function Onboarding() {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="onboarding-heading" className="mx-auto max-w-3xl space-y-6 text-center">
      <div>
        <h1 id="onboarding-heading" className="text-3xl font-extrabold">
          Välkommen till Quizkväll!
        </h1>
        <p className="mt-2 text-slate-700">Kom igång på några minuter i tre steg.</p>
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
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={() => setOpen(true)}>Skapa verksamhet</Button>
        <Link to="/admin/create-venue" className={buttonClass('secondary')}>
          Registrera verksamhet med adress
        </Link>
      </div>
      <CreateVenueDialog open={open} onClose={() => setOpen(false)} />
    </section>
  );
}
