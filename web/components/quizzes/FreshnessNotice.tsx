/**
 * The dashboard's freshness line (issue 20 §3): "Senast bekräftad {datum}" with a one-click
 * "Stämmer fortfarande", a warning from 30 days on, and — once the business is hidden after 90 days
 * unconfirmed — why visitors no longer see its quizzes. House-account businesses show
 * "Uppgifter från offentliga källor" and are never hidden.
 */
import { FRESHNESS_HIDE_AFTER_DAYS, FRESHNESS_MAIL_DAYS, freshnessLine } from '../../../worker/features/freshness/contract';
import { useConfirmFreshness, useFreshness } from '../../api/quizzes';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';

export function FreshnessNotice({ venueId }: { venueId: string }) {
  const query = useFreshness(venueId);
  const confirm = useConfirmFreshness();
  if (!query.data) return null;
  const f = query.data;
  if (f.publicSources) return <p className="mt-2 text-sm text-slate-600">{freshnessLine(f)}</p>;
  const tone = f.hidden ? 'border-red-300 bg-red-50' : f.daysSince >= FRESHNESS_MAIL_DAYS ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white';
  async function onConfirm() {
    try {
      await confirm.mutateAsync(venueId);
      toast({ title: 'Tack! Era quiz är bekräftade', variant: 'success' });
    } catch (err) {
      toast({ title: 'Kunde inte bekräfta', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }
  return (
    <div role={f.hidden ? 'alert' : 'status'} className={`mt-4 flex flex-wrap items-center justify-between gap-3 rounded-xl border p-4 ${tone}`}>
      <div className="text-sm text-slate-800">
        <p className="font-semibold">{freshnessLine(f)}</p>
        {f.hidden ? (
          <p>
            Era quiz visas inte för besökare: uppgifterna har inte bekräftats på över {FRESHNESS_HIDE_AFTER_DAYS} dagar. Inget är raderat — bekräfta att de
            stämmer så visas de igen direkt.
          </p>
        ) : f.daysSince >= FRESHNESS_MAIL_DAYS ? (
          <p>Stämmer era quiz fortfarande? Utan bekräftelse döljs de för besökare om {f.hideInDays} dagar.</p>
        ) : (
          <p>Varje ändring av ett quiz räknas som en bekräftelse.</p>
        )}
      </div>
      <Button variant={f.hidden || f.daysSince >= FRESHNESS_MAIL_DAYS ? 'primary' : 'secondary'} disabled={confirm.isPending} onClick={() => void onConfirm()}>
        Stämmer fortfarande
      </Button>
    </div>
  );
}
