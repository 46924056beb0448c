import { useState } from 'react';
import { PauseSeriesSchema } from '../../../worker/features/quizzes/contract';
import { issuesToErrors, quizzesApi } from '../../api/quizzes';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { toast } from '../ui/Toast';

/**
 * Pause a series between two dates (e.g. a summer break): the occurrences in the range are shown as
 * 'Inställt'. 'Ångra paus' clears the mark on the same range.
 */
export function PauseSeriesDialog({ recurrenceId, open, onClose, onDone }: { recurrenceId: string; open: boolean; onClose: () => void; onDone: () => void }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function run(kind: 'pause' | 'resume') {
    const parsed = PauseSeriesSchema.safeParse({ from, to });
    if (!parsed.success) return setErrors(issuesToErrors(parsed.error.issues));
    setErrors({});
    setBusy(true);
    try {
      if (kind === 'pause') {
        const r = await quizzesApi.pauseSeries(recurrenceId, { from, to });
        toast({ title: 'Serien är pausad', description: `${r.cancelled} quiz markerade som inställda.`, variant: 'success' });
      } else {
        const r = await quizzesApi.resumeSeries(recurrenceId, { from, to });
        toast({ title: 'Pausen är ångrad', description: `${r.restored} quiz är åter planerade.`, variant: 'success' });
      }
      onDone();
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.issues) setErrors(issuesToErrors(err.issues));
      toast({ title: 'Kunde inte ändra serien', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title="Pausa serien" description="Quiz mellan datumen visas som 'Inställt' för besökare. Du kan ångra pausen för samma period." size="sm">
      <div className="space-y-3">
        <TextField label="Från och med" type="date" value={from} error={errors.from} onChange={(e) => setFrom(e.target.value)} />
        <TextField label="Till och med" type="date" value={to} min={from} error={errors.to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" disabled={busy} onClick={() => run('resume')}>
          Ångra paus
        </Button>
        <Button disabled={busy} onClick={() => run('pause')}>
          Pausa
        </Button>
      </div>
    </Dialog>
  );
}
