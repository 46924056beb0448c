import { displayDate, displayPrice, displayTime } from '../../../worker/lib/swedish';
import { QUIZ_LANGUAGE_BADGES } from '../../../worker/lib/quiz-filters';
import type { ListingQuiz } from '../../pages/types';
import { AddToCalendar } from '../calendar/AddToCalendar';
import { venueHref } from './urls';
import { figuresLine } from '../../../worker/lib/rsvp-words';
import { memo, type CSSProperties } from 'react';
import { QuizmasterLink } from '../quizmasters/QuizmasterLink';

/** LISTING_PAGE_SIZE of the listing contract, not imported: that module brings zod into the public bundle. */
const PAGE_SIZE = 12;

interface CardProps {
  quiz: ListingQuiz;
  /** Position in the list: the entrance animation starts 100 ms later per index within a page (spec 01 §9). */
  index?: number;
  onOpen: (quiz: ListingQuiz) => void;
  onRecommended: () => void;
}

/**
 * A quiz card (spec 01 §2). Fully readable without JavaScript; the name opens the detail dialog. Memoised
 * (issue 29.13): opening a dialog or a state change of the listing does not re-render twelve unchanged cards.
 */
export const QuizCard = memo(function QuizCard({ quiz, index = 0, onOpen, onRecommended }: CardProps) {
  const premium = quiz.tier === 'premium';
  const name = quiz.title || quiz.venue.name;
  return (
    <article
      data-quiz-id={quiz.id}
      data-tier={quiz.tier}
      style={{ '--card-index': index % PAGE_SIZE } as CSSProperties}
      className={`card-enter flex h-full flex-col rounded-2xl border bg-white shadow-sm ${premium ? 'border-amber-400 ring-2 ring-amber-300' : 'border-slate-200'}`}
    >
      {quiz.tier === 'recommended' && (
        <button
          type="button"
          onClick={onRecommended}
          className="rounded-t-2xl bg-brand-600 px-4 py-1.5 text-left text-sm font-bold text-white hover:bg-brand-700"
        >
          Rekommenderat
        </button>
      )}
      <div className={`flex flex-1 flex-col gap-2 p-4 ${premium ? 'sm:p-6' : ''}`}>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {quiz.categoryLabel && <span className="rounded-full bg-brand-50 px-2.5 py-0.5 font-semibold text-brand-800">{quiz.categoryLabel}</span>}
          {quiz.isCancelled && <span className="rounded-full bg-red-100 px-2.5 py-0.5 font-bold text-red-800">Inställt</span>}
          {QUIZ_LANGUAGE_BADGES[quiz.language] && (
            <span className="rounded-full bg-sky-100 px-2.5 py-0.5 font-semibold text-sky-900">{QUIZ_LANGUAGE_BADGES[quiz.language]}</span>
          )}
          <span className="text-slate-700">{displayPrice(quiz.price)}</span>
          {quiz.tier !== 'standard' && (
            // Paid placement is labelled and explained (P2B regulation 2019/1150 art. 5; issue 18).
            <a
              href="/annonsera"
              className="ml-auto rounded border border-slate-300 px-1.5 text-xs font-semibold uppercase tracking-wide text-slate-700 hover:bg-slate-100"
              title="Betald placering – så fungerar det"
            >
              Annons
            </a>
          )}
        </div>
        <h3 className={`font-bold ${premium ? 'text-2xl' : 'text-lg'}`}>
          <button type="button" onClick={() => onOpen(quiz)} className="text-left hover:underline">
            {name}
          </button>
        </h3>
        {quiz.title && <p className="text-sm font-semibold text-slate-800">{quiz.venue.name}</p>}
        {quiz.quizmasterProfile && <QuizmasterLink quiz={quiz} className="text-sm text-slate-800" />}
        <p className={`text-slate-800 ${quiz.isCancelled ? 'line-through' : ''}`}>
          <time dateTime={`${quiz.date}T${displayTime(quiz.startTime)}`}>
            {displayDate(quiz.date)} kl. {displayTime(quiz.startTime)}
          </time>
        </p>
        <p className="text-sm text-slate-700">
          {quiz.location.name !== quiz.venue.name ? `${quiz.location.name}, ` : ''}
          {quiz.location.address}, {quiz.location.city}
        </p>
        {/* "Vi kommer" (issue 47): as of the page's render (the dialog reads fresh figures; decision 0019). */}
        {!quiz.isCancelled && figuresLine(quiz) ? (
          <p className="text-sm font-semibold text-slate-800" data-rsvp-figures="">
            {figuresLine(quiz)}
          </p>
        ) : null}
        {quiz.distance && (
          <p className="text-sm font-semibold text-brand-800" data-distance-km={quiz.distanceKm}>
            {quiz.distance} bort
          </p>
        )}
        {premium && quiz.description && <p className="text-slate-700">{quiz.description}</p>}
        {premium && quiz.location.phone && <p className="text-sm text-slate-700">Telefon: {quiz.location.phone}</p>}
        <div className="mt-auto flex flex-wrap gap-3 pt-2 text-sm font-semibold">
          <button type="button" onClick={() => onOpen(quiz)} className="text-brand-700 hover:underline" aria-label={`Visa detaljer om ${name}`}>
            Visa detaljer
          </button>
          <a href={venueHref(quiz.location.citySlug, quiz.venue.slug)} className="text-brand-700 hover:underline">
            Om {quiz.venue.name}
          </a>
          <AddToCalendar quiz={quiz} />
        </div>
      </div>
    </article>
  );
});

/** Placeholder card shown while loading takes longer than 300 ms. */
export function SkeletonCard({ premium = false }: { premium?: boolean }) {
  return (
    <div aria-hidden="true" className={`animate-pulse rounded-2xl border border-slate-200 bg-white p-4 ${premium ? 'h-48' : 'h-40'}`}>
      <div className="h-4 w-24 rounded bg-slate-200" />
      <div className="mt-3 h-6 w-2/3 rounded bg-slate-200" />
      <div className="mt-3 h-4 w-1/2 rounded bg-slate-200" />
      <div className="mt-2 h-4 w-1/3 rounded bg-slate-200" />
    </div>
  );
}
