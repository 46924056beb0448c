import { lazy, Suspense, useEffect } from 'react';
import { CalendarDays, MapPin } from '../ui/icons';
import { displayDate, displayPrice, displayTime } from '../../../worker/lib/swedish';
import { QUIZ_LANGUAGE_BADGES } from '../../../worker/lib/quiz-filters';
import { track } from '../analytics/beacon';
import { useSession } from '../../lib/session';
import type { ListingQuiz } from '../../pages/types';
import { AddToCalendar } from '../calendar/AddToCalendar';
import { ShareButton } from '../share/ShareButton';
import { QuizTrust } from '../feedback/QuizTrust';
import { Dialog } from '../ui/Dialog';
import { venueHref } from './urls';
import { FollowButton } from '../follows/FollowButton';
import { directionsUrl } from '../map/loader';
import { QuizmasterLink } from '../quizmasters/QuizmasterLink';

/** "Vi kommer" (issue 47) is a lazy chunk: it needs JavaScript and a fetch anyway, and keeps the first load small. */
const RsvpPanel = lazy(() => import('../rsvp/RsvpPanel').then((m) => ({ default: m.RsvpPanel })));

const CHIP = 'rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800';

/**
 * A quiz at a glance (spec 01 §2 "A quiz card opens a detail dialog"; issue 29.5): the title, one line
 * for when and one for where (with "Vägbeskrivning"), chips for price, team size, category and language, the
 * actions in one bar, then the longer texts. On a 390 × 844 phone the actions show without scrolling.
 * Premium also shows the phone number.
 */
export function QuizDetailDialog({ quiz, onClose }: { quiz: ListingQuiz | null; onClose: () => void }) {
  const session = useSession();
  const signedOut = session.status === 'error' || (session.status === 'ready' && !session.session.user);
  const name = quiz ? quiz.title || quiz.venue.name : '';
  // Counted once per opening (issue 18); the owner's own opens are dropped by the Worker.
  const quizId = quiz?.id;
  useEffect(() => {
    if (quizId) track('detail_open', { quizId });
  }, [quizId]);
  const website = quiz ? quiz.location.website || quiz.venue.website : null;
  return (
    <Dialog open={!!quiz} onClose={onClose} title={name} size="lg">
      {quiz && (
        <div className="space-y-4 text-slate-800">
          {quiz.isCancelled && <p className="rounded-xl bg-red-50 px-3 py-2 font-bold text-red-800">Inställt – det här tillfället blir inte av.</p>}
          <dl className="space-y-2">
            <div className="flex items-start gap-2">
              <dt className="pt-0.5">
                <CalendarDays aria-hidden="true" className="size-5 text-brand-700" />
                <span className="sr-only">När</span>
              </dt>
              <dd className={`font-semibold ${quiz.isCancelled ? 'line-through' : ''}`}>
                <time dateTime={`${quiz.date}T${displayTime(quiz.startTime)}`}>
                  {displayDate(quiz.date)} kl. {displayTime(quiz.startTime)}
                </time>
              </dd>
            </div>
            <div className="flex items-start gap-2">
              <dt className="pt-0.5">
                <MapPin aria-hidden="true" className="size-5 text-brand-700" />
                <span className="sr-only">Var</span>
              </dt>
              <dd>
                <span className="font-semibold">{quiz.location.name !== quiz.venue.name ? `${quiz.venue.name} – ${quiz.location.name}` : quiz.venue.name}</span>
                <span>
                  , {quiz.location.address}, {quiz.location.city}
                </span>{' '}
                <a
                  href={directionsUrl(quiz.position ?? null, `${quiz.location.address}, ${quiz.location.city}`)}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-track="click_directions"
                  data-track-quiz={quiz.id}
                  className="whitespace-nowrap font-semibold text-brand-700 underline"
                >
                  Vägbeskrivning
                </a>
              </dd>
            </div>
          </dl>
          <ul aria-label="Om kvällen" className="flex list-none flex-wrap gap-2 p-0">
            <li className={CHIP}>{displayPrice(quiz.price)}</li>
            {quiz.teamSize ? <li className={CHIP}>Max {quiz.teamSize} per lag</li> : null}
            {quiz.categoryLabel ? <li className={CHIP}>{quiz.categoryLabel}</li> : null}
            {QUIZ_LANGUAGE_BADGES[quiz.language] ? (
              <li className="rounded-full bg-sky-100 px-3 py-1 text-sm font-semibold text-sky-900">{QUIZ_LANGUAGE_BADGES[quiz.language]}</li>
            ) : null}
          </ul>
          <fieldset
            aria-label="Gör något med quizet"
            className="min-w-0 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl bg-brand-50 px-3 py-2 text-sm font-semibold"
          >
            <AddToCalendar quiz={quiz} />
            <ShareButton path={venueHref(quiz.location.citySlug, quiz.venue.slug)} title={`Pubquiz på ${quiz.venue.name}`} track={{ quizId: quiz.id }} />
            <FollowButton target={{ placeId: quiz.location.id, label: quiz.location.name }} track={{ quizId: quiz.id }} />
          </fieldset>
          {/* "Vi kommer" (issue 47): fresh figures and the RSVP form. */}
          <Suspense fallback={null}>
            <RsvpPanel quizId={quiz.id} cancelled={quiz.isCancelled} />
          </Suspense>
          {(quiz.quizmaster || quiz.quizmasterProfile || website || (quiz.tier === 'premium' && quiz.location.phone)) && (
            <ul className="list-none space-y-1 p-0 text-sm">
              {(quiz.quizmaster || quiz.quizmasterProfile) && (
                <li>
                  <QuizmasterLink quiz={quiz} />
                </li>
              )}
              {website && (
                <li>
                  Webbplats:{' '}
                  <a
                    href={website}
                    className="text-brand-700 underline"
                    rel="noopener noreferrer"
                    target="_blank"
                    data-track="click_website"
                    data-track-quiz={quiz.id}
                  >
                    {website.replace(/^https?:\/\//, '')}
                  </a>
                </li>
              )}
              {quiz.tier === 'premium' && quiz.location.phone && (
                <li>
                  Telefon:{' '}
                  <a href={`tel:${quiz.location.phone}`} className="text-brand-700 underline" data-track="click_phone" data-track-quiz={quiz.id}>
                    {quiz.location.phone}
                  </a>
                </li>
              )}
            </ul>
          )}
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
          <div className="flex flex-wrap gap-x-4 gap-y-2 border-t border-slate-200 pt-4 text-sm font-semibold">
            <a href={venueHref(quiz.location.citySlug, quiz.venue.slug)} className="text-brand-700 underline">
              Alla quiz på {quiz.venue.name}
            </a>
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
