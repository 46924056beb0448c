/** /admin/create-venue: register a business with its first place (spec 02 §2.5, §5). */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { RegisterVenueSchema } from '../../../worker/features/venues/contract';
import { venuesApi } from '../../api/venues';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextArea, TextField } from '../../components/ui/Field';
import { toast } from '../../components/ui/Toast';
import { useValidatedSubmit } from '../../components/venues/useValidatedSubmit';
import { invalidateSession } from '../../lib/session';

export default function CreateVenuePage() {
  return <RequireAuth require="login">{() => <CreateVenueForm />}</RequireAuth>;
}

function CreateVenueForm() {
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', address: '', city: '', phone: '', description: '' });
  const { errors, saving, submit: run } = useValidatedSubmit();
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    await run(
      RegisterVenueSchema,
      form,
      async () => {
        await venuesApi.registerVenue(form);
        invalidateSession();
        toast({ title: 'Verksamheten har skapats', variant: 'success' });
        navigate('/admin');
      },
      () => toast({ title: 'Misslyckades skapa lokal', description: 'Något gick fel. Försök igen senare.', variant: 'destructive' }),
    );
  }

  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <h1 className="text-3xl font-extrabold">Registrera verksamhet</h1>
      <p className="mt-2 text-slate-700">Fyll i uppgifterna om stället där quizet hålls. Du kan lägga till fler platser senare.</p>
      <form onSubmit={submit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <TextField label="Namn" required value={form.name} error={errors.name} onChange={set('name')} />
        <TextField label="Adress" required autoComplete="street-address" value={form.address} error={errors.address} onChange={set('address')} />
        <TextField label="Stad" required autoComplete="address-level2" value={form.city} error={errors.city} onChange={set('city')} />
        <TextField label="Telefon (valfritt)" type="tel" autoComplete="tel" value={form.phone} error={errors.phone} onChange={set('phone')} />
        <TextArea label="Beskrivning (valfritt)" value={form.description} error={errors.description} onChange={set('description')} />
        <div className="flex justify-end gap-2">
          <Link to="/admin" className={buttonClass('secondary')}>
            Avbryt
          </Link>
          <Button type="submit" disabled={saving}>
            {saving ? 'Sparar...' : 'Registrera verksamhet'}
          </Button>
        </div>
      </form>
    </div>
  );
}
