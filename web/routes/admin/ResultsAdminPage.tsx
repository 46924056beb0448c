/**
 * /admin/resultat/{locationId} (issue 46): the place's nights of the last 14 days, those without results first,
 * each with a "Resultat" action; the editor takes a pasted list (`Lagnamn;poäng`, a tab, or the number last) or
 * rows, asks "Menade du …?" for a name close to a known team, and shows the ranked night.
 */
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { parseResultsText, RESULTS_MAX_TEAMS, type TeamSuggestion } from '../../../worker/features/results/contract';
import { displayDate } from '../../../worker/lib/swedish';
import { useNightResults, usePlaceNights, usePostResults, type LocationNight, type NightResults } from '../../api/results';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextArea, TextField } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';

export default function ResultsAdminPage() {
  return <RequireAuth require="admin">{() => <ResultsAdmin />}</RequireAuth>;
}

const points = (n: number) => String(n).replace('.', ',');

function ResultsAdmin() {
  const { locationId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const selected = search.get('kvall');
  const nights = usePlaceNights(locationId);
  const select = (quizId: string | null) => setSearch(quizId ? { kvall: quizId } : {}, { replace: true });
  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold">Resultat</h1>
        <Link to="/admin" className={buttonClass('secondary')}>
          Tillbaka till översikten
        </Link>
      </div>
      {nights.isPending && <Spinner label="Laddar kvällar..." />}
      {nights.isError && (
        <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
          {nights.error.message}
        </p>
      )}
      {nights.data && <NightLists nights={nights.data.nights} selected={selected} onSelect={select} />}
      {selected && <NightEditor key={selected} quizId={selected} />}
    </div>
  );
}

function NightLists({ nights, selected, onSelect }: { nights: LocationNight[]; selected: string | null; onSelect: (id: string) => void }) {
  const missing = nights.filter((n) => !n.posted);
  const posted = nights.filter((n) => n.posted);
  const row = (n: LocationNight) => (
    <li
      key={n.quizId}
      className={`flex items-center justify-between gap-3 rounded-xl border bg-white p-3 ${selected === n.quizId ? 'border-brand-600' : 'border-slate-200'}`}
    >
      <span>
        {displayDate(n.date)}
        {n.corrected && <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900">rättad</span>}
      </span>
      <Button variant={n.posted ? 'secondary' : 'primary'} onClick={() => onSelect(n.quizId)}>
        Resultat<span className="sr-only"> {displayDate(n.date)}</span>
      </Button>
    </li>
  );
  return (
    <>
      <section aria-labelledby="missing-heading" className="space-y-3">
        <h2 id="missing-heading" className="text-xl font-bold">
          Kvällar utan resultat (senaste 14 dagarna)
        </h2>
        {missing.length ? <ul className="space-y-2">{missing.map(row)}</ul> : <p className="text-slate-700">Alla kvällar har resultat.</p>}
      </section>
      {posted.length > 0 && (
        <section aria-labelledby="posted-heading" className="space-y-3">
          <h2 id="posted-heading" className="text-xl font-bold">
            Inlagda kvällar
          </h2>
          <ul className="space-y-2">{posted.map(row)}</ul>
        </section>
      )}
    </>
  );
}

type Row = { team: string; score: string };

function NightEditor({ quizId }: { quizId: string }) {
  const night = useNightResults(quizId);
  if (night.isPending) return <Spinner label="Laddar resultat..." />;
  if (night.isError)
    return (
      <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        {night.error.message}
      </p>
    );
  return <Editor night={night.data} />;
}

function Editor({ night }: { night: NightResults }) {
  const post = usePostResults();
  const [mode, setMode] = useState<'paste' | 'rows'>('paste');
  const [text, setText] = useState(night.rows.map((r) => `${r.team};${points(r.score)}`).join('\n'));
  const [rows, setRows] = useState<Row[]>(night.rows.length ? night.rows.map((r) => ({ team: r.team, score: points(r.score) })) : [{ team: '', score: '' }]);
  const [error, setError] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<TeamSuggestion[]>([]);
  const [saved, setSaved] = useState<NightResults | null>(night.posted ? night : null);

  async function send(body: { text?: string; rows?: Row[]; acceptNew?: boolean }) {
    setError(null);
    setSuggestions([]);
    try {
      const r = await post.mutateAsync({
        quizId: night.quizId,
        body: body.rows ? { rows: body.rows, acceptNew: body.acceptNew } : { text: body.text ?? '', acceptNew: body.acceptNew },
      });
      setSaved(r);
      toast({ title: r.corrected ? 'Resultaten är rättade' : 'Resultaten är sparade', variant: 'success' });
    } catch (err) {
      if (err instanceof ApiError && Array.isArray(err.details?.suggestions)) setSuggestions(err.details.suggestions as TeamSuggestion[]);
      else setError(err instanceof Error ? err.message : 'Något gick fel');
    }
  }
  const current = (acceptNew?: boolean) => (mode === 'paste' ? { text, acceptNew } : { rows, acceptNew });

  /** "Ja": the line names the proposed team from now on; sent again. */
  function accept(s: TeamSuggestion) {
    if (mode === 'rows') {
      const next = rows.map((r, i) => (i === s.line - 1 ? { ...r, team: s.team.name } : r));
      setRows(next);
      void send({ rows: next });
      return;
    }
    const parsed = parseResultsText(text);
    const lines = text.split(/\r\n|\r|\n/);
    const hit = parsed.ok ? parsed.lines.find((l) => l.line === s.line) : undefined;
    if (hit) lines[s.line - 1] = `${s.team.name};${points(hit.score)}`;
    const next = lines.join('\n');
    setText(next);
    void send({ text: next });
  }

  return (
    <section aria-labelledby="editor-heading" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5">
      <h2 id="editor-heading" className="text-xl font-bold">
        Resultat {displayDate(night.date)}
        {night.corrected && <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-sm font-bold text-amber-900">rättad</span>}
      </h2>
      {night.editableUntil ? (
        <p className="text-sm text-slate-700">
          {night.posted ? `Kan rättas till och med ${displayDate(night.editableUntil)}.` : `Kan läggas in till och med ${displayDate(night.editableUntil)}.`}{' '}
          Högst {RESULTS_MAX_TEAMS} lag. Lika poäng ger samma placering.
        </p>
      ) : (
        <p className="text-sm text-slate-700">Resultaten kan inte längre ändras.</p>
      )}
      <div role="tablist" aria-label="Sätt att mata in" className="flex gap-2 border-b border-slate-200">
        {(
          [
            ['paste', 'Klistra in'],
            ['rows', 'Rad för rad'],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={mode === key}
            onClick={() => setMode(key)}
            className={`-mb-px border-b-2 px-4 py-2 font-semibold ${mode === key ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600'}`}
          >
            {label}
          </button>
        ))}
      </div>
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void send(current());
        }}
      >
        {mode === 'paste' ? (
          <TextArea
            label="Ett lag per rad: Lagnamn;poäng"
            hint="Tabb eller mellanslag före poängen går också bra. Lagkoden kan skrivas i stället för namnet."
            rows={10}
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={error ?? undefined}
          />
        ) : (
          <div className="space-y-2">
            {rows.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
              <div key={i} className="grid grid-cols-[1fr_7rem_auto] items-end gap-2">
                <TextField
                  label={`Lag, rad ${i + 1}`}
                  value={r.team}
                  onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, team: e.target.value } : x)))}
                />
                <TextField
                  label="Poäng"
                  inputMode="decimal"
                  value={r.score}
                  onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, score: e.target.value } : x)))}
                />
                <Button variant="ghost" onClick={() => setRows(rows.filter((_, j) => j !== i))} disabled={rows.length === 1}>
                  Ta bort<span className="sr-only"> rad {i + 1}</span>
                </Button>
              </div>
            ))}
            {rows.length < RESULTS_MAX_TEAMS && (
              <Button variant="secondary" onClick={() => setRows([...rows, { team: '', score: '' }])}>
                Lägg till rad
              </Button>
            )}
            {error && (
              <p role="alert" className="text-sm font-medium text-red-700">
                {error}
              </p>
            )}
          </div>
        )}
        {mode === 'paste' && error && (
          <p role="alert" className="sr-only">
            {error}
          </p>
        )}
        {suggestions.length > 0 && (
          <div role="alert" className="space-y-2 rounded-xl bg-amber-50 p-4 text-amber-950">
            {suggestions.map((s) => (
              <div key={s.line} className="flex flex-wrap items-center gap-2">
                <span>
                  Rad {s.line}: Menade du <strong>{s.team.name}</strong> i stället för ”{s.typed}”?
                </span>
                <Button onClick={() => accept(s)}>Ja, {s.team.name}</Button>
              </div>
            ))}
            <Button variant="secondary" onClick={() => void send(current(true))}>
              Nej, spara som nya lag
            </Button>
          </div>
        )}
        <Button type="submit" disabled={post.isPending || !night.editableUntil}>
          {night.posted || saved ? 'Spara rättelse' : 'Spara resultat'}
        </Button>
      </form>
      {saved && saved.rows.length > 0 && (
        <table className="w-full text-left" aria-label="Sparat resultat">
          <thead className="text-sm">
            <tr>
              <th scope="col">Plats</th>
              <th scope="col">Lag</th>
              <th scope="col">Lagkod</th>
              <th scope="col" className="text-right">
                Poäng
              </th>
            </tr>
          </thead>
          <tbody>
            {saved.rows.map((r) => (
              <tr key={r.slug} className="border-t border-slate-200">
                <td className="py-1 font-bold">{r.rank}</td>
                <td>
                  <a href={`/lag/${r.slug}`} className="text-brand-700 underline">
                    {r.team}
                  </a>
                </td>
                <td className="font-mono text-sm">{r.code}</td>
                <td className="text-right">{points(r.score)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
