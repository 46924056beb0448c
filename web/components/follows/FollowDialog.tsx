import { useState, type FormEvent } from 'react';
import { FollowEmailSchema, SavedSearchSchema } from '../../../worker/features/follows/contract';
import type { FollowView } from '../../../worker/features/follows/contract';
import { api, ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Dialog } from '../ui/Dialog';
import { FOLLOWS_PATH, type FollowTarget } from './target';

/** PUSH_TEXTS.unsupported of web/pwa/push.ts (that module is a lazy chunk of its own; web/pwa/saved.test.ts keeps them equal). */
export const UNSUPPORTED = 'Din webbläsare kan inte visa påminnelser.';
/** A failure that is neither the browser's nor an answer of ours: the code or the network did not arrive. */
const NOT_LOADED = 'Kunde inte nå Quizkväll. Kontrollera anslutningen och försök igen.';

/** Follow dialog (lazy chunk): one click when signed in, e-mail + double opt-in otherwise. */
export default function FollowDialog({ target, onClose }: { target: FollowTarget; onClose: () => void }) {
  const session = useSession();
  const signedIn = session.status === 'ready' && !!session.session.user;
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  /** The new follow (a place or a search), for "Påminn mig i telefonen" (issue 32; signed-in follows are confirmed at once). */
  const [pushFollow, setPushFollow] = useState<FollowView | null>(null);
  const [pushNote, setPushNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isSearch = 'filters' in target;
  const person = 'filters' in target && !!target.person;
  const title = isSearch && !person ? 'Bevaka sökningen' : `Följ ${target.label}`;
  const what = person ? `quiz med ${target.label}` : isSearch ? `quiz som matchar ${target.label}` : `quiz på ${target.label}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const body: Record<string, unknown> = {};
    if ('placeId' in target) body.placeId = target.placeId;
    else {
      // The same contract as the server: a search with nothing to follow, or a filter value it does not know, stops here.
      const filters = SavedSearchSchema.safeParse(target.filters);
      if (!filters.success) {
        setError(filters.error.issues[0]?.message ?? 'Ogiltig sökning');
        return;
      }
      body.filters = target.filters;
    }
    if (!signedIn) {
      const parsed = FollowEmailSchema.safeParse(email);
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? 'Ogiltig e-postadress');
        return;
      }
      body.email = parsed.data;
    }
    setBusy(true);
    try {
      const res = await api<{ message?: string; follow?: FollowView }>('/api/follows', { body });
      setDone(res.follow ? `Klart! Du bevakar nu ${res.follow.label}.` : (res.message ?? 'Kolla din e-post.'));
      if (res.follow) {
        setPushFollow(res.follow);
        // A browser without push hears so in the button's place (issue 44.2), not silence.
        if (!('PushManager' in window && 'serviceWorker' in navigator && 'Notification' in window)) setPushNote(UNSUPPORTED);
      }
    } catch (err) {
      setError(err instanceof ApiError ? err.message : NOT_LOADED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} title={title} description={`Få ett mejl på morgonen när det är quiz och en sammanfattning varje måndag om ${what}.`}>
      {done ? (
        <div className="space-y-4">
          <p role="status" className="rounded-xl bg-green-50 px-3 py-2 text-green-900">
            {done}
          </p>
          {pushFollow && (
            <p className="text-slate-700">
              Du hittar dina bevakningar och påminnelser under{' '}
              <a href={FOLLOWS_PATH} className="font-semibold text-brand-700 underline">
                Mina bevakningar
              </a>
              .
            </p>
          )}
          {/* The push button and what it answered share one place (min-h-11), so nothing below moves. */}
          {pushFollow && (
            <div className="flex min-h-11 items-center">
              {pushNote ? (
                <p role="status" className="text-sm text-slate-700">
                  {pushNote}
                </p>
              ) : (
                <button
                  type="button"
                  onClick={() => {
                    // A lazy chunk (not in the public pages' first load); the permission is asked only now, after the tap.
                    void import('../../pwa/push')
                      .then(async (m) => setPushNote(m.pushResultText(await m.enablePush(pushFollow.id), pushFollow.kind)))
                      .catch((err: unknown) => setPushNote(err instanceof ApiError ? err.message : NOT_LOADED));
                  }}
                  className="rounded-xl border border-slate-300 px-4 py-2 font-semibold"
                >
                  Påminn mig i telefonen
                </button>
              )}
            </div>
          )}
          <button type="button" onClick={onClose} className="rounded-xl bg-brand-700 px-4 py-2 font-semibold text-white">
            Stäng
          </button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          {!signedIn && (
            <div className="space-y-1">
              <label htmlFor="follow-email" className="block font-semibold">
                E-post
              </label>
              <input
                id="follow-email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                aria-invalid={!!error}
                aria-describedby={error ? 'follow-error' : undefined}
                className="w-full rounded-xl border border-slate-300 px-3 py-2"
              />
              <p className="text-sm text-slate-600">Vi skickar en länk för att bekräfta. Varje mejl har en länk för att sluta.</p>
            </div>
          )}
          {error && (
            <p id="follow-error" role="alert" className="text-sm font-semibold text-red-700">
              {error}
            </p>
          )}
          <div className="flex gap-3">
            <button type="submit" disabled={busy} className="rounded-xl bg-brand-700 px-4 py-2 font-semibold text-white disabled:opacity-60">
              {busy ? 'Skickar...' : isSearch ? 'Bevaka' : 'Följ'}
            </button>
            <button type="button" onClick={onClose} className="rounded-xl border border-slate-300 px-4 py-2 font-semibold">
              Avbryt
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
