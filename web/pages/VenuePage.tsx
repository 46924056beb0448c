import { Suspense, useState } from 'react';
import { directionsUrl, LazyQuizMap } from '../components/map/loader';
import { displayDate, displayPrice, displayTime, freshnessLine } from '../../worker/lib/swedish';
import { QUIZ_LANGUAGE_BADGES } from '../../worker/lib/quiz-filters';
import { feedPaths } from '../../worker/features/calendar/event';
import { AddToCalendar } from '../components/calendar/AddToCalendar';
import { SubscribeCalendar } from '../components/calendar/SubscribeCalendar';
import { LazyQuizDetailDialog as QuizDetailDialog } from '../components/listing/LazyQuizDetailDialog';
import { ShareButton } from '../components/share/ShareButton';
import { FollowButton } from '../components/follows/FollowButton';
import { QuizmasterLink } from '../components/quizmasters/QuizmasterLink';
import { PageHero } from './PageHero';
import type { ListingQuiz, VenuePageData } from './types';
import { figuresLine } from '../../worker/lib/rsvp-words';

const RECURRING_SHOWN = 3;

function QuizRow({ quiz, onOpen }: { quiz: ListingQuiz; onOpen: (q: ListingQuiz) => void }) {
  return (
    <li id={`quiz-${quiz.id}`} className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-slate-200 bg-white p-4">
      <div>
        <p className="font-semibold">
          <button type="button" className="text-left hover:underline" onClick={() => onOpen(quiz)}>
            {quiz.title || quiz.categoryLabel || 'Quiz'}
          </button>
          {quiz.isCancelled && <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-sm font-bold text-red-800">Inställt</span>}
          {QUIZ_LANGUAGE_BADGES[quiz.language] && (
            <span className="ml-2 rounded-full bg-sky-100 px-2 py-0.5 text-sm font-semibold text-sky-900">{QUIZ_LANGUAGE_BADGES[quiz.language]}</span>
          )}
        </p>
        <p className="text-sm text-slate-700">
          {displayDate(quiz.date)} kl. {displayTime(quiz.startTime)} · {quiz.location.name}, {quiz.location.city}
        </p>
        {/* "Vi kommer" (issue 47): as of the page's render; the dialog reads fresh figures (decision 0019). */}
        {!quiz.isCancelled && figuresLine(quiz) ? (
          <p className="text-sm font-semibold text-slate-800" data-rsvp-figures="">
            {figuresLine(quiz)}
          </p>
        ) : null}
        {(quiz.quizmasterProfile || quiz.quizmaster) && <QuizmasterLink quiz={quiz} className="text-sm text-slate-700" />}
      </div>
      <p className="text-sm font-semibold text-slate-800">
        {quiz.title && quiz.categoryLabel ? `${quiz.categoryLabel} · ` : ''}
        {displayPrice(quiz.price)}
        {quiz.teamSize ? ` · max ${quiz.teamSize} per lag` : ''}
      </p>
      <AddToCalendar quiz={quiz} className="w-full text-sm" />
    </li>
  );
}

/** Public venue page (spec 02 §2.8). */
export function VenuePage({ data }: { data: VenuePageData }) {
  const { venue, stats } = data;
  const [showAll, setShowAll] = useState(false);
  const [open, setOpen] = useState<ListingQuiz | null>(null);
  const [mapOpen, setMapOpen] = useState(false);
  const recurring = showAll ? data.recurring : data.recurring.slice(0, RECURRING_SHOWN);
  const more = data.recurring.length - RECURRING_SHOWN;
  // A follow is of one place: a business with several places gets one "Följ {ställe}, {stad}" per place.
  const followPlaces = [...new Map([...data.recurring, ...data.specials].map((q) => [q.location.id, q.location] as const)).values()];
  return (
    <>
      <PageHero
        crumbs={[{ label: data.city.name, href: `/quiz/${data.city.slug}` }, { label: venue.name }]}
        title={venue.name}
        subtitle={venue.address ?? undefined}
      >
        <div className="mt-3 flex flex-wrap items-center gap-3 sm:mt-5">
          <SubscribeCalendar feedPath={feedPaths.venue(data.city.slug, venue.slug)} track={{ venueId: venue.id }} />
          <ShareButton
            path={`/quiz/${data.city.slug}/${venue.slug}`}
            title={`${venue.name} – quiz i ${data.city.name}`}
            track={{ venueId: venue.id }}
            className="inline-flex items-center gap-1.5 rounded-xl border border-white/40 bg-white/10 px-4 py-2 font-semibold text-white hover:bg-white/20"
          />
        </div>
      </PageHero>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 lg:grid-cols-[2fr_1fr]">
        <div className="space-y-8">
          {followPlaces.length === 1 && <FollowButton target={{ placeId: followPlaces[0]!.id, label: venue.name }} track={{ venueId: venue.id }} />}
          {followPlaces.length > 1 && (
            <div className="flex flex-wrap gap-2">
              {followPlaces.map((p) => (
                <FollowButton key={p.id} target={{ placeId: p.id, label: `${p.name}, ${p.city}` }} track={{ venueId: venue.id }} />
              ))}
            </div>
          )}
          <p className="text-sm text-slate-600">{freshnessLine(venue.freshness)}</p>
          {data.lastWinner && (
            <p className="rounded-xl border border-slate-200 bg-white p-4">
              Senaste vinnare ({displayDate(data.lastWinner.date)}):{' '}
              <a href={`/lag/${data.lastWinner.slug}`} className="font-semibold text-brand-700 underline">
                {data.lastWinner.team}
              </a>{' '}
              ·{' '}
              <a href={`/quiz/${data.city.slug}/${venue.slug}/resultat`} className="font-semibold text-brand-700 underline">
                Alla resultat
              </a>
            </p>
          )}
          {venue.description && <p className="whitespace-pre-line text-lg text-slate-800">{venue.description}</p>}
          <section aria-labelledby="recurring-heading" className="space-y-3">
            <h2 id="recurring-heading" className="text-2xl font-bold">
              Återkommande quiz
            </h2>
            {data.recurring.length === 0 ? (
              <p className="text-slate-700">Inga återkommande quiz just nu.</p>
            ) : (
              <ul className="space-y-2">
                {recurring.map((q) => (
                  <QuizRow key={q.id} quiz={q} onOpen={setOpen} />
                ))}
              </ul>
            )}
            {!showAll && more > 0 && (
              <button type="button" onClick={() => setShowAll(true)} className="font-semibold text-brand-700 underline">
                {`+${more} fler`}
              </button>
            )}
          </section>
          <section aria-labelledby="special-heading" className="space-y-3">
            <h2 id="special-heading" className="text-2xl font-bold">
              Specialevenemang
            </h2>
            {data.specials.length === 0 ? (
              <p className="text-slate-700">Inga specialevenemang inplanerade.</p>
            ) : (
              <ul className="space-y-2">
                {data.specials.map((q) => (
                  <QuizRow key={q.id} quiz={q} onOpen={setOpen} />
                ))}
              </ul>
            )}
          </section>
        </div>
        <aside className="space-y-4">
          <section aria-labelledby="stats-heading" className="rounded-2xl border border-slate-200 bg-white p-5">
            <h2 id="stats-heading" className="text-lg font-bold">
              Statistik
            </h2>
            <dl className="mt-3 grid grid-cols-2 gap-3 text-center">
              <div>
                <dt className="text-sm text-slate-700">Kommande quiz</dt>
                <dd className="text-2xl font-extrabold">{stats.upcoming}</dd>
              </div>
              <div>
                <dt className="text-sm text-slate-700">Återkommande</dt>
                <dd className="text-2xl font-extrabold">{stats.recurring}</dd>
              </div>
              <div>
                <dt className="text-sm text-slate-700">Gratis quiz</dt>
                <dd className="text-2xl font-extrabold">{stats.free}</dd>
              </div>
              <div>
                <dt className="text-sm text-slate-700">Quizmasters</dt>
                <dd className="text-2xl font-extrabold">{stats.quizmasters}</dd>
              </div>
            </dl>
          </section>
          <section aria-labelledby="contact-heading" className="space-y-2 rounded-2xl border border-slate-200 bg-white p-5">
            <h2 id="contact-heading" className="text-lg font-bold">
              Kontakt
            </h2>
            {venue.address && <p>{venue.address}</p>}
            {venue.phone && (
              <p>
                Telefon:{' '}
                <a href={`tel:${venue.phone}`} className="text-brand-700 underline" data-track="click_phone" data-track-venue={venue.id}>
                  {venue.phone}
                </a>
              </p>
            )}
            {venue.website && (
              <a
                href={venue.website}
                target="_blank"
                rel="noopener noreferrer"
                data-track="click_website"
                data-track-venue={venue.id}
                className="inline-flex rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700"
              >
                Besök hemsida
              </a>
            )}
            {(venue.position || venue.address) && (
              <p>
                <a
                  href={directionsUrl(venue.position ?? null, venue.address ?? '')}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-track="click_directions"
                  data-track-venue={venue.id}
                  className="font-semibold text-brand-700 underline"
                >
                  Vägbeskrivning
                </a>
              </p>
            )}
          </section>
          {venue.position && data.mapTileUrl && (
            <section aria-labelledby="map-heading" className="space-y-2 rounded-2xl border border-slate-200 bg-white p-5">
              <h2 id="map-heading" className="text-lg font-bold">
                Karta
              </h2>
              {mapOpen ? (
                <Suspense fallback={<p role="status">Laddar karta…</p>}>
                  <LazyQuizMap
                    points={[{ id: venue.id, lat: venue.position.lat, lng: venue.position.lng, label: venue.name }]}
                    tileUrl={data.mapTileUrl}
                    label={`Karta över ${venue.name}`}
                    zoom={16}
                    className="h-56 w-full overflow-hidden rounded-xl"
                  />
                </Suspense>
              ) : (
                <button type="button" onClick={() => setMapOpen(true)} className="font-semibold text-brand-700 underline">
                  Visa på karta
                </button>
              )}
            </section>
          )}
        </aside>
      </div>
      <QuizDetailDialog quiz={open} onClose={() => setOpen(null)} />
    </>
  );
}
