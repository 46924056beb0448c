import type { Deps } from '../../ports/deps';
import { feedback } from '../../db/schema';
import { rateLimited } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { hitRateLimit } from '../../lib/rate-limit';
import type { FeedbackInput } from './contract';

export const FEEDBACK_LIMIT = 10;
export const FEEDBACK_WINDOW_MS = 60 * 60 * 1000;

/** Stores feedback from the public form. A signed-in user's own e-mail replaces any typed one. */
export async function submitFeedback(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: FeedbackInput & { clientKey: string; user: { id: string; email: string } | null },
): Promise<{ id: string }> {
  const { db } = deps;
  const ctx = input;
  const limit = await hitRateLimit(db, `feedback:${ctx.clientKey}`, FEEDBACK_LIMIT, FEEDBACK_WINDOW_MS, deps.clock.now());
  if (!limit.allowed) {
    throw rateLimited('För många feedbackmeddelanden. Försök igen om en stund.', Math.ceil(limit.retryAfterMs / 1000));
  }
  const id = newId();
  await db.insert(feedback).values({
    id,
    category: input.category,
    title: input.title,
    description: input.description,
    senderEmail: ctx.user?.email ?? (input.senderEmail ? input.senderEmail.toLowerCase() : null),
    userId: ctx.user?.id ?? null,
  });
  return { id };
}
