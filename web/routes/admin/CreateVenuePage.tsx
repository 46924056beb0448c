/** /admin/create-venue: register a business with its first place (spec 02 §2.5, §5). */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { RegisterVenueSchema, type RegisterVenueData, type RegisterVenueInput } from '../../../worker/features/venues/contract';
import { useRegisterVenue } from '../../api/venues';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextArea, TextField } from '../../components/ui/Field';
import { toast } from '../../components/ui/Toast';
import { setServerErrors } from '../../lib/form';
import { invalidateSession } from '../../lib/session';

export default function CreateVenuePage() {
  return <RequireAuth require="login">{() => <CreateVenueForm />}</RequireAuth>;
}

function CreateVenueForm() {
  const navigate = useNavigate();
  const registerVenue = useRegisterVenue();
  const { register, handleSubmit, setError, formState } = useForm<RegisterVenueInput, unknown, RegisterVenueData>({
    resolver: zodResolver(RegisterVenueSchema),
    defaultValues: { name: '', address: '', city: '', phone: '', description: '' },
  });
  const errors = formState.errors;

  const submit = handleSubmit(async (body) => {
    try {
      await registerVenue.mutateAsync(body);
      invalidateSession();
      toast({ title: 'Verksamheten har skapats', variant: 'success' });
      navigate('/admin');
    } catch (err) {
      setServerErrors(setError, err);
      toast({ title: 'Misslyckades skapa lokal', description: 'Något gick fel. Försök igen senare.', variant: 'destructive' });
    }
  });

  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <h1 className="text-3xl font-extrabold">Registrera verksamhet</h1>
      <p className="mt-2 text-slate-700">Fyll i uppgifterna om stället där quizet hålls. Du kan lägga till fler platser senare.</p>
      <form onSubmit={submit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <TextField label="Namn" required error={errors.name?.message} {...register('name')} />
        <TextField label="Adress" required autoComplete="street-address" error={errors.address?.message} {...register('address')} />
        <TextField label="Stad" required autoComplete="address-level2" error={errors.city?.message} {...register('city')} />
        <TextField label="Telefon (valfritt)" type="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
        <TextArea label="Beskrivning (valfritt)" error={errors.description?.message} {...register('description')} />
        <div className="flex justify-end gap-2">
          <Link to="/admin" className={buttonClass('secondary')}>
            Avbryt
          </Link>
          <Button type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Sparar...' : 'Registrera verksamhet'}
          </Button>
        </div>
      </form>
    </div>
  );
}
