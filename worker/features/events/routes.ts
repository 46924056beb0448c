import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../../context';
import { invalidInput, rateLimited } from '../../lib/errors';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import { EventsBatchSchema, MAX_EVENTS_BODY_BYTES } from './contract';
import { EVENTS_RATE_LIMIT, isBot, recordEvents, takeEventsSlot } from './service';

/**
 * POST /api/events (issue 18): 204 for every valid batch (also when nothing was counted: bots, unknown
 * ids, hidden businesses, the owner's own views, repeats by the same client on the same day), 400 for a bad shape or a body over 16 KB, 429 over the per-client limit,
 * never a 5xx — a failed write is logged and dropped.
 */
export const eventsRoutes = new Hono<AppEnv>().post(
  '/',
  async (c, next) => {
    const client = clientKeyOf(c.req);
    // Real elapsed time on purpose (an in-memory throttle, not a date in Stockholm): a pinned clock
    // (CLOCK_NOW in development) would never let the window end.
    if (!takeEventsSlot(client, Date.now())) throw rateLimited('För många händelser. Försök igen om en stund.', EVENTS_RATE_LIMIT.windowMs / 1000);
    await next();
  },
  bodyLimit({
    maxSize: MAX_EVENTS_BODY_BYTES,
    onError: () => {
      throw invalidInput('Händelser: för stor förfrågan');
    },
  }),
  validate('json', EventsBatchSchema),
  async (c) => {
    if (isBot(c.req.header('user-agent'))) return c.body(null, 204);
    try {
      await recordEvents(c.var.deps, { events: c.req.valid('json').events, viewerId: c.var.user?.id ?? null, client: clientKeyOf(c.req) });
    } catch (err) {
      console.error(`[${c.get('requestId') ?? '-'}] events not counted`, err);
    }
    return c.body(null, 204);
  },
);
