import { useEffect, useRef, useState } from 'react';
import { FEED_DAYS, webcalUrl } from '../../../worker/features/calendar/event';
import { toast } from '../ui/Toast';
import { useOrigin } from './useOrigin';
import { trackAttrs, type TrackTarget } from '../analytics/beacon';

/**
 * "Prenumerera i kalendern": the feed as a webcal:// link (opens a subscription in the calendar app)
 * and its https:// address to copy (for Google Kalender's "Från webbadress" and the like). `track`: the
 * business whose feed it is — opening it in the calendar app or copying it counts a feed_subscribe
 * (issue 18); a city or weekday feed belongs to no business and is not counted.
 */
export function SubscribeCalendar({ feedPath, tone = 'brand', track }: { feedPath: string; tone?: 'brand' | 'plain'; track?: TrackTarget }) {
  const origin = useOrigin();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // A popover: a click outside it or Escape closes it.
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const onEscape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', onEscape);
    };
  }, [open]);
  const https = `${origin}${feedPath}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(https);
      toast({ title: 'Länk kopierad', variant: 'success', duration: 3000 });
    } catch {
      toast({ title: 'Kunde inte kopiera – markera länken och kopiera den själv', variant: 'destructive' });
    }
  };
  const button =
    tone === 'brand'
      ? 'rounded-xl border border-white/40 bg-white/10 px-4 py-2 font-semibold text-white hover:bg-white/20'
      : 'rounded-xl border border-brand-200 bg-white px-4 py-2 font-semibold text-brand-800 hover:bg-brand-50';
  return (
    <div ref={box} className="relative inline-block text-left">
      <button type="button" className={button} aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        Prenumerera i kalendern
      </button>
      {open && (
        <fieldset
          aria-label="Prenumerera i kalendern"
          className="absolute left-0 z-20 mt-2 w-[min(90vw,26rem)] space-y-3 rounded-2xl border border-slate-200 bg-white p-4 text-sm text-slate-900 shadow-xl"
        >
          <p>Kalendern hämtar de kommande {FEED_DAYS / 7} veckornas quiz och uppdaterar sig själv.</p>
          <a
            href={origin ? webcalUrl(https) : feedPath}
            {...trackAttrs('feed_subscribe', track)}
            className="block rounded-xl bg-brand-600 px-4 py-2 text-center font-semibold text-white hover:bg-brand-700"
          >
            Öppna i kalenderappen
          </a>
          <label className="block font-semibold" htmlFor={`feed-${feedPath}`}>
            Eller kopiera adressen
          </label>
          <div className="flex gap-2">
            <input
              id={`feed-${feedPath}`}
              readOnly
              value={https}
              onFocus={(e) => e.currentTarget.select()}
              className="min-w-0 flex-1 rounded-lg border border-slate-300 px-2 py-1.5 font-mono text-xs"
            />
            <button
              type="button"
              onClick={copy}
              {...trackAttrs('feed_subscribe', track)}
              className="rounded-lg bg-slate-900 px-3 py-1.5 font-semibold text-white hover:bg-slate-700"
            >
              Kopiera
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}
