/**
 * /admin/ligor (issue 46.3): leagues, one table across several series. An owner picks two or more of their own
 * series; the superadmin may pick any business's series (each stays pending until its owner answers here, under
 * "Inbjudningar"). Each league gets seasons (the same form rules as a series' season) and a public page /liga/{slug}.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { CreateLeagueSchema, SEASON_PRESET_LABELS } from '../../../worker/features/results/contract';
import { displayDate } from '../../../worker/lib/swedish';
import { useSeriesList } from '../../api/quizzes';
import { type OwnerLeague, useAnswerLeague, useCreateLeague, useCreateLeagueSeason, useLeagues, useRemoveLeagueSeries } from '../../api/results';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';
import { SeasonForm } from '../../components/quizzes/SeasonForm';

export default function LeaguesPage() {
  return <RequireAuth require="admin">{() => <Leagues />}</RequireAuth>;
}

/** Field errors by the first path segment, from a zod result's issues or the API's. */
const byField = (issues: Array<{ path: string; message: string }>) => Object.fromEntries(issues.map((i) => [i.path.split('.')[0] ?? '', i.message]));
const failure = (err: unknown) =>
  err instanceof ApiError && err.issues?.length ? byField(err.issues) : { _: err instanceof Error ? err.message : 'Något gick fel' };

function Leagues() {
  const leagues = useLeagues();
  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold">Ligor</h1>
        <Link to="/admin" className={buttonClass('secondary')}>
          Tillbaka till översikten
        </Link>
      </div>
      <p className="text-slate-700">
        En liga är en gemensam tabell för flera quizserier, till exempel en kedjas ställen eller ett quiz som körs samtidigt på flera ställen.
      </p>
      {leagues.isPending && <Spinner label="Laddar ligor..." />}
      {leagues.data && leagues.data.invitations.length > 0 && <Invitations items={leagues.data.invitations} />}
      <CreateLeague />
      {leagues.data?.leagues.map((l) => (
        <League key={l.id} league={l} />
      ))}
    </div>
  );
}

function Invitations({ items }: { items: Array<{ leagueId: string; league: string; seriesId: string; venue: string; place: string }> }) {
  const answer = useAnswerLeague();
  async function reply(leagueId: string, seriesId: string, accept: boolean) {
    try {
      await answer.mutateAsync({ leagueId, seriesId, accept });
      toast({ title: accept ? 'Serien är med i ligan' : 'Inbjudan är avböjd', variant: 'success' });
    } catch (err) {
      toast({ title: err instanceof Error ? err.message : 'Något gick fel', variant: 'destructive' });
    }
  }
  return (
    <section aria-labelledby="invitations-heading" className="space-y-3 rounded-2xl border border-amber-300 bg-amber-50 p-5">
      <h2 id="invitations-heading" className="text-xl font-bold">
        Inbjudningar till ligor
      </h2>
      <p className="text-sm text-slate-700">Din serie räknas i ligans tabell först när du har sagt ja.</p>
      <ul className="space-y-2">
        {items.map((i) => (
          <li key={`${i.leagueId}/${i.seriesId}`} className="flex flex-wrap items-center gap-3">
            <span>
              <strong>{i.league}</strong> vill ta med {i.venue} ({i.place})
            </span>
            <Button onClick={() => void reply(i.leagueId, i.seriesId, true)} disabled={answer.isPending}>
              Ja, var med
            </Button>
            <Button variant="secondary" onClick={() => void reply(i.leagueId, i.seriesId, false)} disabled={answer.isPending}>
              Nej tack
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CreateLeague() {
  const series = useSeriesList();
  const create = useCreateLeague();
  const [name, setName] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = CreateLeagueSchema.safeParse({ name, seriesIds: picked });
    if (!parsed.success) return setErrors(byField(parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))));
    setErrors({});
    try {
      const made = await create.mutateAsync(parsed.data);
      toast({ title: `Ligan ${made.name} är skapad`, variant: 'success' });
      setName('');
      setPicked([]);
    } catch (err) {
      setErrors(failure(err));
    }
  }

  return (
    <section aria-labelledby="create-league-heading" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5">
      <h2 id="create-league-heading" className="text-xl font-bold">
        Ny liga
      </h2>
      <form className="space-y-3" onSubmit={submit} noValidate>
        <TextField label="Ligans namn" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
        <fieldset className="space-y-1">
          <legend className="font-semibold">Serier i ligan (minst två)</legend>
          {series.isPending && <Spinner label="Laddar serier..." />}
          {series.data?.series.map((s) => (
            <label key={s.recurrenceId} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={picked.includes(s.recurrenceId)}
                onChange={(e) => setPicked((p) => (e.target.checked ? [...p, s.recurrenceId] : p.filter((x) => x !== s.recurrenceId)))}
              />
              {s.venueName}, {s.locationName} ({s.city}) · {s.days.join(', ')}
            </label>
          ))}
          {errors.seriesIds && (
            <p role="alert" className="text-sm font-semibold text-red-700">
              {errors.seriesIds}
            </p>
          )}
        </fieldset>
        {errors._ && (
          <p role="alert" className="text-sm font-semibold text-red-700">
            {errors._}
          </p>
        )}
        <Button type="submit" disabled={create.isPending}>
          Skapa liga
        </Button>
      </form>
    </section>
  );
}

function League({ league }: { league: OwnerLeague }) {
  const remove = useRemoveLeagueSeries();
  const headingId = `league-${league.id}`;
  return (
    <section aria-labelledby={headingId} className="space-y-3 rounded-2xl border border-slate-200 bg-white p-5">
      <h2 id={headingId} className="text-xl font-bold">
        {league.name}
      </h2>
      <p>
        <a className="font-semibold text-brand-700 underline" href={`/liga/${league.slug}`}>
          Visa ligans tabell
        </a>
      </p>
      <ul className="space-y-1">
        {league.series.map((s) => (
          <li key={s.seriesId} className="flex flex-wrap items-center gap-2">
            <span>
              {s.venue}, {s.place} ({s.city})
            </span>
            {!s.consented && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-sm font-bold text-amber-900">väntar på svar</span>}
            <Button
              variant="secondary"
              onClick={() => void remove.mutateAsync({ leagueId: league.id, seriesId: s.seriesId }).catch(() => undefined)}
              disabled={remove.isPending}
              aria-label={`Ta bort ${s.venue}, ${s.place} ur ligan`}
            >
              Ta bort
            </Button>
          </li>
        ))}
      </ul>
      {league.seasons.length > 0 && (
        <ul className="space-y-1">
          {league.seasons.map((s) => (
            <li key={s.id}>
              <span className="font-semibold">{s.name}</span> · {displayDate(s.startDate)} – {displayDate(s.endDate)} · {SEASON_PRESET_LABELS[s.preset]}
            </li>
          ))}
        </ul>
      )}
      <LeagueSeasonForm leagueId={league.id} />
    </section>
  );
}

function LeagueSeasonForm({ leagueId }: { leagueId: string }) {
  const create = useCreateLeagueSeason();
  return <SeasonForm create={(body) => create.mutateAsync({ leagueId, body })} pending={create.isPending} label="Ny säsong i ligan" />;
}
