import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { requireActor, requireSuperadmin } from '../../lib/authz';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import { FollowIdParamSchema, FollowPatchSchema, FollowRequestSchema, PushStopSchema, PushSubscriptionSchema } from './contract';
import { pushedFollowIds, pushPublicKey, stopPush, subscribePush, unsubscribePush } from './push';
import { followStats, listDeadLetters } from './admin';
import type { FollowDeps } from './links';
import { listFollows, removeFollow, requestFollow, setReminders } from './rules';

/** The request's deps (the follow pages share them). */
export function followDeps(c: Context<AppEnv>): FollowDeps {
  return c.var.deps;
}

/** /api/follows: follow (visitor by e-mail with double opt-in, or signed in), and the signed-in user's list. */
export const followRoutes = new Hono<AppEnv>()
  .post('/', validate('json', FollowRequestSchema), async (c) => {
    const out = await requestFollow(c.var.deps, c.var.user, { ...c.req.valid('json'), clientKey: clientKeyOf(c.req), queue: c.var.deps.mailQueue });
    return out.status === 201 ? c.json({ follow: out.follow }, 201) : c.json({ message: out.message }, 202);
  })
  .get('/', async (c) => {
    const user = c.var.user;
    requireActor(user);
    return c.json({ follows: await listFollows(c.var.deps, { owner: { userId: user.id } }) });
  })
  // Push reminders (issue 32): the VAPID key to subscribe with, which follows remind by push, opt in/out per follow.
  .get('/push-key', (c) => c.json({ publicKey: pushPublicKey(c.var.deps) }))
  .get('/push', async (c) => {
    const user = c.var.user;
    requireActor(user);
    return c.json({ followIds: await pushedFollowIds(c.var.deps, { userId: user.id }) });
  })
  .put('/:id/push', validate('param', FollowIdParamSchema), validate('json', PushSubscriptionSchema), async (c) => {
    const user = c.var.user;
    requireActor(user);
    await subscribePush(c.var.deps, { owner: { userId: user.id }, followId: c.req.valid('param').id, subscription: c.req.valid('json') });
    return c.json({ success: true });
  })
  .delete('/:id/push', validate('param', FollowIdParamSchema), async (c) => {
    const user = c.var.user;
    requireActor(user);
    await unsubscribePush(c.var.deps, { owner: { userId: user.id }, followId: c.req.valid('param').id });
    return c.json({ success: true });
  })
  // "Sluta påminna" in a notification (web/pwa/sw.ts): no session; the subscription's endpoint is the proof.
  .post('/:id/push/stop', validate('param', FollowIdParamSchema), validate('json', PushStopSchema), async (c) => {
    await stopPush(c.var.deps, { followId: c.req.valid('param').id, endpoint: c.req.valid('json').endpoint });
    return c.json({ success: true });
  })
  .patch('/:id', validate('param', FollowIdParamSchema), validate('json', FollowPatchSchema), async (c) => {
    const user = c.var.user;
    requireActor(user);
    const follow = await setReminders(c.var.deps, { owner: { userId: user.id }, followId: c.req.valid('param').id, ...c.req.valid('json') });
    return c.json({ follow });
  })
  .delete('/:id', validate('param', FollowIdParamSchema), async (c) => {
    const user = c.var.user;
    requireActor(user);
    await removeFollow(c.var.deps, { owner: { userId: user.id }, followId: c.req.valid('param').id });
    return c.json({ success: true });
  });

/** Superadmin views of the follow mail (mounted under /api/admin): counts only, and the dead letters. */
export const followAdminRoutes = new Hono<AppEnv>()
  .get('/follows/stats', async (c) => {
    requireSuperadmin(c.var.user);
    return c.json(await followStats(c.var.deps));
  })
  .get('/dead-letters', async (c) => {
    requireSuperadmin(c.var.user);
    return c.json({ deadLetters: await listDeadLetters(c.var.deps) });
  });
