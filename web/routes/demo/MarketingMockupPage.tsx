/**
 * /marketing-mockup (spec 02 §2.10): three design alternatives for choosing a tier per date — tabs,
 * compact inline and floating action — with a total and a pay button that reads
 * 'Välj datum för marknadsföring' (disabled) until a date is chosen, then
 * 'Fortsätt till betalning ({total} kr)'. Sample data only; nothing is bought.
 */
import { useState } from 'react';
import { FALLBACK_WEEKLY_PRICE_SEK, priceText, TIER_LABELS, type Tier } from '../../../worker/features/promotion/contract';
import { Button } from '../../components/ui/Button';
import { toast } from '../../components/ui/Toast';
import { DemoBanner } from './DemoBanner';
import { demoDate } from './sample';

const DATES = ['2026-12-01', '2026-12-08', '2026-12-15', '2026-12-22'];
const DESIGNS = [
  { id: 'tabs', label: 'Alternativ 1: Flikar' },
  { id: 'inline', label: 'Alternativ 2: Kompakt' },
  { id: 'floating', label: 'Alternativ 3: Flytande knapp' },
] as const;
type Design = (typeof DESIGNS)[number]['id'];
type Choice = Record<string, Tier>;

export function payLabel(total: number, count: number): string {
  return count === 0 ? 'Välj datum för marknadsföring' : `Fortsätt till betalning (${priceText(total)})`;
}

function PayButton({ choice }: { choice: Choice }) {
  const entries = Object.values(choice);
  const total = entries.reduce((s, t) => s + FALLBACK_WEEKLY_PRICE_SEK[t], 0);
  return (
    <Button disabled={entries.length === 0} onClick={() => toast({ title: 'Detta är en demo', description: 'Ingen betalning görs på demosidan.' })}>
      {payLabel(total, entries.length)}
    </Button>
  );
}

function TabsDesign({ choice, setChoice }: { choice: Choice; setChoice: (c: Choice) => void }) {
  const [tier, setTier] = useState<Tier>('recommended');
  return (
    <div className="space-y-4">
      <div role="tablist" aria-label="Marknadsföringstyp" className="flex gap-2">
        {(['recommended', 'premium'] as const).map((t) => (
          <button
            key={t}
            role="tab"
            type="button"
            aria-selected={tier === t}
            onClick={() => setTier(t)}
            className={`rounded-t-lg px-4 py-2 font-semibold ${tier === t ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-800'}`}
          >
            {TIER_LABELS[t]} ({priceText(FALLBACK_WEEKLY_PRICE_SEK[t])})
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={TIER_LABELS[tier]} className="space-y-2">
        {DATES.map((d) => (
          <label key={d} className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={choice[d] === tier}
              onChange={(e) => {
                const next = { ...choice };
                if (e.target.checked) next[d] = tier;
                else delete next[d];
                setChoice(next);
              }}
            />
            {demoDate(d)}
          </label>
        ))}
      </div>
      <PayButton choice={choice} />
    </div>
  );
}

function InlineDesign({ choice, setChoice }: { choice: Choice; setChoice: (c: Choice) => void }) {
  return (
    <div className="space-y-3">
      <ul className="divide-y divide-slate-200">
        {DATES.map((d) => (
          <li key={d} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span>{demoDate(d)}</span>
            <span className="flex gap-2">
              {(['recommended', 'premium'] as const).map((t) => (
                <button
                  key={t}
                  type="button"
                  aria-pressed={choice[d] === t}
                  onClick={() => {
                    const next = { ...choice };
                    if (next[d] === t) delete next[d];
                    else next[d] = t;
                    setChoice(next);
                  }}
                  className={`rounded-full border px-3 py-1 text-sm font-semibold ${choice[d] === t ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300'}`}
                >
                  {TIER_LABELS[t]}
                  <span className="sr-only"> {demoDate(d)}</span>
                </button>
              ))}
            </span>
          </li>
        ))}
      </ul>
      <PayButton choice={choice} />
    </div>
  );
}

function FloatingDesign({ choice, setChoice }: { choice: Choice; setChoice: (c: Choice) => void }) {
  const total = Object.values(choice).reduce((s, t) => s + FALLBACK_WEEKLY_PRICE_SEK[t], 0);
  return (
    <div className="space-y-3 pb-24">
      <div className="grid gap-3 sm:grid-cols-2">
        {DATES.map((d) => (
          <fieldset key={d} className="rounded-xl border border-slate-200 p-3">
            <legend className="px-1 font-semibold">{demoDate(d)}</legend>
            <select
              aria-label={`Typ för ${demoDate(d)}`}
              value={choice[d] ?? ''}
              onChange={(e) => {
                const next = { ...choice };
                if (e.target.value) next[d] = e.target.value as Tier;
                else delete next[d];
                setChoice(next);
              }}
              className="w-full rounded-lg border border-slate-300 px-2 py-1"
            >
              <option value="">Ingen marknadsföring</option>
              <option value="recommended">{TIER_LABELS.recommended}</option>
              <option value="premium">{TIER_LABELS.premium}</option>
            </select>
          </fieldset>
        ))}
      </div>
      <div className="fixed inset-x-0 bottom-4 z-40 mx-auto flex w-fit items-center gap-4 rounded-full bg-white px-5 py-3 shadow-2xl ring-1 ring-slate-200">
        <span className="font-semibold">
          {Object.keys(choice).length} valda · {priceText(total)}
        </span>
        <PayButton choice={choice} />
      </div>
    </div>
  );
}

export default function MarketingMockupPage() {
  const [design, setDesign] = useState<Design>('tabs');
  const [choice, setChoice] = useState<Choice>({});
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <DemoBanner />
      <h1 className="text-3xl font-extrabold">Marknadsför dina quizkvällar – designförslag</h1>
      <fieldset className="flex min-w-0 flex-wrap gap-2" aria-label="Designalternativ">
        {DESIGNS.map((d) => (
          <Button key={d.id} variant={design === d.id ? 'primary' : 'secondary'} aria-pressed={design === d.id} onClick={() => setDesign(d.id)}>
            {d.label}
          </Button>
        ))}
      </fieldset>
      <section aria-label={DESIGNS.find((d) => d.id === design)!.label} className="rounded-2xl border border-slate-200 bg-white p-5">
        {design === 'tabs' && <TabsDesign choice={choice} setChoice={setChoice} />}
        {design === 'inline' && <InlineDesign choice={choice} setChoice={setChoice} />}
        {design === 'floating' && <FloatingDesign choice={choice} setChoice={setChoice} />}
      </section>
    </div>
  );
}
