/**
 * The collapsible list of a place's upcoming quizzes inside the owner's place card (spec 02 §2.2):
 * single quizzes with Promote/Edit/Delete, series grouped by recurrence id with 'show all
 * occurrences', edit series, pause and delete series (with count). Each series and quiz has its one
 * 'Marknadsför' at its head (issue 44.1), opening the purchase panel or dialog at once. Rendered by the venues work's
 * PlaceCard; props are the contract.
 */
import { ChevronDown, ChevronUp } from '../ui/icons';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { PATTERN_LABELS } from '../../../worker/features/quizzes/contract';
import { categoryBadge, categoryLabel, displayDate, displayPrice, displayTime } from '../../../worker/lib/swedish';
import { QUIZ_LANGUAGE_BADGES, type QuizLanguage } from '../../../worker/lib/quiz-filters';
import { useDeleteQuiz, useDeleteSeries, usePlaceQuizzes, useSetCancelled, type OwnerQuiz, type PlaceSeriesGroup } from '../../api/quizzes';
import PromoteQuizButton from '../promotion/PromoteQuizButton';
import { PromoteSeriesButton } from '../promotion/PromoteSeriesButton';
import { Button, buttonClass } from '../ui/Button';
import { toast } from '../ui/Toast';
import { ApiError } from '../../lib/api';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { MissingFacts } from './MissingFacts';
import { PauseSeriesDialog } from './PauseSeriesDialog';

/** A 409 says why (an open checkout or a paid promotion that has not run yet, issue 13.2); else a generic text. */
const deleteRefusal = (err: unknown) => (err instanceof ApiError && err.status === 409 ? err.message : 'Kunde inte ta bort quiz');

interface PlaceQuizListProps {
  locationId: string;
  venueId: string;
  city: string;
}

export default function PlaceQuizList({ locationId, venueId, city }: PlaceQuizListProps) {
  const query = usePlaceQuizzes(locationId);
  const [open, setOpen] = useState(true);
  const panelId = useId();
  // One short line, not the page-sized Spinner (~170 px): the card's buttons below it (calendar sync) stay where they
  // are when the list arrives, so a tap at that moment lands on what the owner aimed at.
  if (query.isPending)
    return (
      <p role="status" className="mt-5 border-t border-slate-200 pt-4 text-sm text-slate-700">
        Laddar quiz...
      </p>
    );
  if (query.isError)
    return (
      <p role="alert" className="mt-4 text-sm text-red-700">
        Kunde inte hämta quiz.{' '}
        <button type="button" className="underline" onClick={() => void query.refetch()}>
          Försök igen
        </button>
      </p>
    );
  const { singles, series } = query.data;
  const upcoming = singles.length + series.reduce((n, s) => n + s.occurrences.length, 0);
  return (
    <section className="mt-5 border-t border-slate-200 pt-4" aria-label="Kommande quiz">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between text-left font-semibold"
      >
        <span>Kommande quiz ({upcoming})</span>
        {open ? <ChevronUp aria-hidden="true" className="size-5" /> : <ChevronDown aria-hidden="true" className="size-5" />}
      </button>
      <div id={panelId} hidden={!open} className="mt-3 space-y-3">
        {upcoming === 0 && <p className="text-sm text-slate-600">Inga kommande quiz på den här platsen ännu.</p>}
        {series.map((s) => (
          <SeriesItem key={s.recurrenceId} group={s} city={city} venueId={venueId} />
        ))}
        {singles.map((q) => (
          <SingleItem key={q.id} quiz={q} city={city} venueId={venueId} />
        ))}
      </div>
    </section>
  );
}

/** An English or bilingual quiz shows its language here as on its public card (issue 31.3); Swedish, the default, shows none. */
function LanguageBadge({ language }: { language: QuizLanguage }) {
  const text = QUIZ_LANGUAGE_BADGES[language];
  return text ? <span className="rounded-full bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-900">{text}</span> : null;
}

function CancelledBadge() {
  return <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-bold text-red-800">Inställt</span>;
}

function useQuizActions() {
  const cancel = useSetCancelled();
  const remove = useDeleteQuiz();
  return {
    busy: cancel.isPending || remove.isPending,
    async toggleCancelled(q: OwnerQuiz) {
      try {
        await cancel.mutateAsync({ id: q.id, cancelled: !q.isCancelled });
        toast({ title: q.isCancelled ? 'Quizet är åter planerat' : 'Quizet är inställt', variant: 'success' });
      } catch (err) {
        toast({ title: 'Ett oväntat fel inträffade', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
      }
    },
    async remove(q: OwnerQuiz) {
      try {
        await remove.mutateAsync(q.id);
        toast({ title: 'Quiz borttaget', variant: 'success' });
      } catch (err) {
        toast({ title: 'Fel', description: deleteRefusal(err), variant: 'destructive' });
      }
    },
  };
}

function SingleItem({ quiz, city, venueId }: { quiz: OwnerQuiz; city: string; venueId: string }) {
  const when = `${displayDate(quiz.date)} kl. ${displayTime(quiz.startTime)}`;
  return (
    <article className="rounded-xl border border-slate-200 p-3" aria-label={`Quiz ${when}`}>
      {/* Issue 44.1: the one promote action sits at the head of every quiz and series, beside its title. */}
      <div className="flex items-start justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          {categoryBadge(quiz.category, quiz.theme) && (
            <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">{categoryBadge(quiz.category, quiz.theme)}</span>
          )}
          <span className="font-semibold">{when}</span>
          <LanguageBadge language={quiz.language} />
          {quiz.isCancelled && <CancelledBadge />}
        </div>
        <span className="shrink-0">
          <PromoteQuizButton
            quiz={{ id: quiz.id, date: quiz.date, startTime: quiz.startTime, category: quiz.category, theme: quiz.theme }}
            city={city}
            venueId={venueId}
            promotion={quiz.promotion}
          />
        </span>
      </div>
      {quiz.description && <p className="mt-1 text-sm text-slate-700">{quiz.description}</p>}
      <p className="mt-1 text-sm text-slate-600">
        {quiz.quizmaster ? `Quizmaster: ${quiz.quizmaster} · ` : ''}
        {displayPrice(quiz.price)}
      </p>
      <MissingFacts price={quiz.price} category={quiz.category} className="mt-1" />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <QuizActions quiz={quiz} srLabel={` quiz ${when}`} variant="secondary" />
      </div>
    </article>
  );
}

function SeriesItem({ group, city, venueId }: { group: PlaceSeriesGroup; city: string; venueId: string }) {
  const [expanded, setExpanded] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [pauseOpen, setPauseOpen] = useState(false);
  const removal = useDeleteSeries();
  const listId = useId();
  const first = group.occurrences[0]!;
  const pattern = group.pattern ? PATTERN_LABELS[group.pattern] : 'Återkommande';
  const label = `${categoryLabel(first.category, first.theme)} · ${pattern}${group.days.length ? ` · ${group.days.join(', ')}` : ''} · kl. ${displayTime(first.startTime)}`;

  async function removeSeries() {
    try {
      const r = await removal.mutateAsync(group.recurrenceId);
      toast({ title: 'Quiz borttaget', description: `${r.deleted} quiz i serien togs bort.`, variant: 'success' });
      setConfirmDelete(false);
    } catch (err) {
      toast({ title: 'Fel', description: deleteRefusal(err), variant: 'destructive' });
    }
  }

  return (
    <article className="rounded-xl border border-brand-200 bg-brand-50/40 p-3" aria-label={`Quizserie ${label}`}>
      <div className="flex items-start justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">Serie</span>
          <span className="font-semibold">{label}</span>
          <LanguageBadge language={first.language} />
        </div>
        <span className="shrink-0">
          <PromoteSeriesButton occurrences={group.occurrences} label={label} city={city} venueId={venueId} />
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Nästa: {displayDate(first.date)} · {group.occurrences.length} kommande
        {group.until ? ` · till och med ${displayDate(group.until)}` : ' · förlängs automatiskt'}
      </p>
      <MissingFacts price={first.price} category={first.category} className="mt-1" />
      {first.quizmaster && <p className="mt-1 text-sm text-slate-600">Quizmaster: {first.quizmaster}</p>}
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="secondary" className="px-3 py-1.5 text-sm" aria-expanded={expanded} aria-controls={listId} onClick={() => setExpanded((e) => !e)}>
          {expanded ? 'Dölj tillfällen' : 'Visa alla tillfällen'}
        </Button>
        <Link to={`/edit-series/${group.recurrenceId}`} className={buttonClass('secondary', 'px-3 py-1.5 text-sm')}>
          Redigera serie
        </Link>
        <Button variant="secondary" className="px-3 py-1.5 text-sm" onClick={() => setPauseOpen(true)}>
          Pausa serie
        </Button>
        <Button variant="ghost" className="px-3 py-1.5 text-sm text-red-700 hover:bg-red-50" onClick={() => setConfirmDelete(true)}>
          Ta bort serie ({group.totalCount})
        </Button>
      </div>
      {expanded && (
        <div id={listId} className="mt-3 space-y-2">
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {group.occurrences.map((q) => (
              <OccurrenceRow key={q.id} quiz={q} />
            ))}
          </ul>
        </div>
      )}
      <ConfirmDialog
        open={confirmDelete}
        title="Ta bort hela serien?"
        description={`Alla ${group.totalCount} quiz i serien tas bort permanent. Detta kan inte ångras.`}
        confirmLabel={`Ta bort ${group.totalCount} quiz`}
        busy={removal.isPending}
        onConfirm={() => void removeSeries()}
        onClose={() => setConfirmDelete(false)}
      />
      <PauseSeriesDialog recurrenceId={group.recurrenceId} open={pauseOpen} onClose={() => setPauseOpen(false)} />
    </article>
  );
}

function OccurrenceRow({ quiz }: { quiz: OwnerQuiz }) {
  const when = `${displayDate(quiz.date)} kl. ${displayTime(quiz.startTime)}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 p-2 text-sm">
      <span className="flex items-center gap-2">
        {when}
        {quiz.isCancelled && <CancelledBadge />}
        {quiz.promotion && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
            {quiz.promotion === 'premium' ? 'Premium Utvald' : 'Rekommenderat'}
          </span>
        )}
      </span>
      <span className="flex flex-wrap gap-1">
        <QuizActions quiz={quiz} srLabel={` ${when}`} variant="ghost" />
      </span>
    </li>
  );
}

/**
 * Edit, cancel/uncancel and delete (with confirmation) for one quiz: a single quiz in its card
 * (`secondary`) or one occurrence row of a series (`ghost`). `srLabel` completes each button's
 * accessible name, e.g. "Ställ in tisdag 24 november kl. 19:00".
 */
function QuizActions({ quiz, srLabel, variant }: { quiz: OwnerQuiz; srLabel: string; variant: 'secondary' | 'ghost' }) {
  const actions = useQuizActions();
  const [confirm, setConfirm] = useState(false);
  const size = variant === 'secondary' ? 'px-3 py-1.5 text-sm' : 'px-2 py-1 text-sm';
  const when = `${displayDate(quiz.date)} kl. ${displayTime(quiz.startTime)}`;
  return (
    <>
      <Link to={`/edit-quiz/${quiz.id}`} className={buttonClass(variant, size)}>
        Redigera<span className="sr-only">{srLabel}</span>
      </Link>
      <Button variant={variant} className={size} disabled={actions.busy} onClick={() => actions.toggleCancelled(quiz)}>
        {quiz.isCancelled ? 'Ångra inställt' : 'Ställ in'}
        <span className="sr-only">{srLabel}</span>
      </Button>
      <Button variant="ghost" className={`${size} text-red-700 hover:bg-red-50`} onClick={() => setConfirm(true)}>
        Ta bort<span className="sr-only">{srLabel}</span>
      </Button>
      <ConfirmDialog
        open={confirm}
        title="Ta bort quiz?"
        description={`Quizet ${when} tas bort permanent. Detta kan inte ångras.`}
        confirmLabel="Ta bort"
        busy={actions.busy}
        onConfirm={() => {
          setConfirm(false);
          void actions.remove(quiz);
        }}
        onClose={() => setConfirm(false)}
      />
    </>
  );
}
