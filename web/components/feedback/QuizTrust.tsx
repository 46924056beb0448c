/**
 * The detail dialog's trust row (issue 20): "Senast bekräftad {datum}" (or "Uppgifter från offentliga
 * källor" for unclaimed businesses), fetched when the dialog opens, and the "Stämmer inte?" report,
 * whose form and zod contract load on first use (the public first load stays lean).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { freshnessLine } from '../../../worker/lib/swedish';

const QuizReportForm = lazy(() => import('./QuizReportForm'));

export function QuizTrust({ quizId }: { quizId: string }) {
  const [line, setLine] = useState<string | null>(null);
  const [reporting, setReporting] = useState(false);
  useEffect(() => {
    let alive = true;
    setLine(null);
    setReporting(false);
    fetch(`/api/freshness/quiz/${encodeURIComponent(quizId)}`, { headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? (r.json() as Promise<{ confirmedOn: string | null; publicSources: boolean }>) : null))
      .then((f) => {
        if (alive && f) setLine(freshnessLine(f));
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [quizId]);
  return (
    <div className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-slate-600">{line ?? '\u00a0'}</p>
        {!reporting && (
          <button type="button" className="font-semibold text-brand-700 underline" onClick={() => setReporting(true)}>
            Stämmer inte?
          </button>
        )}
      </div>
      {reporting && (
        <Suspense fallback={<p>Laddar…</p>}>
          <QuizReportForm quizId={quizId} onDone={() => setReporting(false)} />
        </Suspense>
      )}
    </div>
  );
}
