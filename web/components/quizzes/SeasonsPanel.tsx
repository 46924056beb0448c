import { useState } from 'react';
import { SEASON_PRESET_LABELS, SEASON_PRESETS, type SeasonPreset } from '../../../worker/lib/season-presets';
import { displayDate } from '../../../worker/lib/swedish';
import { useCreateSeason, useSeasons } from '../../api/results';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { SelectField, TextField } from '../ui/Field';
import { toast } from '../ui/Toast';

/** A series' seasons (issue 46): the list and a form for a new one (name, date range, scoring preset). */
export function SeasonsPanel({ seriesId }: { seriesId: string }) {
  const seasons = useSeasons(seriesId);
  const create = useCreateSeason();
  const [name, setName] = useState('');
  const [startDate, setStart] = useState('');
  const [endDate, setEnd] = useState('');
  const [preset, setPreset] = useState<SeasonPreset>('total');
  const [bestN, setBestN] = useState('8');
  const [minPct, setMinPct] = useState('50');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      await create.mutateAsync({
        seriesId,
        body: {
          name,
          startDate,
          endDate,
          preset,
          ...(preset === 'best_n' ? { bestN: Number(bestN) } : {}),
          ...(preset === 'min_attendance' ? { minAttendancePct: Number(minPct) } : {}),
        },
      });
      toast({ title: 'Säsongen är skapad', variant: 'success' });
      setName('');
    } catch (err) {
      const out: Record<string, string> = {};
      if (err instanceof ApiError) for (const i of err.issues ?? []) out[i.path] ??= i.message;
      if (!Object.keys(out).length) out.name = err instanceof Error ? err.message : 'Något gick fel';
      setErrors(out);
    }
  }

  return (
    <section aria-labelledby="seasons-heading" className="mt-8 space-y-4 rounded-2xl border border-slate-200 bg-white p-5">
      <h2 id="seasons-heading" className="text-xl font-bold">
        Säsonger och tabeller
      </h2>
      {seasons.data && seasons.data.seasons.length > 0 && (
        <ul className="space-y-1">
          {seasons.data.seasons.map((s) => (
            <li key={s.id}>
              <span className="font-semibold">{s.name}</span> · {displayDate(s.startDate)} – {displayDate(s.endDate)} · {SEASON_PRESET_LABELS[s.preset]}
              {s.bestN ? ` (${s.bestN})` : ''}
              {s.minAttendancePct ? ` (${s.minAttendancePct} %)` : ''}
            </li>
          ))}
        </ul>
      )}
      <form className="grid gap-3 sm:grid-cols-2" onSubmit={submit}>
        <TextField label="Säsongens namn" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
        <SelectField label="Poängregel" value={preset} onChange={(e) => setPreset(e.target.value as SeasonPreset)} error={errors.preset}>
          {SEASON_PRESETS.map((p) => (
            <option key={p} value={p}>
              {SEASON_PRESET_LABELS[p]}
            </option>
          ))}
        </SelectField>
        <TextField label="Startdatum" type="date" value={startDate} onChange={(e) => setStart(e.target.value)} error={errors.startDate} />
        <TextField label="Slutdatum" type="date" value={endDate} onChange={(e) => setEnd(e.target.value)} error={errors.endDate} />
        {preset === 'best_n' && (
          <TextField label="Antal kvällar som räknas" type="number" min={1} value={bestN} onChange={(e) => setBestN(e.target.value)} error={errors.bestN} />
        )}
        {preset === 'min_attendance' && (
          <TextField
            label="Minsta närvaro (procent av kvällarna)"
            type="number"
            min={1}
            max={100}
            value={minPct}
            onChange={(e) => setMinPct(e.target.value)}
            error={errors.minAttendancePct}
          />
        )}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={create.isPending}>
            Skapa säsong
          </Button>
        </div>
      </form>
    </section>
  );
}
