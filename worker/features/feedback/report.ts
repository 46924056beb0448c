/**
 * "Stämmer inte?" (issue 20 §4): a visitor reports wrong information about a listed quiz. The report
 * lands in the superadmin feedback inbox (category 'report') linked to the quiz (`quiz_id`) and its
 * listing unit (`report_unit`: the series, or the single quiz). Nothing personal is stored: no e-mail,
 * no user id, and the per-client rate limit is keyed by a hash of the client address. The third report
 * about a unit within 30 days mails the owner (at most once per 30-day period; never the house account).
 */
import { feedback } from '../../db/schema';
import { notFound, rateLimited } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { takeAttempt } from '../../lib/rate-limit';
import { displayDate } from '../../lib/swedish';
import { hashToken } from '../../lib/tokens';
import type { Deps } from '../../ports/deps';
import { type OutboxQueue, withNotices } from '../../ports/mailer';
import { REPORT_MAIL_KEY, REPORT_REASON_LABELS, type QuizReportInput } from './contract';
import { countUnitReports, reportedQuiz, unitReportsReach } from './queries';

export const REPORT_LIMIT = 5;
export const REPORT_WINDOW_MS = 60 * 60 * 1000;
export const REPORT_NOTIFY_COUNT = 3;
export const REPORT_NOTIFY_DAYS = 30;

export type ReportDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>;

export async function reportQuiz(deps: ReportDeps, input: QuizReportInput & { clientKey: string; queue: OutboxQueue }): Promise<{ id: string }> {
  const { db } = deps;
  const now = deps.clock.now();
  // Count first (README footguns): parallel reports cannot slip past the limit.
  await takeAttempt(db, `quiz-report:${hashToken(input.clientKey)}`, REPORT_LIMIT, REPORT_WINDOW_MS, now, (ms) =>
    rateLimited('För många rapporter. Försök igen om en stund.', Math.ceil(ms / 1000)),
  );
  const q = await reportedQuiz(db, input.quizId);
  if (!q) throw notFound('Quizet hittades inte.');
  const unit = q.recurrenceId ?? q.id;
  const reason = REPORT_REASON_LABELS[input.reason];
  const id = newId();
  const page = `${deps.config.appUrl}/quiz/${q.citySlug}/${q.venueSlug}`;
  const since = new Date(now.getTime() - REPORT_NOTIFY_DAYS * 86_400_000).toISOString();
  const period = Math.floor(now.getTime() / (REPORT_NOTIFY_DAYS * 86_400_000));
  const insert = db.insert(feedback).values({
    id,
    category: 'report',
    title: `Stämmer inte: ${reason} – ${q.venueName} (${q.date})`,
    description: `${input.text?.trim() || '(ingen text)'}\n\nQuiz: ${q.venueName}, ${q.locationName}, ${displayDate(q.date)}\n${page}`,
    senderEmail: null,
    userId: null,
    quizId: q.id,
    reportUnit: unit,
    // The clock's instant (pinned in tests), so the 30-day count and the inbox agree with it.
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  });
  if (q.ownerEmail === deps.config.houseAccountEmail.toLowerCase()) {
    await insert;
    return { id };
  }
  // Issue 27.3: the report and the owner's mail in one batch. The mail is written (once per 30-day period,
  // by its key) when this report makes the count reach REPORT_NOTIFY_COUNT, counted inside the batch so
  // parallel reports agree; the mail queue delivers it with retries.
  // For the mail's text only; whether it is written is decided by the count inside the batch.
  const n = (await countUnitReports(db, unit, since)) + 1;
  const mail = deps.mailer.outbox(
    {
      to: q.ownerEmail,
      subject: `Besökare säger att något inte stämmer hos ${q.venueName}`,
      text:
        `Hej!\n\n${n} besökare har de senaste ${REPORT_NOTIFY_DAYS} dagarna rapporterat att uppgifterna om ert quiz på ${q.venueName} (${q.locationName}) inte stämmer. ` +
        `Senaste rapporten: ${reason}.\n\nLogga in och kontrollera dagar, tider och om quizet fortfarande körs:\n${deps.config.appUrl}/admin\n\nHälsningar,\nQuizkväll`,
    },
    `${REPORT_MAIL_KEY}${unit}:${period}`,
    unitReportsReach(unit, since, REPORT_NOTIFY_COUNT),
  );
  await withNotices(db, [insert], [mail], input.queue);
  return { id };
}
