import { useCallback, useEffect, useRef, useState } from 'react';
import type { FollowView } from '../../../worker/features/follows/contract';
import { api, ApiError } from '../../lib/api';
import { disablePush, enablePush, PUSH_TEXTS, pushResultText, pushSupported } from '../../pwa/push';
import { saveFollows } from '../../pwa/saved';

/**
 * "Mina bevakningar" under /account (`#bevakningar`, the header's "Konto" menu and the follow dialog link here,
 * issue 44.2): the signed-in user's follows (pause reminders, remove, push). A browser that cannot take push says
 * so in the push button's place.
 */
/** The list's anchor on /account. */
const FOLLOWS_ID = 'bevakningar';

export function FollowsList() {
  const [follows, setFollows] = useState<FollowView[] | null>(null);
  /** Follows whose push button answered that this browser cannot take push (or all, when it has no push API). */
  const [noPush, setNoPush] = useState(() => !pushSupported());
  const section = useRef<HTMLElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  /** Follows that remind by push (issue 32). */
  const [pushed, setPushed] = useState<Set<string>>(new Set());
  const load = useCallback(async () => {
    try {
      const list = (await api<{ follows: FollowView[] }>('/api/follows')).follows;
      const pushedIds = new Set((await api<{ followIds: string[] }>('/api/follows/push')).followIds);
      setFollows(list);
      setPushed(pushedIds);
      // Kept in this browser for offline use (issue 32; localStorage under qk_, cleared on logout).
      saveFollows(list, pushedIds);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Kunde inte hämta bevakningarna.');
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  // Reached by /account#bevakningar: the list loads after the page, so the browser's own jump found nothing yet.
  const loaded = follows !== null;
  useEffect(() => {
    if (loaded && window.location.hash === `#${FOLLOWS_ID}`) section.current?.scrollIntoView({ block: 'start' });
  }, [loaded]);

  async function act(f: FollowView, kind: 'toggle' | 'results' | 'remove' | 'push-on' | 'push-off') {
    setError(null);
    setNote(null);
    try {
      if (kind === 'push-on') {
        // The permission is asked here, after the tap, never before.
        const r = await enablePush(f.id);
        if (r === 'unsupported') {
          setNoPush(true);
          return;
        }
        setNote(pushResultText(r, f.kind));
        if (r !== 'on') return;
      } else if (kind === 'push-off') await disablePush(f.id);
      else if (kind === 'remove') await api(`/api/follows/${encodeURIComponent(f.id)}`, { method: 'DELETE' });
      else if (kind === 'results') await api(`/api/follows/${encodeURIComponent(f.id)}`, { method: 'PATCH', body: { results: !f.results } });
      else await api(`/api/follows/${encodeURIComponent(f.id)}`, { method: 'PATCH', body: { reminders: !f.reminders } });
      await load();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Kunde inte nå Quizkväll. Kontrollera anslutningen och försök igen.');
    }
  }

  return (
    <section ref={section} id={FOLLOWS_ID} aria-labelledby="follows-heading" className="scroll-mt-4 space-y-3 rounded-2xl border border-slate-200 bg-white p-5">
      <h2 id="follows-heading" className="text-lg font-bold">
        Mina bevakningar
      </h2>
      {error && (
        <p role="alert" className="text-sm font-semibold text-red-700">
          {error}
        </p>
      )}
      {note && (
        <p role="status" className="text-sm text-slate-700">
          {note}
        </p>
      )}
      {follows === null && !error && <p className="text-slate-600">Laddar...</p>}
      {follows?.length === 0 && (
        <p className="text-slate-600">Du bevakar ingenting ännu. Tryck på "Följ" på ett ställe eller "Bevaka den här sökningen" i listan.</p>
      )}
      {follows && follows.length > 0 && (
        <ul className="divide-y divide-slate-200">
          {follows.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                {f.url ? (
                  <a href={f.url} className="text-brand-700 underline">
                    {f.label}
                  </a>
                ) : (
                  f.label
                )}
              </span>
              <span className="flex flex-wrap gap-2">
                {f.kind === 'place' && (
                  <button type="button" onClick={() => void act(f, 'toggle')} className="rounded-lg border border-slate-300 px-3 py-1 text-sm font-semibold">
                    {f.reminders ? 'Pausa påminnelser' : 'Återuppta påminnelser'}
                  </button>
                )}
                {/* Issue 46: the night's winners as a push when the place posts its results. */}
                {f.kind === 'place' && (
                  <button
                    type="button"
                    aria-pressed={f.results}
                    onClick={() => void act(f, 'results')}
                    className="rounded-lg border border-slate-300 px-3 py-1 text-sm font-semibold"
                  >
                    Veckans resultat: {f.results ? 'på' : 'av'}
                  </button>
                )}
                {/* Both kinds push: a place on its quiz days and with new quizzes, a search with new quizzes (issue 32). */}
                {noPush && !pushed.has(f.id) ? (
                  <span className="self-center text-sm text-slate-600">{PUSH_TEXTS.unsupported}</span>
                ) : (
                  <button
                    type="button"
                    onClick={() => void act(f, pushed.has(f.id) ? 'push-off' : 'push-on')}
                    className="rounded-lg border border-slate-300 px-3 py-1 text-sm font-semibold"
                    aria-label={`${pushed.has(f.id) ? PUSH_TEXTS.disable : PUSH_TEXTS.enable}: ${f.label}`}
                  >
                    {pushed.has(f.id) ? PUSH_TEXTS.disable : PUSH_TEXTS.enable}
                  </button>
                )}
                <button
                  type="button"
                  onClick={() => void act(f, 'remove')}
                  className="rounded-lg border border-red-300 px-3 py-1 text-sm font-semibold text-red-800"
                  aria-label={`Ta bort bevakningen ${f.label}`}
                >
                  Ta bort
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
