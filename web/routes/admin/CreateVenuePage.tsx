/**
 * /admin/create-venue: register a business with its first place (spec 02 §2.5, §5): the one way in for
 * a new owner (issue 29.3). The dashboard is loaded before returning to /admin, so it shows at once.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { RegisterVenueSchema, type RegisterVenueData, type RegisterVenueInput } from '../../../worker/features/venues/contract';
import { useQueryClient } from '@tanstack/react-query';
import { prefetchOwnDashboard, useRegisterVenue } from '../../api/venues';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextArea, TextField } from '../../components/ui/Field';
import { TownField } from '../../components/ui/TownField';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';
import { setServerErrors } from '../../lib/form';
import { invalidateSession } from '../../lib/session';

export default function CreateVenuePage() {
  return <RequireAuth require="login">{() => <CreateVenueForm />}</RequireAuth>;
}

function CreateVenueForm() {
  const navigate = useNavigate();
  const registerVenue = useRegisterVenue();
  const qc = useQueryClient();
  const { register, handleSubmit, setError, formState } = useForm<RegisterVenueInput, unknown, RegisterVenueData>({
    resolver: zodResolver(RegisterVenueSchema),
    defaultValues: { name: '', address: '', city: '', phone: '', description: '' },
  });
  const errors = formState.errors;

  const submit = handleSubmit(async (body) => {
    try {
      const { venue } = await registerVenue.mutateAsync(body);
      invalidateSession();
      await prefetchOwnDashboard(qc).catch(() => undefined);
      toast({ title: 'Verksamheten har skapats', description: `${venue.name} och platsen är klara. Nu kan du skapa ditt första quiz.`, variant: 'success' });
      navigate('/admin');
    } catch (err) {
      setServerErrors(setError, err);
      // The server's own words (which field, or why); a network failure says so.
      const description =
        err instanceof ApiError ? (err.status === 0 ? 'Ingen anslutning till servern. Kontrollera internet och försök igen.' : err.message) : 'Försök igen.';
      toast({ title: 'Verksamheten kunde inte registreras', description, variant: 'destructive' });
    }
  });

  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <h1 className="text-3xl font-extrabold">Registrera verksamhet</h1>
      <p className="mt-2 text-slate-700">
        Fyll i uppgifterna om stället där quizet hålls. Verksamheten och dess första plats skapas i ett steg; fler platser kan du lägga till senare.
      </p>
      <form onSubmit={submit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <TextField label="Namn" required error={errors.name?.message} {...register('name')} />
        <TextField label="Adress" required autoComplete="street-address" error={errors.address?.message} {...register('address')} />
        <TownField required error={errors.city?.message} {...register('city')} />
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
