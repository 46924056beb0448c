/**
 * Owner dashboard: the copy-paste <iframe> snippet of the business's quiz widget (/embed/{city}/{venue},
 * issue 16) with its options and a live preview (the same URL, framed on this page).
 */
import { useId, useState } from 'react';
import { buttonClass } from '../ui/Button';
import { toast } from '../ui/Toast';

export interface EmbedSnippetProps {
  venue: { name: string; slug: string; isPublic: boolean };
  /** The business's places; one widget per city they are in. */
  places: Array<{ city: string; citySlug: string }>;
}

/** HTML-attribute escaping for the generated snippet (the name goes into title="…"). */
function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function embedPath(citySlug: string, venueSlug: string, opts: { dark: boolean; compact: boolean }): string {
  const q = new URLSearchParams();
  if (opts.dark) q.set('theme', 'dark');
  if (opts.compact) q.set('compact', '1');
  const qs = q.toString();
  return `/embed/${encodeURIComponent(citySlug)}/${encodeURIComponent(venueSlug)}${qs ? `?${qs}` : ''}`;
}

export function EmbedSnippet({ venue, places }: EmbedSnippetProps) {
  const cities = [...new Map(places.map((p) => [p.citySlug, p.city])).entries()];
  const [city, setCity] = useState(cities[0]?.[0] ?? '');
  const [dark, setDark] = useState(false);
  const [compact, setCompact] = useState(false);
  const id = useId();
  if (!city) return null;
  const path = embedPath(city, venue.slug, { dark, compact });
  const height = compact ? 300 : 420;
  const snippet = `<iframe src="${attr(window.location.origin + path)}" title="${attr(`Quiz på ${venue.name}`)}" width="100%" height="${height}" style="border:0;max-width:480px" loading="lazy"></iframe>`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      toast({ title: 'Koden kopierad', variant: 'success', duration: 3000 });
    } catch {
      toast({ title: 'Kunde inte kopiera – markera koden och kopiera den själv', variant: 'destructive' });
    }
  };
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div>
        <h2 id={`${id}-h`} className="text-xl font-bold">
          Visa era quiz på er egen webbplats
        </h2>
        <p className="mt-1 text-slate-700">Klistra in koden på er hemsida: de fem närmaste quizen visas och uppdateras av sig själva.</p>
        {!venue.isPublic && (
          <p className="mt-2 rounded-xl bg-amber-50 px-3 py-2 text-amber-900">Verksamheten är inte publik just nu – widgeten visas först när den är det.</p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-4 text-sm">
        {cities.length > 1 && (
          <label className="flex items-center gap-2 font-semibold">
            Stad
            <select value={city} onChange={(e) => setCity(e.target.value)} className="rounded-lg border border-slate-300 px-2 py-1">
              {cities.map(([slug, name]) => (
                <option key={slug} value={slug}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={dark} onChange={(e) => setDark(e.target.checked)} /> Mörkt tema
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={compact} onChange={(e) => setCompact(e.target.checked)} /> Kompakt
        </label>
      </div>
      <div className="space-y-2">
        <label htmlFor={`${id}-code`} className="block text-sm font-semibold">
          Kod att klistra in
        </label>
        <textarea
          id={`${id}-code`}
          readOnly
          rows={3}
          value={snippet}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full rounded-xl border border-slate-300 p-2 font-mono text-xs"
        />
        <button type="button" onClick={copy} className={buttonClass('secondary')}>
          Kopiera koden
        </button>
      </div>
      <div className="space-y-2">
        <p className="text-sm font-semibold">Förhandsvisning</p>
        <iframe
          src={path}
          title={`Förhandsvisning: quiz på ${venue.name}`}
          width="100%"
          height={height}
          className="max-w-[480px] rounded-xl border border-slate-200"
          loading="lazy"
        />
      </div>
    </section>
  );
}
