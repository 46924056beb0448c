import { useEffect } from 'react';
import { displayDate, displayPrice, displayTime } from '../../../worker/lib/swedish';
import { track } from '../analytics/beacon';
import { useSession } from '../../lib/session';
import type { ListingQuiz } from '../../pages/types';
import { AddToCalendar } from '../calendar/AddToCalendar';
import { ShareButton } from '../share/ShareButton';
import { QuizTrust } from '../feedback/QuizTrust';
import { Dialog } from '../ui/Dialog';
import { venueHref } from './urls';
import { FollowButton } from '../follows/FollowButton';

/** Every field of a quiz (spec 01 §2 "A quiz card opens a detail dialog"); premium also the phone. */
export function QuizDetailDialog({ quiz, onClose }: { quiz: ListingQuiz | null; onClose: () => void }) {
  const session = useSession();
  const signedOut = session.status === 'error' || (session.status === 'ready' && !session.session.user);
  const name = quiz ? quiz.title || quiz.venue.name : '';
  // Counted once per opening (issue 18); the owner's own opens are dropped by the Worker.
  useEffect(() => {
    if (quiz) track('detail_open', { quizId: quiz.id });
  }, [quiz?.id]);
  return (
    <Dialog open={!!quiz} onClose={onClose} title={name} size="lg">
      {quiz && (
        <div className="space-y-4 text-slate-800">
          {quiz.isCancelled && <p className="rounded-xl bg-red-50 px-3 py-2 font-bold text-red-800">Inställt – det här tillfället blir inte av.</p>}
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
            <dt className="font-semibold">Ställe</dt>
            <dd>{quiz.venue.name}{quiz.location.name !== quiz.venue.name ? ` – ${quiz.location.name}` : ''}</dd>
            <dt className="font-semibold">Datum</dt>
            <dd>{displayDate(quiz.date)}</dd>
            <dt className="font-semibold">Tid</dt>
            <dd>{displayTime(quiz.startTime)}</dd>
            <dt className="font-semibold">Adress</dt>
            <dd>
              {quiz.location.address}, {quiz.location.city}
            </dd>
            {(quiz.location.website || quiz.venue.website) && (
              <>
                <dt className="font-semibold">Webbplats</dt>
                <dd>
                  <a href={(quiz.location.website || quiz.venue.website)!} className="text-brand-700 underline" rel="noopener noreferrer" target="_blank" data-track="click_website" data-track-quiz={quiz.id}>
                    {(quiz.location.website || quiz.venue.website)!.replace(/^https?:\/\//, '')}
                  </a>
                </dd>
              </>
            )}
            {quiz.tier === 'premium' && quiz.location.phone && (
              <>
                <dt className="font-semibold">Telefon</dt>
                <dd>
                  <a href={`tel:${quiz.location.phone}`} className="text-brand-700 underline" data-track="click_phone" data-track-quiz={quiz.id}>
                    {quiz.location.phone}
                  </a>
                </dd>
              </>
            )}
            <dt className="font-semibold">Quizmaster</dt>
            <dd>{quiz.quizmaster || 'Ej angiven'}</dd>
            <dt className="font-semibold">Max lagstorlek</dt>
            <dd>{quiz.teamSize ? `${quiz.teamSize} personer` : 'Ej angiven'}</dd>
            <dt className="font-semibold">Kategori</dt>
            <dd>{quiz.categoryLabel}</dd>
            <dt className="font-semibold">Pris</dt>
            <dd>{displayPrice(quiz.price)}</dd>
          </dl>
          {quiz.description && (
            <section>
              <h3 className="font-bold">Om quizet</h3>
              <p className="mt-1 whitespace-pre-line">{quiz.description}</p>
            </section>
          )}
          {quiz.venue.description && (
            <section>
              <h3 className="font-bold">Om {quiz.venue.name}</h3>
              <p className="mt-1 whitespace-pre-line">{quiz.venue.description}</p>
            </section>
          )}
          <QuizTrust quizId={quiz.id} />
          <div className="flex flex-wrap items-start gap-4 border-t border-slate-200 pt-4 text-sm font-semibold">
            <AddToCalendar quiz={quiz} />
            <ShareButton path={venueHref(quiz.location.citySlug, quiz.venue.slug)} title={`Pubquiz på ${quiz.venue.name}`} track={{ quizId: quiz.id }} />
            <a href={venueHref(quiz.location.citySlug, quiz.venue.slug)} className="text-brand-700 underline">
              Alla quiz på {quiz.venue.name}
            </a>
            <FollowButton target={{ placeId: quiz.location.id, label: quiz.location.name }} track={{ quizId: quiz.id }} />
            {quiz.unclaimed && signedOut && (
              <a href={`/register?takeoverVenue=${encodeURIComponent(quiz.venue.id)}`} target="_blank" rel="noopener" className="text-brand-700 underline">
                Äger du {quiz.venue.name}? Ta kontroll över verksamheten
              </a>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}
