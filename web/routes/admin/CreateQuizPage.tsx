/** /admin/create-quiz and /create-quiz (?location={id}): create one quiz or a series (spec 02 §2.4, §5). */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isCalendarDate, PauseSeriesSchema, weekdayNameOf, type CreateQuizData, type WeekdayName } from '../../../worker/features/quizzes/contract';
import { WEEKDAY_NAMES } from '../../../worker/lib/swedish';
import type { HolidayPreviewInput } from '../../../worker/features/holidays/contract';
import { stockholmDate } from '../../../worker/lib/clock';
import { useCreateQuiz, useDecideHolidays, useHolidayPreview, usePauseSeries, usePlaceQuizzes, useQuizPlaces } from '../../api/quizzes';
import { HolidaySkips } from '../../components/quizzes/HolidaySkips';
import { DateTimeField } from '../../components/ui/Field';
import { RequireAuth } from '../../components/auth/RequireAuth';
import {
  CreateQuizForm,
  emptyQuizForm,
  QuizDetailFields,
  RecurrenceFields,
  RecurringToggle,
  type CreateQuizFormValues,
} from '../../components/quizzes/QuizFields';
import { Button, buttonClass } from '../../components/ui/Button';
import { SelectField } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';
import { setServerErrors } from '../../lib/form';

export default function CreateQuizPage() {
  return <RequireAuth require="admin">{(user) => <CreateQuiz isSuperadmin={user.isSuperadmin} />}</RequireAuth>;
}

type Place = { id: string; name: string; city: string; venueId: string };

/** Today in Stockholm for the form's default date (the server decides what "past" is). */
const stockholmToday = () => stockholmDate(new Date());

/**
 * The places to choose from: the one of ?location= (it must belong to the owner's business; the API
 * checks it), or all of the owner's places.
 */
function usePlaces(locationParam: string | null) {
  const navigate = useNavigate();
  const one = usePlaceQuizzes(locationParam);
  const all = useQuizPlaces(!locationParam);
  const q = locationParam ? one : all;
  const error = q.error;
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!error || reported.current === error) return;
    reported.current = error;
    if (error instanceof ApiError && error.status === 403) {
      toast({ title: 'Lokal ej tillgänglig', description: 'Platsen tillhör inte din verksamhet.', variant: 'destructive' });
      navigate('/admin', { replace: true });
    } else if (!(error instanceof ApiError && error.status === 404)) {
      toast({ title: 'Ett oväntat fel uppstod, försök igen senare', variant: 'destructive' });
    }
  }, [error, navigate]);
  if (q.isPending) return { status: 'loading' } as const;
  if (locationParam && one.data) return { status: 'ready', places: [one.data.location] as Place[], fixed: true, today: one.data.today } as const;
  if (!locationParam && all.data?.places.length) return { status: 'ready', places: all.data.places as Place[], fixed: false, today: null } as const;
  return { status: 'none' } as const;
}

function CreateQuiz({ isSuperadmin }: { isSuperadmin: boolean }) {
  const [params] = useSearchParams();
  const places = usePlaces(params.get('location'));
  if (places.status === 'loading') return <Spinner label="Laddar..." />;
  if (places.status === 'none')
    return (
      <div className="mx-auto max-w-xl px-4 py-12 text-center">
        <h1 className="text-2xl font-bold">Ingen lokal hittad</h1>
        <p className="mt-2 text-slate-700">Lägg till en plats för din verksamhet innan du skapar ett quiz.</p>
        <Link to="/admin" className={buttonClass('primary', 'mt-6')}>
          Till översikten
        </Link>
      </div>
    );
  return <CreateQuizFormView places={places.places} fixed={places.fixed} today={places.today} isSuperadmin={isSuperadmin} />;
}

function CreateQuizFormView({ places, fixed, today, isSuperadmin }: { places: Place[]; fixed: boolean; today: string | null; isSuperadmin: boolean }) {
  const navigate = useNavigate();
  const create = useCreateQuiz();
  const local = stockholmToday();
  const form = useForm<CreateQuizFormValues, unknown, CreateQuizData>({
    resolver: zodResolver(CreateQuizForm),
    // The place's answer carries the server's today: never start in the past.
    defaultValues: { ...emptyQuizForm(today && local < today ? today : local), locationId: places[0]!.id },
  });
  const { register, watch, handleSubmit, setError, formState } = form;
  const [locationId, recurring, date, pattern, days, forever, until] = watch(['locationId', 'recurring', 'date', 'pattern', 'days', 'forever', 'until']);
  // Swedish holidays (issue 20): previewed from the form's values; the eves are pre-selected as skips.
  const previewBody: HolidayPreviewInput = {
    date,
    pattern,
    days: (days.length ? days : [isCalendarDate(date) ? weekdayNameOf(date) : WEEKDAY_NAMES[0]]) as WeekdayName[],
    until: forever ? null : until || null,
  };
  const previewOk = recurring && isCalendarDate(date) && (forever || isCalendarDate(until));
  const preview = useHolidayPreview(previewBody, previewOk);
  const holidays = previewOk ? (preview.data?.holidays ?? []) : [];
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const skips = Object.fromEntries(holidays.map((h) => [h.date, touched[h.date] ?? h.suggestSkip]));
  const [summer, setSummer] = useState({ from: '', to: '' });
  const [summerError, setSummerError] = useState<string | null>(null);
  const decide = useDecideHolidays();
  const pause = usePauseSeries();
  const place = places.find((p) => p.id === locationId) ?? (fixed ? places[0] : undefined);
  const backTo = (venueId?: string) => (isSuperadmin && venueId ? `/admin/venue/${venueId}` : '/admin');

  const submit = handleSubmit(async (data) => {
    const summerGiven = data.recurring && (summer.from || summer.to);
    const summerParsed = summerGiven ? PauseSeriesSchema.safeParse(summer) : null;
    if (summerParsed && !summerParsed.success) {
      setSummerError(summerParsed.error.issues[0]?.message ?? 'Ange giltiga datum');
      return;
    }
    setSummerError(null);
    try {
      const r = await create.mutateAsync(data);
      if (r.recurrenceId) await afterCreate(r.recurrenceId, summerParsed?.success ? summerParsed.data : null);
      toast({ title: 'Quiz skapat framgångsrikt', description: r.recurrenceId ? `${r.created} quiz-evenemang schemalagda!` : undefined, variant: 'success' });
      navigate(backTo(place?.venueId));
    } catch (err) {
      if (err instanceof ApiError && err.status !== 0 && err.status < 500) {
        setServerErrors(setError, err);
        toast({ title: data.recurring ? 'Misslyckades skapa quiz-serie' : 'Misslyckades skapa quiz', description: err.message, variant: 'destructive' });
      } else {
        toast({ title: 'Ett oväntat fel uppstod, försök igen senare', variant: 'destructive' });
      }
    }
  });

  /** The series exists: record the holiday choices and the summer break (each failure is told, the series stays). */
  async function afterCreate(recurrenceId: string, summerRange: { from: string; to: string } | null) {
    if (holidays.length) {
      try {
        await decide.mutateAsync({ id: recurrenceId, body: { decisions: holidays.map((h) => ({ date: h.date, skip: !!skips[h.date] })) } });
      } catch (err) {
        toast({ title: 'Helgdagarna kunde inte sparas', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
      }
    }
    if (summerRange) {
      try {
        await pause.mutateAsync({ id: recurrenceId, kind: 'pause', body: summerRange });
      } catch (err) {
        toast({ title: 'Sommaruppehållet kunde inte sparas', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
      }
    }
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-3xl font-extrabold">Skapa quiz</h1>
      {fixed && place && (
        <p className="mt-2 text-slate-700">
          {place.name}, {place.city}
        </p>
      )}
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          {!fixed && places.length > 1 && (
            <SelectField label="Plats" error={formState.errors.locationId?.message} {...register('locationId')}>
              {places.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}, {p.city}
                </option>
              ))}
            </SelectField>
          )}
          <QuizDetailFields withDate />
          <RecurringToggle />
          {recurring && <RecurrenceFields />}
          {recurring && previewOk && (
            <HolidaySkips holidays={holidays} skips={skips} onChange={(next) => setTouched({ ...touched, ...next })} loading={preview.isFetching} />
          )}
          {recurring && (
            <fieldset className="rounded-xl border border-slate-200 p-4">
              <legend className="px-1 text-sm font-semibold text-slate-800">Sommaruppehåll (valfritt)</legend>
              <p className="text-sm text-slate-700">Quiz mellan datumen visas som inställda. Lämna tomt om ni kör hela sommaren.</p>
              <div className="mt-2 grid gap-3 sm:grid-cols-2">
                <DateTimeField
                  label="Uppehåll från"
                  type="date"
                  value={summer.from}
                  min={date}
                  onChange={(e) => setSummer({ ...summer, from: e.target.value })}
                />
                <DateTimeField
                  label="Uppehåll till"
                  type="date"
                  value={summer.to}
                  min={summer.from || date}
                  onChange={(e) => setSummer({ ...summer, to: e.target.value })}
                  error={summerError ?? undefined}
                />
              </div>
            </fieldset>
          )}
          <div className="flex justify-end gap-2">
            <Link to={backTo(place?.venueId)} className={buttonClass('secondary')}>
              Avbryt
            </Link>
            <Button type="submit" disabled={formState.isSubmitting}>
              {formState.isSubmitting ? 'Skapar...' : 'Skapa quiz'}
            </Button>
          </div>
        </form>
      </FormProvider>
    </div>
  );
}
