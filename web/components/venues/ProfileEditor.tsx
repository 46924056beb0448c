import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  ProfileSchema,
  UpdateVenueSchema,
  type ProfileInput,
  type ProfileResponse,
  type UpdateVenueData,
  type UpdateVenueInput,
} from '../../../worker/features/venues/contract';
import { useDeleteVenue } from '../../api/admin';
import { useProfile, useSaveProfile, useUpdateVenue, type OwnerVenue } from '../../api/venues';
import { setServerErrors } from '../../lib/form';
import { Link } from 'react-router';
import AccountTab from '../account/AccountTab';
import { FOLLOWS_PATH } from '../follows/target';
import SecurityTab from '../account/SecurityTab';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextArea, TextField } from '../ui/Field';
import { TownField } from '../ui/TownField';
import { Spinner } from '../ui/Spinner';
import { Tabs } from '../ui/Tabs';
import { toast } from '../ui/Toast';
import { ConfirmDialog } from '../ui/ConfirmDialog';

const TABS = ['Verksamhet', 'Kontakt', 'Konto', 'Säkerhet'] as const;
type Tab = (typeof TABS)[number];

/** Business profile editor with tabs Verksamhet, Kontakt, Konto and Säkerhet (spec 02 §2.3). */
export function ProfileEditor({
  open,
  onClose,
  venue,
  isSuperadmin = false,
}: {
  open: boolean;
  onClose: () => void;
  venue: OwnerVenue;
  isSuperadmin?: boolean;
}) {
  const [tab, setTab] = useState<Tab>('Verksamhet');
  useEffect(() => {
    if (open) setTab('Verksamhet');
  }, [open]);

  return (
    <Dialog open={open} onClose={onClose} title="Verksamhetsprofil" size="lg">
      <Tabs label="Profilens delar" tabs={TABS.map((t) => ({ id: t, label: t }))} active={tab} onChange={setTab} variant="pills" className="mb-5">
        {tab === 'Verksamhet' && <VenueTab venue={venue} />}
        {tab === 'Kontakt' && <ContactTab />}
        {tab === 'Konto' && (
          <>
            <p className="mb-4 rounded-xl bg-slate-50 px-4 py-3 text-slate-800">
              Dina bevakningar och påminnelser finns under{' '}
              <Link to={FOLLOWS_PATH} className="font-semibold text-brand-700 underline">
                Mina bevakningar
              </Link>
              .
            </p>
            <AccountTab />
            {isSuperadmin && <DeleteVenueSection venue={venue} />}
          </>
        )}
        {tab === 'Säkerhet' && <SecurityTab />}
      </Tabs>
    </Dialog>
  );
}

function VenueTab({ venue }: { venue: OwnerVenue }) {
  const update = useUpdateVenue();
  const { register, handleSubmit, setError, formState } = useForm<UpdateVenueInput, unknown, UpdateVenueData>({
    resolver: zodResolver(UpdateVenueSchema),
    defaultValues: {
      name: venue.name,
      description: venue.description ?? '',
      address: venue.address ?? '',
      city: venue.city ?? '',
      phone: venue.phone ?? '',
      website: venue.website ?? '',
      isPublic: venue.isPublic,
    },
  });
  const errors = formState.errors;

  const submit = handleSubmit(async (body) => {
    try {
      await update.mutateAsync({ id: venue.id, body });
      toast({ title: 'Verksamheten har uppdaterats', variant: 'success' });
    } catch (err) {
      setServerErrors(setError, err);
      toast({ title: 'Kunde inte spara verksamheten', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  });

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <TextField label="Verksamhetens namn" required error={errors.name?.message} {...register('name')} />
      <TextArea label="Beskrivning" error={errors.description?.message} hint="Visas på verksamhetens publika sida." {...register('description')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Adress" autoComplete="street-address" error={errors.address?.message} {...register('address')} />
        <TownField error={errors.city?.message} {...register('city')} />
        <TextField label="Telefon" type="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
        <TextField label="Webbplats" type="url" inputMode="url" placeholder="https://" error={errors.website?.message} {...register('website')} />
      </div>
      <label className="flex items-start gap-3 rounded-xl border border-slate-200 p-3">
        <input type="checkbox" className="mt-1 h-4 w-4" {...register('isPublic')} />
        <span>
          <span className="block font-semibold">Synlig för besökare</span>
          <span className="block text-sm text-slate-600">När rutan inte är ikryssad visas verksamhetens quiz inte i listningen.</span>
        </span>
      </label>
      <div className="flex justify-end">
        <Button type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Sparar...' : 'Spara verksamhet'}
        </Button>
      </div>
    </form>
  );
}

function ContactTab() {
  const profile = useProfile();
  if (profile.isError) return <p role="alert">Kunde inte hämta kontaktuppgifterna. Försök igen senare.</p>;
  if (profile.isPending) return <Spinner label="Hämtar kontaktuppgifter..." />;
  return <ContactForm profile={profile.data} />;
}

function ContactForm({ profile }: { profile: ProfileResponse }) {
  const saveProfile = useSaveProfile();
  const { register, handleSubmit, setError, formState } = useForm<ProfileInput, unknown, z.output<typeof ProfileSchema>>({
    resolver: zodResolver(ProfileSchema),
    defaultValues: { firstName: profile.firstName ?? '', lastName: profile.lastName ?? '', phone: profile.phone ?? '' },
  });
  const errors = formState.errors;

  const submit = handleSubmit(async (body) => {
    try {
      await saveProfile.mutateAsync(body);
      toast({ title: 'Kontaktuppgifterna har sparats', variant: 'success' });
    } catch (err) {
      setServerErrors(setError, err);
      toast({ title: 'Kunde inte spara kontaktuppgifterna', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  });

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <p className="text-sm text-slate-700">Dina kontaktuppgifter visas inte för besökare.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Förnamn" autoComplete="given-name" error={errors.firstName?.message} {...register('firstName')} />
        <TextField label="Efternamn" autoComplete="family-name" error={errors.lastName?.message} {...register('lastName')} />
      </div>
      <TextField label="Telefon" type="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
      <div className="flex justify-end">
        <Button type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Sparar...' : 'Spara kontaktuppgifter'}
        </Button>
      </div>
    </form>
  );
}

/**
 * A superadmin deletes the business (its places and quizzes go with it) instead of an account; their own
 * superadmin account is unaffected, and they return to /superadmin (spec 02 §6).
 */
function DeleteVenueSection({ venue }: { venue: OwnerVenue }) {
  const [confirming, setConfirming] = useState(false);
  const removal = useDeleteVenue();
  const busy = removal.isPending;
  async function remove() {
    try {
      await removal.mutateAsync(venue.id);
      toast({ title: 'Verksamheten har raderats', variant: 'success' });
      window.location.assign('/superadmin');
    } catch (err) {
      toast({ title: 'Kunde inte radera verksamheten', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
      setConfirming(false);
    }
  }
  return (
    <section aria-labelledby="delete-venue-heading" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4">
      <h3 id="delete-venue-heading" className="font-bold text-red-900">
        Radera verksamheten
      </h3>
      <p className="mt-1 text-sm text-red-900">Som superadmin raderar du verksamheten {venue.name} med alla platser och quiz. Ditt eget konto påverkas inte.</p>
      <Button variant="danger" className="mt-3" onClick={() => setConfirming(true)}>
        Radera verksamheten
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Radera verksamheten?"
        description={`${venue.name} med alla platser och quiz raderas. Detta kan inte ångras.`}
        confirmLabel="Radera"
        busyLabel="Raderar..."
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
