import { useEffect, useId, useState, type FormEvent } from 'react';
import type { RsvpCountsResponse } from '../../../worker/features/rsvp/contract';
import { rsvpButtonText, tablesText, teamsText } from '../../../worker/lib/rsvp-words';
import { api, ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';

const SIZES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
const INPUT = 'rounded-lg border border-slate-300 px-3 py-2 text-base';
const BUTTON =
  'inline-flex min-h-11 items-center rounded-full bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 disabled:opacity-60';

/**
 * "Vi kommer" (issue 47) in the quiz detail dialog (listing cards, venue page, combined page): the fresh figures from
 * the uncached GET /api/quizzes/:id/rsvp (the pages themselves stay edge-cached; decision 0019), and the RSVP form: a team size and, signed out, an e-mail for the double opt-in; signed in, one click. Zod-free: the public
 * bundle carries it; the Worker validates.
 */
export function RsvpPanel({ quizId, cancelled }: { quizId: string; cancelled: boolean }) {
  const session = useSession();
  const signedIn = session.status === 'ready' && !!session.session.user;
  const [counts, setCounts] = useState<RsvpCountsResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const [teamSize, setTeamSize] = useState(4);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const id = useId();

  const countsPath = `/api/quizzes/${encodeURIComponent(quizId)}/rsvp`;
  useEffect(() => {
    const ctl = new AbortController();
    setCounts(null);
    setFailed(false);
    setDone(null);
    setError(null);
    api<RsvpCountsResponse>(countsPath, { signal: ctl.signal }).then(setCounts, (err: Error) => {
      if (err.name !== 'AbortError') setFailed(true);
    });
    return () => ctl.abort();
  }, [countsPath]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!signedIn && !email.trim()) {
      setError('E-post: E-postadress krävs');
      return;
    }
    setBusy(true);
    try {
      const body = signedIn ? { teamSize } : { teamSize, email: email.trim() };
      const out = await api<{ state?: string; message?: string }>(`/api/quizzes/${encodeURIComponent(quizId)}/rsvp`, { body });
      setDone(
        out.message ??
          (out.state === 'queued' ? 'Det är fullt just nu: ert lag står i kö. Blir ett bord ledigt får du ett mejl.' : 'Klart! Ert lag är anmält.'),
      );
      setCounts(await api<RsvpCountsResponse>(countsPath));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Kunde inte nå Quizkväll. Försök igen.');
    } finally {
      setBusy(false);
    }
  }

  const tables = counts ? tablesText(counts.tablesLeft) : null;
  return (
    <section aria-labelledby={`${id}-h`} className="rounded-xl border border-slate-200 px-3 py-3">
      <h3 id={`${id}-h`} className="font-bold">
        Vi kommer
      </h3>
      {failed && <p className="text-sm text-slate-600">Antalet lag kunde inte hämtas just nu.</p>}
      {counts && (
        <p className="mt-1 text-sm font-semibold" data-testid="rsvp-figures">
          {teamsText(counts.teams)}
          {tables ? ` · ${tables}` : ''}
          {counts.waitlist > 0 ? ` · ${counts.waitlist} i kö` : ''}
        </p>
      )}
      {counts?.mode === 'external' && (
        <p className="mt-2 text-sm">
          Boka bord hos stället:{' '}
          {counts.bookingUrl && (
            <a href={counts.bookingUrl} target="_blank" rel="noopener noreferrer" className="font-semibold text-brand-700 underline">
              Boka bord
            </a>
          )}
          {counts.bookingUrl && counts.bookingPhone ? ' eller ' : ''}
          {counts.bookingPhone && (
            <a href={`tel:${counts.bookingPhone.replace(/[^+0-9]/g, '')}`} className="font-semibold text-brand-700 underline">
              {counts.bookingPhone}
            </a>
          )}
        </p>
      )}
      {counts?.mode === 'rsvp' && !cancelled && !done && (
        <form onSubmit={submit} className="mt-2 flex flex-wrap items-end gap-2" noValidate>
          <label className="flex flex-col text-sm font-semibold">
            Lagstorlek
            <select value={teamSize} onChange={(e) => setTeamSize(Number(e.target.value))} className={INPUT}>
              {SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          {!signedIn && (
            <label className="flex min-w-0 flex-1 flex-col text-sm font-semibold">
              E-post
              <input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} className={INPUT} />
            </label>
          )}
          <button type="submit" disabled={busy} className={BUTTON}>
            {rsvpButtonText(counts.full)}
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm font-semibold text-red-700">
          {error}
        </p>
      )}
      {done && (
        <p role="status" className="mt-2 text-sm font-semibold text-emerald-800">
          {done}
        </p>
      )}
    </section>
  );
}
