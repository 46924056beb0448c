/**
 * What a sync wrote to a quiz, as a short fingerprint (issue 31.2). Eager: the sync compares stored quizzes with
 * it, while the calendar parsing itself (ics.ts) is a lazy module.
 */
import { DEFAULT_QUIZ_LANGUAGE } from '../../lib/quiz-filters';

/**
 * A short stable fingerprint (FNV-1a, 32 bit) of what a sync wrote to a quiz. The language counts only when it
 * is not svenska, so the fingerprints stored before the quiz had a language (issue 31.3) still match.
 */
export function fingerprint(q: {
  date: string;
  startTime: string | null;
  title: string | null;
  description: string | null;
  isCancelled: boolean;
  language?: string | undefined;
}): string {
  const fields: unknown[] = [q.date, q.startTime, q.title, q.description, q.isCancelled];
  if (q.language && q.language !== DEFAULT_QUIZ_LANGUAGE) fields.push(q.language);
  const s = JSON.stringify(fields);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
