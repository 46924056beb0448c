/**
 * Promotion preview (spec 02 §2.3): how a quiz (normally the next upcoming one) would look as
 * Premium Utvald — the full-width card on top of the listing — and as Rekommenderat with its banner.
 */
import { categoryLabel, displayTime } from '../../../worker/lib/swedish';
import { TIER_LABELS, tierDescription } from '../../../worker/features/promotion/contract';
import { Dialog } from '../ui/Dialog';
import { Star } from '../ui/icons';
import { shortDate } from './api';

export interface PreviewQuiz {
  date: string;
  startTime: string | null;
  category: string | null;
  theme: string | null;
  city: string;
  venueName?: string;
  placeName?: string;
}

export default function PromotionPreviewDialog({ open, onClose, quiz }: { open: boolean; onClose: () => void; quiz: PreviewQuiz | null }) {
  return (
    <Dialog open={open} onClose={onClose} size="lg" title="Förhandsvisning av marknadsföring" description="Så här visas ditt nästa quiz för besökarna.">
      {!quiz ? (
        <p>Du har inget kommande quiz att förhandsvisa.</p>
      ) : (
        <div className="space-y-6">
          <section aria-labelledby="preview-premium">
            <h3 id="preview-premium" className="mb-2 font-bold">
              Som {TIER_LABELS.premium}
            </h3>
            <div className="rounded-2xl border-2 border-amber-400 bg-gradient-to-r from-amber-50 to-white p-5 shadow">
              <p className="flex items-center gap-1 text-sm font-bold uppercase tracking-wide text-amber-800">
                <Star aria-hidden="true" className="size-4 fill-current" /> {TIER_LABELS.premium}
              </p>
              <p className="mt-1 text-2xl font-extrabold">{quiz.venueName ?? quiz.placeName ?? 'Ditt quiz'}</p>
              <p className="text-slate-700">
                {categoryLabel(quiz.category, quiz.theme)} · {shortDate(quiz.date)} kl {displayTime(quiz.startTime)} · {quiz.city}
              </p>
              <p className="mt-2 text-sm text-slate-700">{tierDescription('premium')}</p>
            </div>
          </section>
          <section aria-labelledby="preview-recommended">
            <h3 id="preview-recommended" className="mb-2 font-bold">
              Som {TIER_LABELS.recommended}
            </h3>
            <div className="max-w-xs overflow-hidden rounded-2xl border border-sky-300 bg-white shadow">
              <p className="bg-sky-700 px-3 py-1 text-sm font-bold text-white">{TIER_LABELS.recommended}</p>
              <div className="p-4">
                <p className="text-lg font-bold">{quiz.venueName ?? quiz.placeName ?? 'Ditt quiz'}</p>
                <p className="text-sm text-slate-700">
                  {categoryLabel(quiz.category, quiz.theme)} · {shortDate(quiz.date)} kl {displayTime(quiz.startTime)}
                </p>
                <p className="text-sm text-slate-700">{quiz.city}</p>
              </div>
            </div>
            <p className="mt-2 text-sm text-slate-700">{tierDescription('recommended')}</p>
          </section>
        </div>
      )}
    </Dialog>
  );
}
