/** /premium-demo: a sales page showing how Premium Utvald and Rekommenderat look in the listing (sample data). */
import { Star } from '../../components/ui/icons';
import { FALLBACK_WEEKLY_PRICE_SEK, TIER_LABELS, tierDescription, weeklyPriceText } from '../../../worker/features/promotion/contract';
import { DemoBanner } from './DemoBanner';
import { demoDate, SAMPLE_QUIZZES } from './sample';

export default function PremiumDemoPage() {
  const [premium, ...rest] = SAMPLE_QUIZZES;
  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-8">
      <DemoBanner />
      <header className="space-y-2">
        <h1 className="text-3xl font-extrabold">Synas först med Premium Utvald</h1>
        <p className="text-lg text-slate-700">Så här ser startsidan ut när ditt quiz är marknadsfört. Fler besökare, direkt efter betalning.</p>
      </header>
      <section aria-labelledby="demo-listing" className="space-y-4">
        <h2 id="demo-listing" className="text-xl font-bold">
          Quiz i Göteborg
        </h2>
        <article className="rounded-2xl border-2 border-amber-400 bg-gradient-to-r from-amber-50 to-white p-6 shadow">
          <p className="inline-flex items-center gap-1 text-sm font-bold uppercase tracking-wide text-amber-800">
            <Star aria-hidden="true" className="size-4 fill-current" /> {TIER_LABELS.premium}
          </p>
          <h3 className="mt-1 text-2xl font-extrabold">{premium!.venue}</h3>
          <p className="text-slate-700">
            {premium!.category} · {demoDate(premium!.date)} kl {premium!.time} · {premium!.city}
          </p>
        </article>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {rest.map((q) => (
            <li
              key={q.id}
              className={`overflow-hidden rounded-2xl border bg-white shadow-sm ${q.tier === 'recommended' ? 'border-sky-300' : 'border-slate-200'}`}
            >
              {q.tier === 'recommended' && <p className="bg-sky-700 px-3 py-1 text-sm font-bold text-white">{TIER_LABELS.recommended}</p>}
              <div className="p-4">
                <h3 className="text-lg font-bold">{q.venue}</h3>
                <p className="text-sm text-slate-700">
                  {q.category} · {demoDate(q.date)} kl {q.time}
                </p>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="demo-prices" className="grid gap-4 sm:grid-cols-3">
        <h2 id="demo-prices" className="sr-only">
          Priser
        </h2>
        <div className="rounded-xl border border-slate-200 p-4">
          <h3 className="font-bold">Standard</h3>
          <p className="text-2xl font-extrabold">Gratis</p>
        </div>
        <div className="rounded-xl border border-sky-300 p-4">
          <h3 className="font-bold">{TIER_LABELS.recommended}</h3>
          <p className="text-2xl font-extrabold">{weeklyPriceText(FALLBACK_WEEKLY_PRICE_SEK.recommended)}</p>
          <p className="text-sm text-slate-700">{tierDescription('recommended')}</p>
        </div>
        <div className="rounded-xl border border-amber-400 p-4">
          <h3 className="font-bold">{TIER_LABELS.premium}</h3>
          <p className="text-2xl font-extrabold">{weeklyPriceText(FALLBACK_WEEKLY_PRICE_SEK.premium)}</p>
          <p className="text-sm text-slate-700">{tierDescription('premium')}</p>
        </div>
      </section>
      <p>
        <a href="/register" className="inline-flex rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
          Kom igång gratis
        </a>
      </p>
    </div>
  );
}
