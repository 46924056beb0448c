/**
 * The owner's quizmaster section of the quiz and series forms (issue 48): the linked profile, a typeahead over
 * existing profiles ("Skapa profil" when none fits), the free-text quizmaster offered as a profile to accept
 * (exact match after normalising case and spaces; nothing is linked without "Ja, koppla"), and the invitation by
 * e-mail with which the quizmaster claims the profile. `id`: the quiz's id or the series' id.
 */
import { useState, type FormEvent } from 'react';
import { nameKeyOf } from '../../../worker/features/quizmasters/contract';
import {
  useCreateQuizmaster,
  useInviteQuizmaster,
  useLinkQuizmaster,
  useQuizmasterSearch,
  useQuizQuizmaster,
  useRemoveAssignment,
  type QuizmasterSummary,
} from '../../api/quizmasters';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { toast } from '../ui/Toast';

const fail = (title: string, err: unknown) => toast({ title, description: err instanceof Error ? err.message : undefined, variant: 'destructive' });

export function QuizmasterPanel({ id, freeText, series }: { id: string; freeText: string | null; series: boolean }) {
  const current = useQuizQuizmaster(id);
  const link = useLinkQuizmaster();
  const create = useCreateQuizmaster();
  const invite = useInviteQuizmaster();
  const removeAssignment = useRemoveAssignment();
  const [typed, setTyped] = useState('');
  const [email, setEmail] = useState('');
  const search = useQuizmasterSearch(typed);
  const offer = useQuizmasterSearch(freeText ?? '');
  const linked = current.data?.quizmaster ?? null;
  const exact = !linked && freeText ? offer.data?.find((p) => p.name && nameKeyOf(p.name) === nameKeyOf(freeText)) : undefined;

  async function choose(p: QuizmasterSummary | null) {
    try {
      await link.mutateAsync({ id, quizmasterId: p?.id ?? null });
      setTyped('');
      toast({ title: p ? `${p.name} är kopplad` : 'Quizmastern är bortkopplad', variant: 'success' });
    } catch (err) {
      fail('Kunde inte koppla quizmastern', err);
    }
  }

  async function createAndChoose() {
    try {
      const p = await create.mutateAsync({ name: typed.trim() });
      await choose(p);
    } catch (err) {
      fail('Kunde inte skapa profilen', err);
    }
  }

  async function sendInvite(e: FormEvent) {
    e.preventDefault();
    try {
      const r = await invite.mutateAsync({ id, email });
      setEmail('');
      toast({ title: r.assigned ? 'Quizmastern har fått behörighet' : 'Inbjudan är skickad', variant: 'success' });
    } catch (err) {
      fail('Kunde inte skicka inbjudan', err);
    }
  }

  return (
    <section aria-labelledby="qm-heading" className="mt-6 space-y-3 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="qm-heading" className="text-xl font-bold">
        Quizmasterprofil
      </h2>
      {linked ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p>
            <a className="font-semibold text-brand-700 underline" href={`/quizmaster/${linked.slug}`}>
              {linked.name}
            </a>{' '}
            leder {series ? 'serien' : 'quizet'}.
          </p>
          <Button variant="ghost" disabled={link.isPending} onClick={() => void choose(null)}>
            Koppla bort
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-700">Koppla en profil så länkas quizmastern från kort, quizsidor och stället, och kan följas.</p>
      )}
      {exact && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-brand-50 p-3">
          <p>
            Det finns en profil som heter <strong>{exact.name}</strong>, samma som quizmastern du skrivit. Är det samma person?
          </p>
          <Button disabled={link.isPending} onClick={() => void choose(exact)}>
            Ja, koppla
          </Button>
        </div>
      )}
      <TextField
        label={linked ? 'Byt quizmaster' : 'Sök quizmaster'}
        value={typed}
        autoComplete="off"
        onChange={(e) => setTyped(e.target.value)}
        hint="Skriv minst två bokstäver"
      />
      {typed.trim().length >= 2 && (
        <ul className="space-y-1" aria-label="Förslag">
          {(search.data ?? []).map((p) => (
            <li key={p.id}>
              <button type="button" className="w-full rounded-lg px-3 py-2 text-left hover:bg-slate-100" onClick={() => void choose(p)}>
                {p.name} <span className="text-sm text-slate-600">/quizmaster/{p.slug}</span>
              </button>
            </li>
          ))}
          <li>
            <Button variant="secondary" disabled={create.isPending} onClick={() => void createAndChoose()}>
              Skapa profil ”{typed.trim()}”
            </Button>
          </li>
        </ul>
      )}
      {linked && (
        <form onSubmit={sendInvite} noValidate className="space-y-2 border-t border-slate-200 pt-3">
          <TextField
            label="Bjud in quizmastern via e-post"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            hint="Quizmastern kan då skriva sin presentation, lägga upp en bild och lägga in resultat för det här quizet."
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={invite.isPending || !email}>
              Skicka inbjudan
            </Button>
            {current.data?.assigned && (
              <Button
                variant="ghost"
                disabled={removeAssignment.isPending}
                onClick={() => void removeAssignment.mutateAsync(id).catch((err) => fail('Kunde inte ta bort behörigheten', err))}
              >
                Ta bort quizmasterns behörighet
              </Button>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
