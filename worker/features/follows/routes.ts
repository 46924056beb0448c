import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { requireActor, requireSuperadmin } from '../../lib/authz';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import { FollowIdParamSchema, FollowPatchSchema, FollowRequestSchema } from './contract';
import { followStats, listDeadLetters, listFollows, removeFollow, requestFollow, setReminders, type FollowDeps } from './service';

export function followDeps(c: Context<AppEnv>): FollowDeps {
  return { db: c.var.db, now: c.var.clock.now(), today: c.var.clock.today(), appUrl: c.var.config.appUrl, linkSecret: c.var.config.linkSigningSecret };
}

/** /api/follows: follow (visitor by e-mail with double opt-in, or signed in), and the signed-in user's list. */
export const followRoutes = new Hono<AppEnv>()
  .post('/', validate('json', FollowRequestSchema), async (c) => {
    const out = await requestFollow({ ...followDeps(c), queue: c.env.MAIL_QUEUE }, c.var.user, c.req.valid('json'), clientKeyOf(c.req));
    return out.status === 201 ? c.json({ follow: out.follow }, 201) : c.json({ message: out.message }, 202);
  })
  .get('/', async (c) => {
    const user = c.var.user;
    requireActor(user);
    return c.json({ follows: await listFollows(c.var.db, { userId: user.id }) });
  })
  .patch('/:id', validate('param', FollowIdParamSchema), validate('json', FollowPatchSchema), async (c) => {
    const user = c.var.user;
    requireActor(user);
    const follow = await setReminders(c.var.db, { userId: user.id }, c.req.valid('param').id, c.req.valid('json').reminders, c.var.clock.now());
    return c.json({ follow });
  })
  .delete('/:id', validate('param', FollowIdParamSchema), async (c) => {
    const user = c.var.user;
    requireActor(user);
    await removeFollow(c.var.db, { userId: user.id }, c.req.valid('param').id);
    return c.json({ success: true });
  });

/** Superadmin views of the follow mail (mounted under /api/admin): counts only, and the dead letters. */
export const followAdminRoutes = new Hono<AppEnv>()
  .get('/follows/stats', async (c) => {
    requireSuperadmin(c.var.user);
    return c.json(await followStats(c.var.db, c.var.clock.now()));
  })
  .get('/dead-letters', async (c) => {
    requireSuperadmin(c.var.user);
    return c.json({ deadLetters: await listDeadLetters(c.var.db) });
  });
