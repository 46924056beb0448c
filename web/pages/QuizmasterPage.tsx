import { useState } from 'react';
import { displayDate, displayPrice, displayTime } from '../../worker/lib/swedish';
import { feedPaths } from '../../worker/features/calendar/event';
import { AddToCalendar } from '../components/calendar/AddToCalendar';
import { SubscribeCalendar } from '../components/calendar/SubscribeCalendar';
import { LazyQuizDetailDialog as QuizDetailDialog } from '../components/listing/LazyQuizDetailDialog';
import { ShareButton } from '../components/share/ShareButton';
import { FollowButton } from '../components/follows/FollowButton';
import { PageHero } from './PageHero';
import type { ListingQuiz, QuizmasterPageData } from './types';

/** Public quizmaster profile (issue 48): photo, bio and the next quiz of every series the quizmaster leads, at every venue. */
export function QuizmasterPage({ data }: { data: QuizmasterPageData }) {
  const { profile, upcoming } = data;
  const [open, setOpen] = useState<ListingQuiz | null>(null);
  const venues = [...new Map(upcoming.map((q) => [q.venue.id, q] as const)).values()];
  return (
    <>
      <PageHero crumbs={[{ label: profile.name }]} title={profile.name} subtitle="Quizmaster">
        <div className="mt-3 flex flex-wrap items-center gap-3 sm:mt-5">
          <SubscribeCalendar feedPath={feedPaths.quizmaster(profile.slug)} />
          <ShareButton
            path={`/quizmaster/${profile.slug}`}
            title={`${profile.name} – quizmaster`}
            className="inline-flex items-center gap-1.5 rounded-xl border border-white/40 bg-white/10 px-4 py-2 font-semibold text-white hover:bg-white/20"
          />
        </div>
      </PageHero>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 lg:grid-cols-[1fr_2fr]">
        <section aria-labelledby="bio-heading" className="space-y-4">
          <h2 id="bio-heading" className="sr-only">
            Om {profile.name}
          </h2>
          <FollowButton target={{ filters: { quizmaster: profile.slug }, label: profile.name, person: true }} />
          {profile.photoUrl && (
            <img src={profile.photoUrl} alt={`Foto på ${profile.name}`} width={160} height={160} className="h-40 w-40 rounded-full object-cover" />
          )}
          {profile.bio ? (
            <p className="whitespace-pre-line text-lg text-slate-800">{profile.bio}</p>
          ) : (
            <p className="text-slate-700">Ingen presentation ännu.</p>
          )}
          {venues.length > 0 && (
            <p className="text-slate-700">
              Leder quiz på{' '}
              {venues.map((q, i) => (
                <span key={q.venue.id}>
                  {i > 0 ? ', ' : ''}
                  <a className="text-brand-700 underline" href={`/quiz/${q.location.citySlug}/${q.venue.slug}`}>
                    {q.venue.name}
                  </a>
                </span>
              ))}
              .
            </p>
          )}
        </section>
        <section aria-labelledby="upcoming-heading" className="space-y-3">
          <h2 id="upcoming-heading" className="text-2xl font-bold">
            Kommande quiz
          </h2>
          {upcoming.length === 0 ? (
            <p className="text-slate-700">Inga inplanerade quiz just nu.</p>
          ) : (
            <ul className="space-y-2">
              {upcoming.map((q) => (
                <li key={q.id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-slate-200 bg-white p-4">
                  <div>
                    <p className="font-semibold">
                      <button type="button" className="text-left hover:underline" onClick={() => setOpen(q)}>
                        {q.title || `Quiz på ${q.venue.name}`}
                      </button>
                      {q.isCancelled && <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-sm font-bold text-red-800">Inställt</span>}
                    </p>
                    <p className="text-sm text-slate-700">
                      {displayDate(q.date)} kl. {displayTime(q.startTime)} ·{' '}
                      <a className="text-brand-700 underline" href={`/quiz/${q.location.citySlug}/${q.venue.slug}`}>
                        {q.venue.name}
                      </a>
                      , {q.location.city}
                    </p>
                  </div>
                  <p className="text-sm font-semibold text-slate-800">
                    {q.categoryLabel} · {displayPrice(q.price)}
                  </p>
                  <AddToCalendar quiz={q} className="w-full text-sm" />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <QuizDetailDialog quiz={open} onClose={() => setOpen(null)} />
    </>
  );
}
