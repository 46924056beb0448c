import type { AdminFeedback } from '../../../worker/features/admin/contract';
import { INBOX_CATEGORY_LABELS } from '../../../worker/features/feedback/contract';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { toast } from '../ui/Toast';
import { useFeedback, useSetFeedbackHandled } from '../../api/admin';
import { countText } from '../../../worker/lib/swedish';

const dateFormat = new Intl.DateTimeFormat('sv-SE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Stockholm' });

/** Feedback from the public form, newest first, with a 'handled' toggle. */
export function FeedbackInbox() {
  const inbox = useFeedback();
  const handled = useSetFeedbackHandled();
  const busyId = handled.isPending ? (handled.variables?.id ?? null) : null;
  const pages = inbox.data?.pages;
  const items = pages?.flatMap((p) => p.items).filter((f, i, all) => all.findIndex((o) => o.id === f.id) === i);
  const last = pages?.at(-1);
  const total = last?.total ?? 0;
  const open = last?.open ?? 0;
  const failed = inbox.isError && !inbox.data;

  async function toggle(item: AdminFeedback) {
    try {
      await handled.mutateAsync({ id: item.id, handled: !item.handledAt });
    } catch {
      toast({ title: 'Kunde inte uppdatera feedbacken. Försök igen.', variant: 'destructive' });
    }
  }

  return (
    <section aria-labelledby="feedback-heading" className="space-y-4">
      <h2 id="feedback-heading" className="text-2xl font-bold">
        Feedback
      </h2>
      {failed && (
        <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950">
          <p className="font-semibold">Kunde inte hämta feedback</p>
          <Button variant="secondary" className="mt-3" onClick={() => void inbox.refetch()}>
            Försök igen
          </Button>
        </div>
      )}
      {!items && !failed && <Spinner label="Hämtar feedback..." />}
      {items && (
        <>
          <p className="text-sm text-slate-700">
            {countText(total, 'meddelande', 'meddelanden')}, {open} ohanterade
          </p>
          {items.length === 0 ? (
            <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">Ingen feedback ännu.</p>
          ) : (
            <ul className="space-y-3">
              {items.map((f) => (
                <li key={f.id} className={`rounded-2xl border p-4 ${f.handledAt ? 'border-slate-200 bg-slate-50' : 'border-brand-200 bg-white'}`}>
                  <article aria-label={f.title}>
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <div>
                        <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">
                          {INBOX_CATEGORY_LABELS[f.category] ?? f.category} · <time dateTime={f.createdAt}>{dateFormat.format(new Date(f.createdAt))}</time>
                        </p>
                        <h3 className="text-lg font-bold">{f.title}</h3>
                      </div>
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${f.handledAt ? 'bg-emerald-100 text-emerald-900' : 'bg-amber-100 text-amber-900'}`}
                      >
                        {f.handledAt ? 'Hanterad' : 'Ohanterad'}
                      </span>
                    </div>
                    <p className="mt-2 whitespace-pre-wrap text-slate-800">{f.description}</p>
                    <p className="mt-2 text-sm text-slate-600">Avsändare: {f.senderEmail ?? 'Anonym'}</p>
                    <Button variant="secondary" className="mt-3 text-sm" disabled={busyId === f.id} onClick={() => void toggle(f)}>
                      {f.handledAt ? 'Markera som ohanterad' : 'Markera som hanterad'}
                    </Button>
                  </article>
                </li>
              ))}
            </ul>
          )}
          {items.length < total && (
            <div className="flex justify-center">
              <Button variant="secondary" onClick={() => void inbox.fetchNextPage()}>
                Ladda fler
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
