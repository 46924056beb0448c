/** /admin/create-quiz and /create-quiz (?location={id}): create one quiz or a series (spec 02 §2.4, §5). */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CreateQuizSchema } from '../../../worker/features/quizzes/contract';
import { stockholmDate } from '../../../worker/lib/clock';
import { issuesToErrors, quizzesApi } from '../../api/quizzes';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { emptyQuizForm, QuizDetailFields, RecurrenceFields, toFields, toRecurrence, type QuizFormValues } from '../../components/quizzes/QuizFields';
import { Button, buttonClass } from '../../components/ui/Button';
import { SelectField } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';

export default function CreateQuizPage() {
  return <RequireAuth require="admin">{(user) => <CreateQuiz isSuperadmin={user.isSuperadmin} />}</RequireAuth>;
}

type Place = { id: string; name: string; city: string; venueId: string };
type PlacesState = { status: 'loading' } | { status: 'none' } | { status: 'ready'; places: Place[]; fixed: boolean; today: string };

/** Today in Stockholm for the form's default date (the server decides what "past" is). */
const stockholmToday = () => stockholmDate(new Date());

function CreateQuiz({ isSuperadmin }: { isSuperadmin: boolean }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const locationParam = params.get('location');
  const [placesState, setPlacesState] = useState<PlacesState>({ status: 'loading' });
  const [locationId, setLocationId] = useState('');
  const [values, setValues] = useState<QuizFormValues>(() => emptyQuizForm(stockholmToday()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<QuizFormValues>) => setValues((v) => ({ ...v, ...patch }));

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        if (locationParam) {
          // The place must belong to the owner's business (the API checks it).
          const r = await quizzesApi.placeQuizzes(locationParam);
          if (!live) return;
          setLocationId(r.location.id);
          setValues((v) => ({ ...v, ...(v.date < r.today ? { date: r.today } : {}) }));
          setPlacesState({ status: 'ready', places: [r.location], fixed: true, today: r.today });
        } else {
          const r = await quizzesApi.places();
          if (!live) return;
          if (!r.places.length) return setPlacesState({ status: 'none' });
          setLocationId(r.places[0]!.id);
          setPlacesState({ status: 'ready', places: r.places, fixed: false, today: stockholmToday() });
        }
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiError && err.status === 403) {
          toast({ title: 'Lokal ej tillgänglig', description: 'Platsen tillhör inte din verksamhet.', variant: 'destructive' });
          navigate('/admin', { replace: true });
        } else if (err instanceof ApiError && err.status === 404) {
          setPlacesState({ status: 'none' });
        } else {
          toast({ title: 'Ett oväntat fel uppstod, försök igen senare', variant: 'destructive' });
          setPlacesState({ status: 'none' });
        }
      }
    })();
    return () => {
      live = false;
    };
  }, [locationParam, navigate]);

  const backTo = (venueId?: string) => (isSuperadmin && venueId ? `/admin/venue/${venueId}` : '/admin');

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const payload = { locationId, date: values.date, ...toFields(values), recurring: values.recurring, ...(values.recurring ? toRecurrence(values) : {}) };
    const parsed = CreateQuizSchema.safeParse(payload);
    const errs = parsed.success ? {} : issuesToErrors(parsed.error.issues);
    if (values.recurring && !values.forever && !values.until) errs.until ??= 'Ange ett slutdatum';
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    setErrors({});
    setSaving(true);
    const place = placesState.status === 'ready' ? placesState.places.find((p) => p.id === locationId) : undefined;
    try {
      const r = await quizzesApi.create(payload as never);
      toast({
        title: 'Quiz skapat framgångsrikt',
        description: r.recurrenceId ? `${r.created} quiz-evenemang schemalagda!` : undefined,
        variant: 'success',
      });
      navigate(backTo(place?.venueId));
    } catch (err) {
      setSaving(false);
      if (err instanceof ApiError && err.status !== 0 && err.status < 500) {
        if (err.issues) setErrors(issuesToErrors(err.issues));
        toast({ title: values.recurring ? 'Misslyckades skapa quiz-serie' : 'Misslyckades skapa quiz', description: err.message, variant: 'destructive' });
      } else {
        toast({ title: 'Ett oväntat fel uppstod, försök igen senare', variant: 'destructive' });
      }
    }
  }

  if (placesState.status === 'loading') return <Spinner label="Laddar..." />;
  if (placesState.status === 'none')
    return (
      <div className="mx-auto max-w-xl px-4 py-12 text-center">
        <h1 className="text-2xl font-bold">Ingen lokal hittad</h1>
        <p className="mt-2 text-slate-700">Lägg till en plats för din verksamhet innan du skapar ett quiz.</p>
        <Link to="/admin" className={buttonClass('primary', 'mt-6')}>
          Till översikten
        </Link>
      </div>
    );

  const place = placesState.places.find((p) => p.id === locationId);
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-3xl font-extrabold">Skapa quiz</h1>
      {placesState.fixed && place && (
        <p className="mt-2 text-slate-700">
          {place.name}, {place.city}
        </p>
      )}
      <form onSubmit={submit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        {!placesState.fixed && placesState.places.length > 1 && (
          <SelectField label="Plats" value={locationId} error={errors.locationId} onChange={(e) => setLocationId(e.target.value)}>
            {placesState.places.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}, {p.city}
              </option>
            ))}
          </SelectField>
        )}
        <QuizDetailFields values={values} set={set} errors={errors} withDate />
        <label className="flex items-center gap-2 font-semibold">
          <input type="checkbox" checked={values.recurring} onChange={(e) => set({ recurring: e.target.checked })} />
          Återkommande quiz
        </label>
        {values.recurring && <RecurrenceFields values={values} set={set} errors={errors} />}
        <div className="flex justify-end gap-2">
          <Link to={backTo(place?.venueId)} className={buttonClass('secondary')}>
            Avbryt
          </Link>
          <Button type="submit" disabled={saving}>
            {saving ? 'Skapar...' : 'Skapa quiz'}
          </Button>
        </div>
      </form>
    </div>
  );
}
