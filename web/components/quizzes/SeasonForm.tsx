import { useState } from 'react';
import { type CreateSeasonInput, CreateSeasonSchema, SEASON_PRESET_LABELS, SEASON_PRESETS, type SeasonPreset } from '../../../worker/features/results/contract';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { SelectField, TextField } from '../ui/Field';
import { toast } from '../ui/Toast';

/** Field errors by the first path segment, from a zod result's issues or the API's. */
const byField = (issues: Array<{ path: string; message: string }>) => Object.fromEntries(issues.map((i) => [i.path.split('.')[0] ?? '', i.message]));

/**
 * A new season (issue 46.3): a name, a date range and a scoring preset (with its N or percentage), checked in the
 * browser with the server's contract before `create` sends it. A series' seasons and a league's use it.
 */
export function SeasonForm({ create, pending, label }: { create: (body: CreateSeasonInput) => Promise<unknown>; pending: boolean; label: string }) {
  const [name, setName] = useState('');
  const [startDate, setStart] = useState('');
  const [endDate, setEnd] = useState('');
  const [preset, setPreset] = useState<SeasonPreset>('total');
  const [bestN, setBestN] = useState('8');
  const [minPct, setMinPct] = useState('50');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const body = {
      name,
      startDate,
      endDate,
      preset,
      ...(preset === 'best_n' ? { bestN: Number(bestN) } : {}),
      ...(preset === 'min_attendance' ? { minAttendancePct: Number(minPct) } : {}),
    };
    const parsed = CreateSeasonSchema.safeParse(body);
    if (!parsed.success) return setErrors(byField(parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))));
    setErrors({});
    try {
      await create(parsed.data);
      toast({ title: 'Säsongen är skapad', variant: 'success' });
      setName('');
    } catch (err) {
      setErrors(err instanceof ApiError && err.issues?.length ? byField(err.issues) : { _: err instanceof Error ? err.message : 'Något gick fel' });
    }
  }

  return (
    <form className="grid gap-3 sm:grid-cols-2" onSubmit={submit} noValidate aria-label={label}>
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
      {errors._ && (
        <p role="alert" className="text-sm font-semibold text-red-700 sm:col-span-2">
          {errors._}
        </p>
      )}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={pending}>
          Skapa säsong
        </Button>
      </div>
    </form>
  );
}
