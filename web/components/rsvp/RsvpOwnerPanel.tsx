import { useState, type FormEvent } from 'react';
import type { OwnerQuiz } from '../../../worker/features/quizzes/contract';
import type { OwnerRsvpRow } from '../../../worker/features/rsvp/contract';
import { tablesText, teamsText } from '../../../worker/lib/rsvp-words';
import { rsvpApi, useOwnerRsvp, useRsvpCapacity, useRsvpSettings } from '../../api/rsvp';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';

const INPUT = 'mt-1 w-full rounded-lg border border-slate-300 px-3 py-2';
const STATE_WORDS: Record<OwnerRsvpRow['state'], string> = {
  pending: 'Väntar på bekräftelse',
  confirmed: 'Kommer',
  queued: 'I kö',
  offered: 'Erbjudet bord',
  cancelled: 'Avbokat',
};

function Rows({ rows, empty }: { rows: OwnerRsvpRow[]; empty: string }) {
  if (!rows.length) return <p className="text-sm text-slate-600">{empty}</p>;
  return (
    <ol className="list-decimal space-y-1 pl-5 text-sm">
      {rows.map((r) => (
        <li key={r.id}>
          {r.teamSize} personer · {STATE_WORDS[r.state]}
          {r.email ? ` · ${r.email}` : ''}
        </li>
      ))}
    </ol>
  );
}

/**
 * "Vi kommer" for the owner on one date (issue 47): expected teams and seats, tables left, the queue in order, the
 * cancellations (team sizes; addresses only of live teams), the CSV, the date's tables, and the series' RSVP switch
 * and external booking ("Boka bord hos stället").
 */
export function RsvpOwnerPanel({ quiz }: { quiz: OwnerQuiz }) {
  const view = useOwnerRsvp(quiz.id);
  const capacity = useRsvpCapacity();
  const settings = useRsvpSettings();
  const [tables, setTables] = useState<string | null>(null);
  const [booking, setBooking] = useState<{ rsvpOff: boolean; bookingUrl: string; bookingPhone: string } | null>(null);
  if (view.isPending) return <p className="mt-6 text-sm text-slate-600">Laddar anmälningar...</p>;
  if (view.isError) return <p className="mt-6 text-sm text-red-700">Anmälningarna kunde inte hämtas.</p>;
  const v = view.data;
  const tablesValue = tables ?? (v.capacityTables === null ? '' : String(v.capacityTables));
  const b = booking ?? { rsvpOff: v.settings.rsvpOff, bookingUrl: v.settings.bookingUrl ?? '', bookingPhone: v.settings.bookingPhone ?? '' };

  async function saveTables(e: FormEvent) {
    e.preventDefault();
    const n = tablesValue.trim() === '' ? null : Number(tablesValue);
    try {
      await capacity.mutateAsync({ quiz, capacityTables: n });
      setTables(null);
      toast({ title: n === null ? 'Ingen gräns för antal bord' : `${n} bord sparat`, variant: 'success' });
    } catch (err) {
      toast({ title: 'Kunde inte spara antal bord', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }
  async function saveSettings(e: FormEvent) {
    e.preventDefault();
    try {
      await settings.mutateAsync({ quizId: quiz.id, body: { rsvpOff: b.rsvpOff, bookingUrl: b.bookingUrl || null, bookingPhone: b.bookingPhone || null } });
      setBooking(null);
      toast({ title: 'Anmälan sparad för serien', variant: 'success' });
    } catch (err) {
      toast({ title: 'Kunde inte spara', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }

  return (
    <section aria-labelledby="rsvp-owner-h" className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="rsvp-owner-h" className="text-xl font-bold">
        Vi kommer
      </h2>
      <p className="font-semibold" data-testid="rsvp-owner-figures">
        {teamsText(v.teams)} · {v.seats} personer{tablesText(v.tablesLeft) ? ` · ${tablesText(v.tablesLeft)}` : ''}
        {v.waitlist ? ` · ${v.waitlist} i kö` : ''}
      </p>
      <div>
        <h3 className="font-semibold">Kommer</h3>
        <Rows rows={v.confirmed} empty="Inga lag har anmält sig än." />
      </div>
      <div>
        <h3 className="font-semibold">Kö</h3>
        <Rows rows={v.queue} empty="Ingen kö." />
      </div>
      <div>
        <h3 className="font-semibold">Avbokat</h3>
        <Rows rows={v.cancelled} empty="Inga avbokningar." />
      </div>
      <p>
        <a href={rsvpApi.csvPath(quiz.id)} className="font-semibold text-brand-700 underline" download>
          Ladda ner som CSV
        </a>
      </p>
      <form onSubmit={saveTables} className="flex flex-wrap items-end gap-2" noValidate>
        <label className="text-sm font-semibold">
          Antal bord detta datum (tomt = ingen gräns)
          <input inputMode="numeric" value={tablesValue} onChange={(e) => setTables(e.target.value)} className={INPUT} />
        </label>
        <Button type="submit" disabled={capacity.isPending}>
          Spara antal bord
        </Button>
      </form>
      <form onSubmit={saveSettings} className="space-y-2" noValidate>
        <label className="flex items-center gap-2 text-sm font-semibold">
          <input type="checkbox" checked={b.rsvpOff} onChange={(e) => setBooking({ ...b, rsvpOff: e.target.checked })} />
          Stäng av anmälan för serien
        </label>
        <label className="block text-sm font-semibold">
          Boka bord hos stället: länk (https://)
          <input type="url" value={b.bookingUrl} onChange={(e) => setBooking({ ...b, bookingUrl: e.target.value })} className={INPUT} />
        </label>
        <label className="block text-sm font-semibold">
          Boka bord hos stället: telefon
          <input type="tel" value={b.bookingPhone} onChange={(e) => setBooking({ ...b, bookingPhone: e.target.value })} className={INPUT} />
        </label>
        <Button type="submit" variant="secondary" disabled={settings.isPending}>
          Spara anmälan
        </Button>
      </form>
    </section>
  );
}
