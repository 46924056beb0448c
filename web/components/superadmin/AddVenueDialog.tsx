import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { CreateVenueSchema, type CreateVenueInput } from '../../../worker/features/admin/contract';
import { useCreateAdminVenue } from '../../api/admin';
import { setServerErrors } from '../../lib/form';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { toast } from '../ui/Toast';

/** Add-business dialog (spec 02 §5): name required, owner e-mail optional; the owner is the viewer. */
export function AddVenueDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateAdminVenue();
  const { register, handleSubmit, reset, setError, watch, formState } = useForm<CreateVenueInput>({
    resolver: zodResolver(CreateVenueSchema),
    defaultValues: { name: '', ownerEmail: '' },
  });
  const ownerEmail = watch('ownerEmail') ?? '';
  const busy = formState.isSubmitting;

  const close = () => {
    reset();
    onClose();
  };

  const submit = handleSubmit(async (body) => {
    try {
      await create.mutateAsync({ name: body.name, ownerEmail: body.ownerEmail ?? '' });
      toast({ title: 'Verksamheten har skapats framgångsrikt!', variant: 'success' });
      close();
    } catch (err) {
      setServerErrors(setError, err);
      toast({ title: 'Kunde inte skapa verksamheten. Försök igen.', variant: 'destructive' });
    }
  });

  return (
    <Dialog open={open} onClose={close} title="Lägg till verksamhet" description="Skapa en ny verksamhet i katalogen.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField label="Namn *" error={formState.errors.name?.message} required autoFocus {...register('name')} />
        <TextField
          label="Ägarens e-post (valfritt)"
          type="email"
          error={formState.errors.ownerEmail?.message}
          hint={ownerEmail.trim() ? undefined : 'Lämnas fältet tomt blir du ägare till verksamheten.'}
          {...register('ownerEmail')}
        />
        {ownerEmail.trim() && (
          <p role="note" className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            E-postadressen sparas (i en avisering till superadministratörerna) och verksamheten tilldelas dig, det inloggade kontot.
          </p>
        )}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={close} disabled={busy}>
            Avbryt
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Skapar...' : 'Skapa verksamhet'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
