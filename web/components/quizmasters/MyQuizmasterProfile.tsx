/**
 * "Min quizmasterprofil" on /account (issue 48): shown only to an account that claimed a profile. The quizmaster
 * edits the bio and the photo (JPEG, PNG or WebP, at most 2 MB; stored resized by the server, which says what it
 * refuses in Swedish) — nothing else.
 */
import { useState, type ChangeEvent } from 'react';
import { PHOTO_MAX_BYTES, PHOTO_SIDE, PHOTO_TOO_BIG, PHOTO_TYPES, QUIZMASTER_BIO_MAX } from '../../../worker/features/quizmasters/contract';
import { quizmasterKeys, useEditMyProfile, useMyQuizmasterProfile, type QuizmasterSummary } from '../../api/quizmasters';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../ui/Button';
import { TextArea } from '../ui/Field';
import { toast } from '../ui/Toast';

export function MyQuizmasterProfile() {
  const me = useMyQuizmasterProfile();
  if (!me.data) return null;
  return <ProfileForm key={me.data.id} profile={me.data} />;
}

function ProfileForm({ profile }: { profile: QuizmasterSummary }) {
  const [bio, setBio] = useState(profile.bio ?? '');
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const edit = useEditMyProfile();
  const client = useQueryClient();

  async function save() {
    try {
      await edit.mutateAsync(bio.trim() ? bio : null);
      toast({ title: 'Presentationen är sparad', variant: 'success' });
    } catch (err) {
      toast({ title: 'Kunde inte spara', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }

  async function upload(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    setPhotoError(null);
    if (file.size > PHOTO_MAX_BYTES) return setPhotoError(PHOTO_TOO_BIG);
    setUploading(true);
    try {
      const res = await fetch('/api/quizmaster/me/photo', { method: 'PUT', body: file, headers: { 'content-type': file.type || 'application/octet-stream' } });
      const body = (await res.json()) as { error?: { message: string } };
      if (!res.ok) setPhotoError(body.error?.message ?? 'Kunde inte ladda upp bilden.');
      else await client.invalidateQueries({ queryKey: quizmasterKeys.me() });
    } finally {
      setUploading(false);
    }
  }

  return (
    <section aria-labelledby="my-qm-heading" className="mt-6 space-y-3 rounded-2xl border border-slate-200 bg-white p-6">
      <h2 id="my-qm-heading" className="text-lg font-bold">
        Min quizmasterprofil
      </h2>
      <p>
        <a className="font-semibold text-brand-700 underline" href={`/quizmaster/${profile.slug}`}>
          {profile.name}
        </a>
      </p>
      {profile.photoUrl && (
        <img src={profile.photoUrl} alt={`Foto på ${profile.name}`} width={96} height={96} className="h-24 w-24 rounded-full object-cover" />
      )}
      <div>
        <label htmlFor="qm-photo" className="block font-semibold">
          Bild (JPEG eller PNG, högst 2 MB, förminskas till {PHOTO_SIDE} pixlar; WebP högst {PHOTO_SIDE} pixlar)
        </label>
        <input id="qm-photo" type="file" accept={PHOTO_TYPES.join(',')} onChange={(e) => void upload(e)} disabled={uploading} className="mt-1" />
        {photoError && (
          <p role="alert" className="mt-1 text-sm font-semibold text-red-700">
            {photoError}
          </p>
        )}
      </div>
      <TextArea label="Presentation" value={bio} maxLength={QUIZMASTER_BIO_MAX} rows={5} onChange={(e) => setBio(e.target.value)} />
      <div className="flex justify-end">
        <Button disabled={edit.isPending} onClick={() => void save()}>
          {edit.isPending ? 'Sparar...' : 'Spara presentationen'}
        </Button>
      </div>
    </section>
  );
}
