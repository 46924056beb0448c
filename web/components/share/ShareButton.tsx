import { Share2 } from '../ui/icons';
import { toast } from '../ui/Toast';
import { trackAttrs, type TrackTarget } from '../analytics/beacon';

/** Phones and tablets get the system share sheet; elsewhere (desktop) the link is copied. */
function prefersShareSheet(): boolean {
  return typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

/**
 * "Dela": the Web Share API on phones, otherwise copies the link and says "Länk kopierad".
 * `path` is the page's own path (absolute URL built from the current origin when clicked). `track`: the
 * quiz or business a click is counted for (click_share, issue 18).
 */
export function ShareButton({ path, title, className, track }: { path: string; title: string; className?: string; track?: TrackTarget }) {
  const share = async () => {
    const url = new URL(path, window.location.origin).toString();
    if (prefersShareSheet()) {
      try {
        await navigator.share({ title, url });
        return;
      } catch (e) {
        if (e instanceof DOMException && e.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Länk kopierad', variant: 'success', duration: 3000 });
    } catch {
      toast({ title: 'Kunde inte kopiera länken', description: url, variant: 'destructive' });
    }
  };
  return (
    <button
      type="button"
      onClick={share}
      {...trackAttrs('click_share', track)}
      className={className ?? 'inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline'}
    >
      <Share2 aria-hidden="true" className="size-4 shrink-0" />
      Dela
    </button>
  );
}
