/** Quizmaster profiles (issue 48): the owner's, the quizmaster's and the public shapes, validated in Swedish. */
import * as z from 'zod';
import { textField } from '../../lib/zod-text';
import { EmailSchema } from '../auth/contract';
import { lazySchema } from '../../lib/lazy-schema';

export const QUIZMASTER_NAME_MAX = 100;
export const QUIZMASTER_BIO_MAX = 600;
/**
 * The photo as uploaded: at most 2 MB, JPEG, PNG or WebP by its bytes. Stored resized (photo.ts): a PNG whose longest
 * side is PHOTO_SIDE (the page shows it at 160 × 160); a WebP only as given, when it is that small already.
 */
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
/** The stored photo's longest side, in pixels. */
export const PHOTO_SIDE = 480;
/** The largest image decoded (4 bytes a pixel of the Worker's memory while it is resized): a 12 MP phone photo fits. */
export const PHOTO_MAX_SIDE = 4096;
export const PHOTO_MAX_PIXELS = 12_600_000;
export const PHOTO_TOO_BIG = 'Bilden får vara högst 2 MB.';
export const PHOTO_BAD_TYPE = 'Bilden måste vara JPEG, PNG eller WebP.';
export const PHOTO_TOO_MANY_PIXELS = 'Bilden får vara högst 4096 pixlar på längsta sidan och högst 12 megapixlar.';
export const PHOTO_UNREADABLE = 'Bilden kunde inte läsas. Välj en annan JPEG-, PNG- eller WebP-bild.';
export const PHOTO_WEBP_TOO_LARGE = `En WebP-bild får vara högst ${PHOTO_SIDE} pixlar på längsta sidan. Välj en JPEG- eller PNG-bild, så förminskar vi den.`;
/** Typeahead answers at most this many profiles. */
export const TYPEAHEAD_MAX = 8;
/** An invitation link is valid this many days and used once. */
export const INVITE_TTL_DAYS = 14;
export const INVITE_TTL_S = INVITE_TTL_DAYS * 24 * 3600;
/** Invitations an owner may send a day, and invitations one address may get a day (counted before the mail). */
export const INVITES_PER_OWNER_DAY = 20;
export const INVITES_PER_ADDRESS_DAY = 3;
export const INVITE_WINDOW_MS = 24 * 3600 * 1000;
/** The invitation mail's stop link. */
export const INVITE_STOP_TTL_S = 400 * 24 * 3600;
/** How many upcoming quizzes the profile page lists (each series contributes its next dates). */
export const PROFILE_UPCOMING_MAX = 12;

/** Lower case, runs of white space one space, trimmed: how a free-text quizmaster matches a profile's name. */
export function nameKeyOf(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

const Name = lazySchema(() => textField('Namnet', QUIZMASTER_NAME_MAX, { missing: 'Ange quizmasterns namn' }));
const Bio = lazySchema(() =>
  textField('Presentationen', QUIZMASTER_BIO_MAX, { multiLine: true })
    .nullish()
    .transform((v) => (v ? v : null)),
);
const Id = lazySchema(() => z.string({ error: 'Ogiltigt id' }).min(1, 'Ogiltigt id').max(64, 'Ogiltigt id'));

export const TypeaheadQuerySchema = lazySchema(() =>
  z.object({
    q: textField('Sökningen', QUIZMASTER_NAME_MAX).describe('Sökning'),
  }),
);
export const CreateQuizmasterSchema = lazySchema(() => z.object({ name: Name.describe('Namn'), bio: Bio.describe('Presentation') }));
export type CreateQuizmasterData = z.infer<typeof CreateQuizmasterSchema>;
/** PUT /api/owner/quizzes/:id/quizmaster: link the quiz's series (or the single quiz) to a profile, or unlink (null). */
export const LinkQuizmasterSchema = lazySchema(() => z.object({ quizmasterId: Id.nullable().describe('Quizmaster') }));
export const InviteSchema = lazySchema(() => z.object({ email: EmailSchema }));
export const EditOwnProfileSchema = lazySchema(() => z.object({ bio: Bio.describe('Presentation') }));
export const IdParamSchema = lazySchema(() => z.object({ id: Id }));

/** A profile as the owner's typeahead and the quizmaster's own page see it. */
export interface QuizmasterSummary {
  id: string;
  name: string;
  slug: string;
  bio: string | null;
  photoUrl: string | null;
  claimed: boolean;
}

/** A free-text quizmaster on the owner's quizzes that equals a profile's name (case and spaces aside): offered, never merged. */
export interface QuizmasterSuggestion {
  quizId: string;
  text: string;
  profile: QuizmasterSummary;
}

/** The quizmaster of a card (resolved at read time): name and profile slug. */
export interface QuizmasterRef {
  name: string;
  slug: string;
}
