/**
 * The owner's dashboard offer (issue 48): free-text quizmasters on their quizzes that equal an existing profile's
 * name (case and spaces aside). Each is linked only when the owner says "Ja, koppla"; nothing is merged otherwise.
 */
import { useLinkQuizmaster, useQuizmasterSuggestions } from '../../api/quizmasters';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';

export function QuizmasterSuggestions() {
  const query = useQuizmasterSuggestions();
  const link = useLinkQuizmaster();
  const items = query.data ?? [];
  if (!items.length) return null;
  return (
    <section aria-labelledby="qm-suggestions" className="space-y-3 rounded-2xl border border-brand-200 bg-brand-50 p-5">
      <h2 id="qm-suggestions" className="text-lg font-bold">
        Quizmasterprofiler att koppla
      </h2>
      <p className="text-sm text-slate-700">Quizmastern du skrivit finns som profil. Koppla den så länkas profilen från quizet och kan följas.</p>
      <ul className="space-y-2">
        {items.map((s) => (
          <li key={`${s.quizId}-${s.profile.id}`} className="flex flex-wrap items-center justify-between gap-2">
            <span>
              ”{s.text}” →{' '}
              <a className="font-semibold text-brand-700 underline" href={`/quizmaster/${s.profile.slug}`}>
                {s.profile.name}
              </a>
            </span>
            <Button
              variant="secondary"
              disabled={link.isPending}
              onClick={() =>
                void link
                  .mutateAsync({ id: s.quizId, quizmasterId: s.profile.id })
                  .then(() => toast({ title: `${s.profile.name} är kopplad`, variant: 'success' }))
                  .catch((err: unknown) =>
                    toast({ title: 'Kunde inte koppla', description: err instanceof Error ? err.message : undefined, variant: 'destructive' }),
                  )
              }
            >
              Ja, koppla
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
