import { optionPriceText, priceText, RANKING_SCOPE, RANKING_STEPS, slotCapText, TIER_PLACEMENT } from '../../worker/features/promotion/tiers';
import type { AdvertisePageData } from './types';

/**
 * /annonsera (issue 18): what paid placement is, what it costs, how many places there are per city and
 * day, and how the listing is ranked — the main ranking parameters and the effect of payment, in plain
 * Swedish (EU platform-to-business regulation 2019/1150, art. 5). Every promoted card's "Annons" label
 * links here.
 */
export function AnnonseraPage({ data }: { data: AdvertisePageData }) {
  return (
    <div className="mx-auto max-w-3xl space-y-10 px-4 py-10 text-slate-800">
      <header className="space-y-3">
        <h1 className="text-3xl font-extrabold text-slate-900">Annonsera på Quizkväll</h1>
        <p className="text-lg">
          Det är gratis att lista sina quizkvällar på Quizkväll. Den som vill synas mer kan köpa en betald placering för ett quiz i sin stad. Betalda
          placeringar märks alltid med <span className="rounded border border-slate-300 px-1.5 text-xs font-semibold uppercase tracking-wide">Annons</span>.
        </p>
      </header>

      <section aria-labelledby="nivaer" className="space-y-4">
        <h2 id="nivaer" className="text-2xl font-bold text-slate-900">
          Två nivåer
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          {data.tiers.map((t) => (
            <article
              key={t.id}
              className={`rounded-2xl border bg-white p-5 shadow-sm ${t.id === 'premium' ? 'border-amber-400 ring-2 ring-amber-300' : 'border-slate-200'}`}
            >
              <h3 className="text-xl font-bold">{t.label}</h3>
              <p className="mt-1 text-2xl font-extrabold">
                {priceText(t.weeklyPriceSek)} <span className="text-base font-semibold text-slate-700">per vecka</span>
              </p>
              <p className="mt-2">{TIER_PLACEMENT[t.id]}</p>
              <p className="mt-2 font-semibold">{slotCapText(t.id)}</p>
              <ul className="mt-3 space-y-1 text-sm">
                {t.options.map((o) => (
                  <li key={o.weeks}>{optionPriceText(o)}</li>
                ))}
              </ul>
            </article>
          ))}
        </div>
        <p className="text-sm">
          Mängdrabatt: {data.volumeDiscountPercent} % dras automatiskt när {data.volumeDiscountMinWeeks} veckor eller fler köps i samma beställning.
          {data.priceSource === 'fallback' ? ' Visar ordinarie priser; det aktuella priset visas alltid innan du betalar.' : ''}
        </p>
      </section>

      <section aria-labelledby="ranking" className="space-y-3">
        <h2 id="ranking" className="text-2xl font-bold text-slate-900">
          Så rangordnas listan
        </h2>
        <ol className="list-decimal space-y-2 pl-6">
          {RANKING_STEPS.map((step) => (
            <li key={step.title}>
              <strong>{step.title}</strong> – {step.text}
            </li>
          ))}
        </ol>
        <p>{RANKING_SCOPE}</p>
      </section>

      <section aria-labelledby="kom-igang" className="space-y-3">
        <h2 id="kom-igang" className="text-2xl font-bold text-slate-900">
          Kom igång
        </h2>
        <p>
          Logga in, lägg upp ditt quiz och välj <em>Marknadsför</em>. Du ser vilka dagar som är lediga, begränsade eller slutsålda i din stad innan du betalar,
          och under <em>Statistik</em> ser du hur många som har sett och öppnat dina quiz.
        </p>
        <p className="flex flex-wrap gap-3">
          <a href="/admin" className="inline-flex rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
            Till mina quiz
          </a>
          <a href="/register" className="inline-flex rounded-xl border border-slate-300 bg-white px-4 py-2.5 font-semibold hover:bg-slate-50">
            Skapa konto
          </a>
        </p>
      </section>
    </div>
  );
}
