/**
 * /edit-quiz/{quizId} (spec 02 §2.3, §4.4): edit one quiz. For an occurrence of a series the owner
 * first chooses 'Endast detta quiz' or 'Hela serien' (?scope=one skips the question; ?scope=series and
 * 'Hela serien' go to /edit-series/{recurrenceId}). The spec's /edit-quiz/{recurrenceId} redirects there too.
 */
import { QuizmasterPanel } from '../../components/quizmasters/QuizmasterPanel';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import type { EditQuizData, QuizDetailResponse } from '../../../worker/features/quizzes/contract';
import { displayDate } from '../../../worker/lib/swedish';
import { useDeleteQuiz, useEditQuiz, useQuiz, useSeries, useSetCancelled } from '../../api/quizzes';
import { RequireAuth } from '../../components/auth/RequireAuth';
import PromoteQuizButton from '../../components/promotion/PromoteQuizButton';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { backTo, QuizLoadFailed } from '../../components/quizzes/EditScreenStates';
import { editQuizForm, formFromQuiz, QuizDetailFields, RecurrenceFields, RecurringToggle, type QuizFormValues } from '../../components/quizzes/QuizFields';
import { Button, buttonClass } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';
import { setServerErrors } from '../../lib/form';
import { RsvpOwnerPanel } from '../../components/rsvp/RsvpOwnerPanel';

export default function EditQuizPage() {
  return <RequireAuth require="admin">{(user) => <EditQuiz isSuperadmin={user.isSuperadmin} />}</RequireAuth>;
}

function EditQuiz({ isSuperadmin }: { isSuperadmin: boolean }) {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const scope = params.get('scope');
  const quiz = useQuiz(id);
  const notAQuiz = quiz.error instanceof ApiError && quiz.error.status === 404;
  // Not a quiz id: maybe a series (recurrence) id, as the spec's links are.
  const series = useSeries(id, notAQuiz);

  if (notAQuiz) {
    if (series.isPending) return <Spinner label="Laddar quiz..." />;
    if (series.isError) return <QuizLoadFailed error={series.error} />;
    return <Navigate to={`/edit-series/${encodeURIComponent(id)}`} replace />;
  }
  if (quiz.isPending) return <Spinner label="Laddar quiz..." />;
  if (quiz.isError) return <QuizLoadFailed error={quiz.error} />;
  const data = quiz.data;
  const back = backTo(isSuperadmin, data.location.venueId);
  const recurrenceId = data.quiz.recurrenceId;
  if (recurrenceId && scope === 'series') return <Navigate to={`/edit-series/${encodeURIComponent(recurrenceId)}`} replace />;
  if (recurrenceId && scope !== 'one')
    return (
      <div className="mx-auto max-w-xl px-4 py-12">
        <h1 className="text-2xl font-bold">Redigera återkommande quiz</h1>
        <p className="mt-2 text-slate-700">
          Quizet {displayDate(data.quiz.date)} ingår i en serie med {data.seriesCount} quiz. Vill du ändra endast detta quiz eller hela serien?
        </p>
        <div className="mt-6 flex flex-wrap gap-2">
          <Button onClick={() => setParams({ scope: 'one' })}>Endast detta quiz</Button>
          <Button variant="secondary" onClick={() => setParams({ scope: 'series' })}>
            Hela serien
          </Button>
          <Link to={back} className={buttonClass('ghost')}>
            Avbryt
          </Link>
        </div>
      </div>
    );
  return <EditOneForm key={data.quiz.id} data={data} back={back} />;
}

function EditOneForm({ data, back }: { data: QuizDetailResponse; back: string }) {
  const navigate = useNavigate();
  const { quiz } = data;
  const wasRecurring = !!quiz.recurrenceId;
  const others = Math.max(0, data.seriesCount - 1);
  const schema = useMemo(() => editQuizForm(wasRecurring), [wasRecurring]);
  const form = useForm<QuizFormValues, unknown, EditQuizData>({
    resolver: zodResolver(schema),
    defaultValues: { ...formFromQuiz(quiz, quiz.date), recurring: quiz.isRecurring && wasRecurring },
  });
  const { handleSubmit, setError, watch, formState } = form;
  const recurring = watch('recurring');
  const edit = useEditQuiz();
  const remove = useDeleteQuiz();
  const cancel = useSetCancelled();
  const [confirm, setConfirm] = useState<null | 'detach' | 'delete'>(null);
  const saving = formState.isSubmitting || edit.isPending || remove.isPending;

  async function save(body: EditQuizData) {
    try {
      const r = await edit.mutateAsync({ id: quiz.id, body });
      toast({ title: 'Quizet har uppdaterats', description: r.created ? `${r.created + 1} quiz-evenemang schemalagda!` : undefined, variant: 'success' });
      navigate(back);
    } catch (err) {
      setConfirm(null);
      setServerErrors(setError, err);
      toast({ title: 'Kunde inte spara quizet', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }
  // Turning an occurrence into a single quiz deletes the others: ask first.
  const submit = handleSubmit((body) => (wasRecurring && body.recurring === false ? setConfirm('detach') : save(body)));

  async function removeQuiz() {
    try {
      await remove.mutateAsync(quiz.id);
      toast({ title: 'Quiz borttaget', variant: 'success' });
      navigate(back);
    } catch {
      setConfirm(null);
      toast({ title: 'Fel', description: 'Kunde inte ta bort quiz', variant: 'destructive' });
    }
  }

  async function toggleCancelled() {
    try {
      await cancel.mutateAsync({ id: quiz.id, cancelled: !quiz.isCancelled });
      toast({ title: quiz.isCancelled ? 'Quizet är åter planerat' : 'Quizet är inställt', variant: 'success' });
    } catch (err) {
      toast({ title: 'Ett oväntat fel inträffade', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-3xl font-extrabold">Redigera quiz</h1>
        <PromoteQuizButton
          quiz={{ id: quiz.id, date: quiz.date, startTime: quiz.startTime, category: quiz.category, theme: quiz.theme }}
          city={data.location.city}
          venueId={data.location.venueId}
          promotion={quiz.promotion}
        />
      </div>
      <p className="mt-2 text-slate-700">
        {data.location.name}, {data.location.city}
        {wasRecurring && ' · ändringen gäller endast detta quiz'}
      </p>
      {quiz.isCancelled && <p className="mt-3 inline-block rounded-full bg-red-100 px-3 py-1 text-sm font-bold text-red-800">Inställt</p>}
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <QuizDetailFields withDate />
          <RecurringToggle />
          {!wasRecurring && recurring && <RecurrenceFields />}
          {wasRecurring && !recurring && (
            <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900">Quizet blir ett enskilt quiz och de {others} andra quizen i serien tas bort.</p>
          )}
          <div className="flex flex-wrap justify-between gap-2">
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={toggleCancelled}>
                {quiz.isCancelled ? 'Ångra inställt' : 'Ställ in detta datum'}
              </Button>
              <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={() => setConfirm('delete')}>
                Ta bort quiz
              </Button>
            </div>
            <div className="flex gap-2">
              <Link to={back} className={buttonClass('secondary')}>
                Avbryt
              </Link>
              <Button type="submit" disabled={saving}>
                {saving ? 'Sparar...' : 'Spara ändringar'}
              </Button>
            </div>
          </div>
        </form>
      </FormProvider>
      {/* "Vi kommer" (issue 47): this date's teams, queue, CSV, tables and the series' RSVP settings. */}
      <RsvpOwnerPanel quiz={quiz} />
      <QuizmasterPanel id={quiz.id} freeText={quiz.quizmaster} series={!!quiz.recurrenceId} />
      <ConfirmDialog
        open={confirm === 'detach'}
        title="Gör om till enskilt quiz?"
        description={`De ${others} andra quizen i serien tas bort. Detta kan inte ångras.`}
        confirmLabel={`Ta bort ${others} quiz och spara`}
        busy={saving}
        onConfirm={() => void handleSubmit(save)()}
        onClose={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        title="Ta bort quiz?"
        description="Quizet tas bort permanent. Detta kan inte ångras."
        confirmLabel="Ta bort"
        busy={saving}
        onConfirm={() => void removeQuiz()}
        onClose={() => setConfirm(null)}
      />
    </div>
  );
}
