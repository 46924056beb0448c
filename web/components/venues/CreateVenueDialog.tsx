import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { CreateVenueSchema, type CreateVenueInput } from '../../../worker/features/venues/contract';
import { useCreateVenue } from '../../api/venues';
import { setServerErrors } from '../../lib/form';
import { invalidateSession } from '../../lib/session';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { toast } from '../ui/Toast';

/** Create-business dialog: name only, with an explainer (spec 02 §2.3, §5). */
export function CreateVenueDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Skapa verksamhet" description="Verksamheten är det besökarna ser som arrangör, t.ex. puben eller restaurangen.">
      {/* Mounted only while open: every opening starts empty. */}
      <CreateVenueForm onClose={onClose} />
    </Dialog>
  );
}

function CreateVenueForm({ onClose }: { onClose: () => void }) {
  const create = useCreateVenue();
  const { register, handleSubmit, setError, formState } = useForm<CreateVenueInput>({ resolver: zodResolver(CreateVenueSchema), defaultValues: { name: '' } });

  const submit = handleSubmit(async (body) => {
    try {
      await create.mutateAsync(body);
      toast({ title: 'Verksamheten har skapats', description: 'Lägg nu till platsen där quizet hålls.', variant: 'success' });
      invalidateSession();
      onClose();
    } catch (err) {
      setServerErrors(setError, err);
      toast({ title: 'Misslyckades skapa verksamhet', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  });

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <div className="rounded-xl bg-brand-50 p-3 text-sm text-slate-800">
        <p className="font-semibold">Så fungerar det</p>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>En verksamhet kan ha en eller flera platser (lokaler).</li>
          <li>Quiz publiceras på en plats och syns direkt för besökare.</li>
          <li>Adress, beskrivning och kontaktuppgifter kan du fylla i senare.</li>
        </ul>
      </div>
      <TextField label="Verksamhetens namn" required autoFocus error={formState.errors.name?.message} placeholder="T.ex. Puben på hörnet" {...register('name')} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Avbryt
        </Button>
        <Button type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Skapar...' : 'Skapa verksamhet'}
        </Button>
      </div>
    </form>
  );
}
