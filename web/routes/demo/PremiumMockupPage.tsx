/** /premium-mockup: the Premium Utvald card and its detail view on sample data (design mockup). */
import { Star } from '../../components/ui/icons';
import { useState } from 'react';
import { TIER_LABELS } from '../../../worker/features/promotion/contract';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { DemoBanner } from './DemoBanner';
import { demoDate, SAMPLE_QUIZZES } from './sample';

export default function PremiumMockupPage() {
  const [open, setOpen] = useState(false);
  const q = SAMPLE_QUIZZES[0]!;
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <DemoBanner />
      <h1 className="text-3xl font-extrabold">Premium Utvald – mockup</h1>
      <article className="grid gap-4 rounded-3xl border-2 border-amber-400 bg-gradient-to-br from-amber-100 via-white to-white p-6 shadow-lg sm:grid-cols-[2fr_1fr]">
        <div>
          <p className="inline-flex items-center gap-1 text-sm font-bold uppercase tracking-wide text-amber-800">
            <Star aria-hidden="true" className="size-4 fill-current" /> {TIER_LABELS.premium}
          </p>
          <h2 className="mt-2 text-3xl font-extrabold">{q.venue}</h2>
          <p className="mt-1 text-lg text-slate-700">
            {q.category} · {demoDate(q.date)} kl {q.time}
          </p>
          <p className="mt-3 text-slate-700">Veckans stora quiz med fina priser. Lag om 2–6 personer, boka bord i förväg.</p>
        </div>
        <div className="flex flex-col items-start justify-center gap-3">
          <p className="text-slate-700">Storgatan 1, {q.city}</p>
          <p className="text-slate-700">Telefon 031-12 34 56</p>
          <Button onClick={() => setOpen(true)}>Visa detaljer</Button>
        </div>
      </article>
      <Dialog open={open} onClose={() => setOpen(false)} title={q.venue} description={`${demoDate(q.date)} kl ${q.time}`}>
        <p>Exempel på detaljvyn för ett Premium Utvald-quiz: adress, telefon, frågesportledare och beskrivning.</p>
      </Dialog>
    </div>
  );
}
