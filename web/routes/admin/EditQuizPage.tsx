/**
 * /edit-quiz/{quizId or recurrenceId} (spec 02 §2.3, §4.4): edit one quiz, or a whole series. For an
 * occurrence of a series the owner first chooses 'Endast detta quiz' or 'Hela serien' (?scope=one|series
 * skips the question). Whole-series edits apply to every future occurrence.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { EditQuizSchema, EditSeriesSchema, PATTERN_LABELS, type QuizDetailResponse, type SeriesSummary } from '../../../worker/features/quizzes/contract';
import { displayDate } from '../../../worker/lib/swedish';
import { issuesToErrors, quizzesApi } from '../../api/quizzes';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { ConfirmDialog } from '../../components/quizzes/ConfirmDialog';
import { PauseSeriesDialog } from '../../components/quizzes/PauseSeriesDialog';
import { formFromQuiz, QuizDetailFields, RecurrenceFields, toFields, toRecurrence, type QuizFormValues } from '../../components/quizzes/QuizFields';
import { Button, buttonClass } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';

export default function EditQuizPage() {
  return <RequireAuth require="admin">{(user) => <EditQuiz isSuperadmin={user.isSuperadmin} />}</RequireAuth>;
}

type Loaded = { status: 'loading' } | { status: 'quiz'; data: QuizDetailResponse } | { status: 'series'; series: SeriesSummary } | { status: 'missing' } | { status: 'error'; message: string };

function EditQuiz({ isSuperadmin }: { isSuperadmin: boolean }) {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const scope = params.get('scope');
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    (async () => {
      try {
        const data = await quizzesApi.get(id);
        if (!live) return;
        if (data.quiz.recurrenceId && scope === 'series') {
          const s = await quizzesApi.series(data.quiz.recurrenceId);
          if (live) setState({ status: 'series', series: s.series });
        } else setState({ status: 'quiz', data });
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiError && err.status === 404) {
          // Not a quiz id: maybe a series (recurrence) id.
          try {
            const s = await quizzesApi.series(id);
            if (live) setState({ status: 'series', series: s.series });
          } catch (err2) {
            if (live) setState(err2 instanceof ApiError && err2.status === 404 ? { status: 'missing' } : { status: 'error', message: (err2 as Error).message });
          }
        } else setState({ status: 'error', message: (err as Error).message });
      }
    })();
    return () => {
      live = false;
    };
  }, [id, scope, version]);

  const back = (venueId: string) => (isSuperadmin ? `/admin/venue/${venueId}` : '/admin');

  if (state.status === 'loading') return <Spinner label="Laddar quiz..." />;
  if (state.status === 'missing' || state.status === 'error')
    return (
      <div className="mx-auto max-w-xl px-4 py-12 text-center">
        <h1 className="text-2xl font-bold">{state.status === 'missing' ? 'Quizet hittades inte' : 'Ett fel uppstod'}</h1>
        {state.status === 'error' && <p className="mt-2 text-slate-700">{state.message}</p>}
        <Link to="/admin" className={buttonClass('primary', 'mt-6')}>
          Till översikten
        </Link>
      </div>
    );
  if (state.status === 'series') return <EditSeriesForm series={state.series} back={back(state.series.venueId)} />;
  const { data } = state;
  if (data.quiz.recurrenceId && scope !== 'one')
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
          <Link to={back(data.location.venueId)} className={buttonClass('ghost')}>
            Avbryt
          </Link>
        </div>
      </div>
    );
  return <EditOneForm data={data} back={back(data.location.venueId)} onChanged={() => setVersion((v) => v + 1)} />;
}

function EditOneForm({ data, back, onChanged }: { data: QuizDetailResponse; back: string; onChanged: () => void }) {
  const navigate = useNavigate();
  const { quiz } = data;
  const [values, setValues] = useState<QuizFormValues>(() => ({ ...formFromQuiz(quiz, quiz.date), recurring: quiz.isRecurring && !!quiz.recurrenceId }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [confirm, setConfirm] = useState<null | 'detach' | 'delete'>(null);
  const set = (patch: Partial<QuizFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const wasRecurring = !!quiz.recurrenceId;
  const others = Math.max(0, data.seriesCount - 1);

  function payload() {
    const base = { date: values.date, ...toFields(values) };
    if (!wasRecurring && values.recurring) return { ...base, recurring: true, ...toRecurrence(values) };
    if (wasRecurring && !values.recurring) return { ...base, recurring: false };
    return base;
  }

  async function save(confirmed = false) {
    const body = payload();
    const parsed = EditQuizSchema.safeParse(body);
    const errs = parsed.success ? {} : issuesToErrors(parsed.error.issues);
    if (!wasRecurring && values.recurring && !values.forever && !values.until) errs.until ??= 'Ange ett slutdatum';
    if (Object.keys(errs).length) return setErrors(errs);
    setErrors({});
    if (wasRecurring && !values.recurring && !confirmed) return setConfirm('detach');
    setSaving(true);
    try {
      const r = await quizzesApi.edit(quiz.id, body as never);
      toast({ title: 'Quizet har uppdaterats', description: r.created ? `${r.created + 1} quiz-evenemang schemalagda!` : undefined, variant: 'success' });
      navigate(back);
    } catch (err) {
      setSaving(false);
      setConfirm(null);
      if (err instanceof ApiError && err.issues) setErrors(issuesToErrors(err.issues));
      toast({ title: 'Kunde inte spara quizet', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }

  async function remove() {
    setSaving(true);
    try {
      await quizzesApi.remove(quiz.id);
      toast({ title: 'Quiz borttaget', variant: 'success' });
      navigate(back);
    } catch {
      setSaving(false);
      setConfirm(null);
      toast({ title: 'Fel', description: 'Kunde inte ta bort quiz', variant: 'destructive' });
    }
  }

  async function toggleCancelled() {
    try {
      await quizzesApi.setCancelled(quiz.id, !quiz.isCancelled);
      toast({ title: quiz.isCancelled ? 'Quizet är åter planerat' : 'Quizet är inställt', variant: 'success' });
      onChanged();
    } catch (err) {
      toast({ title: 'Ett oväntat fel inträffade', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-3xl font-extrabold">Redigera quiz</h1>
      <p className="mt-2 text-slate-700">
        {data.location.name}, {data.location.city}
        {wasRecurring && ' · ändringen gäller endast detta quiz'}
      </p>
      {quiz.isCancelled && <p className="mt-3 inline-block rounded-full bg-red-100 px-3 py-1 text-sm font-bold text-red-800">Inställt</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
        className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <QuizDetailFields values={values} set={set} errors={errors} withDate />
        <label className="flex items-center gap-2 font-semibold">
          <input type="checkbox" checked={values.recurring} onChange={(e) => set({ recurring: e.target.checked })} />
          Återkommande quiz
        </label>
        {!wasRecurring && values.recurring && <RecurrenceFields values={values} set={set} errors={errors} />}
        {wasRecurring && !values.recurring && (
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
      <ConfirmDialog
        open={confirm === 'detach'}
        title="Gör om till enskilt quiz?"
        description={`De ${others} andra quizen i serien tas bort. Detta kan inte ångras.`}
        confirmLabel={`Ta bort ${others} quiz och spara`}
        busy={saving}
        onConfirm={() => void save(true)}
        onClose={() => setConfirm(null)}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        title="Ta bort quiz?"
        description="Quizet tas bort permanent. Detta kan inte ångras."
        confirmLabel="Ta bort"
        busy={saving}
        onConfirm={() => void remove()}
        onClose={() => setConfirm(null)}
      />
    </div>
  );
}

function EditSeriesForm({ series, back }: { series: SeriesSummary; back: string }) {
  const navigate = useNavigate();
  const [values, setValues] = useState<QuizFormValues>(() => formFromQuiz(series, series.latest));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [pauseOpen, setPauseOpen] = useState(false);
  const set = (patch: Partial<QuizFormValues>) => setValues((v) => ({ ...v, ...patch }));

  async function save() {
    const body = toFields(values);
    const parsed = EditSeriesSchema.safeParse(body);
    if (!parsed.success) return setErrors(issuesToErrors(parsed.error.issues));
    setErrors({});
    setSaving(true);
    try {
      const r = await quizzesApi.editSeries(series.recurrenceId, body as never);
      toast({ title: 'Serien har uppdaterats', description: `${r.updated} kommande quiz ändrades.`, variant: 'success' });
      navigate(back);
    } catch (err) {
      setSaving(false);
      if (err instanceof ApiError && err.issues) setErrors(issuesToErrors(err.issues));
      toast({ title: 'Kunde inte spara serien', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }

  async function remove() {
    setSaving(true);
    try {
      const r = await quizzesApi.removeSeries(series.recurrenceId);
      toast({ title: 'Quiz borttaget', description: `${r.deleted} quiz i serien togs bort.`, variant: 'success' });
      navigate(back);
    } catch {
      setSaving(false);
      setConfirmDelete(false);
      toast({ title: 'Fel', description: 'Kunde inte ta bort quiz', variant: 'destructive' });
    }
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-3xl font-extrabold">Redigera serie</h1>
      <p className="mt-2 text-slate-700">
        {series.locationName}, {series.city} · {series.pattern ? PATTERN_LABELS[series.pattern] : 'Återkommande'} · {series.days.join(', ')}
      </p>
      <p className="mt-1 text-slate-700">Ändringarna gäller alla {series.upcoming} kommande quiz i serien. Tidigare quiz lämnas orörda.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
        className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <QuizDetailFields values={values} set={set} errors={errors} withDate={false} />
        <div className="flex flex-wrap justify-between gap-2">
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setPauseOpen(true)}>
              Pausa serien
            </Button>
            <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={() => setConfirmDelete(true)}>
              Ta bort serien ({series.count})
            </Button>
          </div>
          <div className="flex gap-2">
            <Link to={back} className={buttonClass('secondary')}>
              Avbryt
            </Link>
            <Button type="submit" disabled={saving}>
              {saving ? 'Sparar...' : 'Spara serien'}
            </Button>
          </div>
        </div>
      </form>
      <ConfirmDialog
        open={confirmDelete}
        title="Ta bort hela serien?"
        description={`Alla ${series.count} quiz i serien tas bort permanent. Detta kan inte ångras.`}
        confirmLabel={`Ta bort ${series.count} quiz`}
        busy={saving}
        onConfirm={() => void remove()}
        onClose={() => setConfirmDelete(false)}
      />
      <PauseSeriesDialog recurrenceId={series.recurrenceId} open={pauseOpen} onClose={() => setPauseOpen(false)} onDone={() => undefined} />
    </div>
  );
}
