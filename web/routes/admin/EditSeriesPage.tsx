/**
 * /edit-series/{recurrenceId} (spec 02 §2.3, §4.4): edit a whole series; the changes apply to every
 * future occurrence. Also pause and delete the series.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { PATTERN_LABELS, type EditSeriesData, type SeriesSummary } from '../../../worker/features/quizzes/contract';
import { useDeleteSeries, useEditSeries, useSeries } from '../../api/quizzes';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { PromoteSeriesByIdButton } from '../../components/promotion/PromoteSeriesButton';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { backTo, QuizLoadFailed } from '../../components/quizzes/EditScreenStates';
import { PauseSeriesDialog } from '../../components/quizzes/PauseSeriesDialog';
import { SeriesHolidaysPanel } from '../../components/quizzes/SeriesHolidaysPanel';
import { QuizmasterPanel } from '../../components/quizmasters/QuizmasterPanel';
import { SeasonsPanel } from '../../components/quizzes/SeasonsPanel';
import { EditSeriesForm, formFromQuiz, QuizDetailFields, type QuizFormValues } from '../../components/quizzes/QuizFields';
import { Button, buttonClass } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { setServerErrors } from '../../lib/form';

export default function EditSeriesPage() {
  return <RequireAuth require="admin">{(user) => <EditSeries isSuperadmin={user.isSuperadmin} />}</RequireAuth>;
}

function EditSeries({ isSuperadmin }: { isSuperadmin: boolean }) {
  const { id = '' } = useParams();
  const query = useSeries(id);
  if (query.isPending) return <Spinner label="Laddar quiz..." />;
  if (query.isError) return <QuizLoadFailed error={query.error} />;
  const { series } = query.data;
  return <SeriesForm key={series.recurrenceId} series={series} back={backTo(isSuperadmin, series.venueId)} />;
}

function SeriesForm({ series, back }: { series: SeriesSummary; back: string }) {
  const navigate = useNavigate();
  const form = useForm<QuizFormValues, unknown, EditSeriesData>({ resolver: zodResolver(EditSeriesForm), defaultValues: formFromQuiz(series, series.latest) });
  const edit = useEditSeries();
  const remove = useDeleteSeries();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [pauseOpen, setPauseOpen] = useState(false);
  const saving = form.formState.isSubmitting || remove.isPending;

  const submit = form.handleSubmit(async (body) => {
    try {
      const r = await edit.mutateAsync({ id: series.recurrenceId, body });
      toast({ title: 'Serien har uppdaterats', description: `${r.updated} kommande quiz ändrades.`, variant: 'success' });
      navigate(back);
    } catch (err) {
      setServerErrors(form.setError, err);
      toast({ title: 'Kunde inte spara serien', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  });

  async function removeSeries() {
    try {
      const r = await remove.mutateAsync(series.recurrenceId);
      toast({ title: 'Quiz borttaget', description: `${r.deleted} quiz i serien togs bort.`, variant: 'success' });
      navigate(back);
    } catch {
      setConfirmDelete(false);
      toast({ title: 'Fel', description: 'Kunde inte ta bort quiz', variant: 'destructive' });
    }
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-3xl font-extrabold">Redigera serie</h1>
        {series.upcoming > 0 && (
          <PromoteSeriesByIdButton
            recurrenceId={series.recurrenceId}
            locationId={series.locationId}
            label={`${series.locationName} · ${series.days.join(', ')}`}
            city={series.city}
            venueId={series.venueId}
          />
        )}
      </div>
      <p className="mt-2 text-slate-700">
        {series.locationName}, {series.city} · {series.pattern ? PATTERN_LABELS[series.pattern] : 'Återkommande'} · {series.days.join(', ')}
      </p>
      <p className="mt-1 text-slate-700">Ändringarna gäller alla {series.upcoming} kommande quiz i serien. Tidigare quiz lämnas orörda.</p>
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <QuizDetailFields withDate={false} />
          <div className="flex flex-wrap justify-between gap-2">
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={() => setPauseOpen(true)}>
                Pausa serien / sommaruppehåll
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
      </FormProvider>
      <QuizmasterPanel id={series.recurrenceId} freeText={series.quizmaster} series />
      <SeriesHolidaysPanel recurrenceId={series.recurrenceId} />
      <SeasonsPanel seriesId={series.recurrenceId} />
      <ConfirmDialog
        open={confirmDelete}
        title="Ta bort hela serien?"
        description={`Alla ${series.count} quiz i serien tas bort permanent. Detta kan inte ångras.`}
        confirmLabel={`Ta bort ${series.count} quiz`}
        busy={saving}
        onConfirm={() => void removeSeries()}
        onClose={() => setConfirmDelete(false)}
      />
      <PauseSeriesDialog recurrenceId={series.recurrenceId} open={pauseOpen} onClose={() => setPauseOpen(false)} />
    </div>
  );
}
