import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { PauseSeriesSchema, type PauseSeriesInput } from '../../../worker/features/quizzes/contract';
import { usePauseSeries } from '../../api/quizzes';
import { setServerErrors } from '../../lib/form';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { DateTimeField } from '../ui/Field';
import { toast } from '../ui/Toast';

/**
 * Pause a series between two dates (e.g. a summer break): the occurrences in the range are shown as
 * 'Inställt'. 'Ångra paus' clears the mark on the same range.
 */
export function PauseSeriesDialog({ recurrenceId, open, onClose }: { recurrenceId: string; open: boolean; onClose: () => void }) {
  const pause = usePauseSeries();
  const { register, handleSubmit, setError, watch, formState } = useForm<PauseSeriesInput>({
    resolver: zodResolver(PauseSeriesSchema),
    defaultValues: { from: '', to: '' },
  });
  const { errors, isSubmitting } = formState;

  const run = (kind: 'pause' | 'resume') =>
    handleSubmit(async (body) => {
      try {
        const n = await pause.mutateAsync({ id: recurrenceId, kind, body });
        if (kind === 'pause') toast({ title: 'Serien är pausad', description: `${n} quiz markerade som inställda.`, variant: 'success' });
        else toast({ title: 'Pausen är ångrad', description: `${n} quiz är åter planerade.`, variant: 'success' });
        onClose();
      } catch (err) {
        setServerErrors(setError, err);
        toast({ title: 'Kunde inte ändra serien', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
      }
    });

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Pausa serien"
      description="Quiz mellan datumen visas som 'Inställt' för besökare. Du kan ångra pausen för samma period."
      size="sm"
    >
      <div className="space-y-3">
        <DateTimeField label="Från och med" type="date" current={watch('from')} error={errors.from?.message} {...register('from')} />
        <DateTimeField label="Till och med" type="date" current={watch('to')} min={watch('from')} error={errors.to?.message} {...register('to')} />
      </div>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" disabled={isSubmitting} onClick={run('resume')}>
          Ångra paus
        </Button>
        <Button disabled={isSubmitting} onClick={run('pause')}>
          Pausa
        </Button>
      </div>
    </Dialog>
  );
}
